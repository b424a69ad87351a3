/**
 * The rows a manager should see on the "Completed trainings" tab for the service's data, in the
 * service's order, as displayed: ids as sent, names from the service's users, dates as the
 * service's days, `created` in the spreadsheet's zone, and the row key (the tests' own rule:
 * record-key-oracle.ts).
 */
import type { Completion } from '../../src/api/schemas';
import { dateTimeIn, isoOfDateNumber } from './displayed-dates';
import { rowKeysOf } from './record-key-oracle';
import type { AddonHarness } from './addon-harness';
import type { DatasetData } from './sample-service';

export function expectedCompletionRows(data: DatasetData, timeZone: string): string[][] {
  const names = new Map(data.users.map((user) => [user.id, user.name]));
  const records = data.completions as unknown as Completion[];
  const keys = rowKeysOf(records);
  return records.map((record, index) => [
    record.user_id,
    names.get(record.user_id) ?? '',
    record.training_id,
    isoOfDateNumber(record.dateNumber),
    isoOfDateNumber(record.specialExpirationDateNumber),
    record.instructor_id,
    names.get(record.instructor_id) ?? '',
    record.groupTraining_id,
    dateTimeIn(record.created > 1e11 ? record.created : record.created * 1000, timeZone),
    keys[index]!,
  ]);
}

/** The row keys the Completed trainings tab shows (under `name`), top to bottom (its tenth column). */
export function shownRowKeys(harness: AddonHarness, name = 'Completed trainings'): string[] {
  return harness
    .displayed(name)
    .slice(1)
    .map((row) => row[9]!);
}

/**
 * The service's list now, as the tab should hold it: its row keys (twins `key~2`…), by the tests'
 * own rule; `edits` change records by position first (what the tab should show after them).
 */
export async function servedRowKeys(
  harness: AddonHarness,
  edits: Record<string, unknown>[] = [],
): Promise<string[]> {
  const served = (await harness.dataset.data()).completions;
  return rowKeysOf(served.map((record, position) => ({ ...record, ...edits[position] })));
}
