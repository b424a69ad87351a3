/**
 * Completed-training records as the rows of the "Completed trainings" tab: ids as literal text,
 * completion and expiration dates as date-only serials (the service's day, whatever the
 * spreadsheet's time zone), `created` as a date-time in the spreadsheet's time zone, and a hidden
 * key that identifies the record across refreshes (completions have no id of their own).
 */
import { rowKeys } from '../../api/completion-key';
import type { Completion } from '../../api/schemas';
import { LISTED_PROBLEMS, listProblems } from '../../platform/problem-lists';
import { type CellValue, type ColumnSpec, columnIndexes, type Table } from '../../sheets/table';
import {
  createdToEpochMs,
  epochMsToSheetSerial,
  fromDateNumber,
  toSheetSerial,
  type UtcOffsetAt,
} from '../../lib/dates';

export const COMPLETIONS_SHEET = 'Completed trainings';
/** The tab's named range (over the whole table); every column of it is imported, so protected. */
export const COMPLETIONS_GUARD = { rangeName: 'SafetySync_Completions' };

const COMPLETION_SPEC = [
  { id: 'userId', header: 'User ID', kind: 'text', width: 100 },
  { header: 'User name', kind: 'text', width: 180 },
  { id: 'trainingId', header: 'Training ID', kind: 'text', width: 100 },
  { id: 'completionDate', header: 'Completion date', kind: 'date', width: 100 },
  { header: 'Special expiration date', kind: 'date', width: 160 },
  { header: 'Instructor ID', kind: 'text', width: 100 },
  { header: 'Instructor name', kind: 'text', width: 180 },
  { header: 'Group training ID', kind: 'text', width: 100 },
  { id: 'created', header: 'Created', kind: 'datetime', width: 160 },
  { id: 'key', header: 'Record key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const COMPLETION_COLUMNS: readonly ColumnSpec[] = COMPLETION_SPEC;

export const COMPLETION_COLUMN = columnIndexes(COMPLETION_SPEC);

/** The tab's shape, for reading what it holds (see readTabContent). */
export const COMPLETIONS_TAB = { columns: COMPLETION_COLUMNS, keyColumn: COMPLETION_COLUMN.key } as const;

/** A date number as a date-only cell; empty when it is absent or not a calendar date. */
function dateCell(dateNumber: number | undefined): CellValue {
  const date = dateNumber === undefined ? null : fromDateNumber(dateNumber);
  return date === null ? null : toSheetSerial(date);
}

/**
 * The records whose optional special expiration date is not a calendar date (their cell stays
 * empty), as a sentence for the Sync log; null when there are none.
 */
export function describeInvalidExpirations(records: readonly Completion[]): string | null {
  const invalid = records.filter(
    (record) =>
      record.specialExpirationDateNumber !== undefined &&
      fromDateNumber(record.specialExpirationDateNumber) === null,
  );
  const what =
    invalid.length === 1
      ? 'record imported with an empty special expiration date, because the service sent a value that is not a date (YYYYMMDD)'
      : 'records imported with an empty special expiration date, because the service sent values that are not dates (YYYYMMDD)';
  return listProblems(
    invalid.length,
    invalid
      .slice(0, LISTED_PROBLEMS)
      .map(
        (record) =>
          `user ${record.user_id}, training ${record.training_id}, completed ${record.dateNumber} (specialExpirationDateNumber ${record.specialExpirationDateNumber})`,
      ),
    what,
  );
}

export type UserNames = ReadonlyMap<string, string | null>;

/** A record's row; `rowKey` is its key in the list it belongs to (see rowKeys). */
export function completionRow(
  record: Completion,
  rowKey: string,
  names: UserNames,
  utcOffsetAt: UtcOffsetAt,
): CellValue[] {
  return [
    record.user_id,
    names.get(record.user_id) ?? '',
    record.training_id,
    dateCell(record.dateNumber),
    dateCell(record.specialExpirationDateNumber),
    record.instructor_id,
    names.get(record.instructor_id) ?? '',
    record.groupTraining_id,
    epochMsToSheetSerial(createdToEpochMs(record.created), utcOffsetAt),
    rowKey,
  ];
}

export function completionsTable(
  records: readonly Completion[],
  names: UserNames,
  utcOffsetAt: UtcOffsetAt,
): Table {
  const keys = rowKeys(records);
  return {
    columns: COMPLETION_COLUMNS,
    rows: records.map((record, index) => completionRow(record, keys[index]!, names, utcOffsetAt)),
    keyColumn: COMPLETION_COLUMN.key,
  };
}

/**
 * Whether the rows are no longer newest first: the user sorted the tab their own way. Only
 * completion dates count: the service lists the records of one day in no promised order.
 */
export function sortedByUser(rows: readonly { completionDate: number }[]): boolean {
  for (let index = 1; index < rows.length; index++) {
    if (rows[index]!.completionDate > rows[index - 1]!.completionDate) return true;
  }
  return false;
}
