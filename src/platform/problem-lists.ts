/**
 * What a run's Sync log line says about the items it could not take as they are (records of the
 * wrong shape, schedules it cannot compute): how many, the first few by name, and "and N more".
 */
import type { RejectedRecord } from '../api/schemas';
import { formatCount } from '../lib/numbers';
import { CELL_TEXT_LIMIT, describeCut, type TextCut } from '../sheets/cell-text';

/** How many items a Sync log line names before it says "and N more". */
export const LISTED_PROBLEMS = 20;

/** Records of the wrong shape: the first few, to list, and how many in all (kept across executions). */
export interface RejectedSummary {
  listed: RejectedRecord[];
  count: number;
}

export function summarizeRejected(
  rejected: readonly RejectedRecord[],
  earlier?: RejectedSummary,
): RejectedSummary {
  const listed = [...(earlier?.listed ?? []), ...rejected.slice(0, LISTED_PROBLEMS)];
  return { listed: listed.slice(0, LISTED_PROBLEMS), count: (earlier?.count ?? 0) + rejected.length };
}

/** "N <what>: a; b; and M more." from the count and the names of the first few. */
export function listProblems(count: number, listed: readonly string[], what: string): string | null {
  if (count === 0) return null;
  const more = count > listed.length ? `; and ${count - listed.length} more` : '';
  return `${count} ${what}: ${listed.slice(0, LISTED_PROBLEMS).join('; ')}${more}.`;
}

export function describeRejectedRecord(record: RejectedRecord): string {
  return `${record.source} (${record.problem})`;
}

export function describeRejected({ listed, count }: RejectedSummary): string | null {
  const what =
    count === 1
      ? 'record skipped because it does not have the documented shape'
      : 'records skipped because they do not have the documented shape';
  return listProblems(count, listed.map(describeRejectedRecord), what);
}

/** Texts cut to fit a cell (see sheets/cell-text.ts), for the run's message and the Sync log. */
export function describeCuts(cuts: readonly TextCut[]): string | null {
  return listProblems(
    cuts.length,
    cuts.slice(0, LISTED_PROBLEMS).map(describeCut),
    `texts longer than a cell holds (${formatCount(CELL_TEXT_LIMIT)} characters) were cut to fit, ` +
      'with a note at the cut; the full text is in the service',
  );
}

/**
 * A tab the user fills in that holds what the add-on cannot read (Trainings, People, Requirements):
 * the first few problems, and what to do once they are corrected.
 */
export class UnreadableTab extends Error {
  constructor(sheetName: string, problems: readonly string[], unit: 'cell' | 'row') {
    super(
      listProblems(
        problems.length,
        problems.slice(0, LISTED_PROBLEMS),
        `${unit}${problems.length === 1 ? '' : 's'} of the "${sheetName}" tab Safety Sync cannot read`,
      )! + ' Correct them and choose Safety Sync → Show training status.',
    );
    this.name = 'UnreadableTab';
  }
}
