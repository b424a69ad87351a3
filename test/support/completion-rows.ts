/**
 * The rows a manager should see on the "Completed trainings" tab for the service's data, in the
 * service's order, as displayed: ids as sent, names from the service's users, dates as the
 * service's days, `created` in the spreadsheet's zone, and the record key.
 */
import { completionKey } from '../../src/api/completion-key';
import type { Completion } from '../../src/api/schemas';
import { dateTimeIn, isoOfDateNumber } from './displayed-dates';
import type { DatasetData } from './sample-service';

export function expectedCompletionRows(data: DatasetData, timeZone: string): string[][] {
  const names = new Map(data.users.map((user) => [user.id, user.name]));
  return (data.completions as unknown as Completion[]).map((record) => [
    record.user_id,
    names.get(record.user_id) ?? '',
    record.training_id,
    isoOfDateNumber(record.dateNumber),
    isoOfDateNumber(record.specialExpirationDateNumber),
    record.instructor_id,
    names.get(record.instructor_id) ?? '',
    record.groupTraining_id,
    dateTimeIn(record.created > 1e11 ? record.created : record.created * 1000, timeZone),
    completionKey(record),
  ]);
}
