/**
 * The "Expiring trainings" tab: every person × training whose status is Expired or Expiring, in the
 * actionable order (lib/actionable-order.ts: what can still be booked first, then recent lapses,
 * then older lapses below a heading row), with the person's site, department and manager (People),
 * whether the training is required of them, the days left, a
 * link to its cell of the matrix and one to its latest completion's row on "Completed trainings". A
 * hidden key (the pair) lets columns the user adds (reminder sent, booked on…) follow their pair
 * across refreshes.
 *
 * The heading above the older lapses is a row of the table, not a column repeated on every row: it
 * has a key of its own that no pair has (a pair's key is a JSON array), so the table writer moves it
 * like any record and a cell the user types on it follows it. Its Status is empty and its Days left
 * is no number, so nothing that reads the items by their Status (the digest) takes it for one.
 */
import {
  type CellValue,
  cellLinkFormula,
  type ColumnSpec,
  columnIndexes,
  rowLinkFormula,
  type Table,
} from '../sheets/table';
import { toSheetSerial } from '../lib/dates';
import { ActionGroup, actionGroupOf, byActionableOrder, OLDER_LAPSES_HEADING } from '../lib/actionable-order';
import { trainingLabel } from './catalogue';
import { pairKey } from './completions-tab';
import type { PairStatus, TrainingMatrix } from './matrix';
import { matrixCellA1 } from './matrix-grid';
import { TrainingStatus } from './training-status';

export const EXPIRING_SHEET = 'Expiring trainings';

const EXPIRING_SPEC = [
  { header: 'User ID', kind: 'text', width: 100 },
  { header: 'User name', kind: 'text', width: 180 },
  // From the People tab: a manager filters the list to their site, department or team.
  { header: 'Site', kind: 'text', width: 120, since: 3 },
  { header: 'Department', kind: 'text', width: 120, since: 3 },
  { header: 'Manager', kind: 'text', width: 180, since: 3 },
  { header: 'Training ID', kind: 'text', width: 100 },
  { header: 'Training', kind: 'formula', width: 200 },
  // Whether the person must hold it (Trainings' Required, or a requirement of theirs): a lapse of a
  // required training comes first to a manager's mind, and a filter on this column shows only those.
  { header: 'Required', kind: 'text', width: 90, since: 2 },
  { header: 'Completed', kind: 'date', width: 100 },
  { header: 'Expires', kind: 'date', width: 100 },
  { header: 'Days left', kind: 'daysLeft', width: 130 },
  { id: 'status', header: 'Status', kind: 'text', width: 100 },
  { header: 'Completion record', kind: 'formula', width: 140 },
  { id: 'key', header: 'Key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const EXPIRING_COLUMNS: readonly ColumnSpec[] = EXPIRING_SPEC;
export const EXPIRING_COLUMN = columnIndexes(EXPIRING_SPEC);

export interface ExpiringEntry {
  person: number;
  training: number;
  status: PairStatus;
}

/**
 * The active people's pairs to list in the actionable order; a tie keeps the matrix's order (people,
 * then trainings).
 */
export function expiringEntries(matrix: TrainingMatrix): ExpiringEntry[] {
  const entries: ExpiringEntry[] = [];
  matrix.statuses.forEach((row, person) =>
    row.forEach((status, training) => {
      if (!matrix.people[person]!.active) return;
      if (status.status === TrainingStatus.expired || status.status === TrainingStatus.expiring) {
        entries.push({ person, training, status });
      }
    }),
  );
  // Array.prototype.sort is stable: ties stay in the order they were pushed.
  return entries.sort((a, b) => byActionableOrder(a.status.daysLeft!, b.status.daysLeft!));
}

/** The key of the heading row above the older lapses. */
const OLDER_LAPSES_KEY = 'older lapses';

/** Where the older lapses start among the entries (in the actionable order); -1 when there is none. */
function firstOlderLapse(entries: readonly ExpiringEntry[]): number {
  return entries.findIndex((entry) => actionGroupOf(entry.status.daysLeft!) === ActionGroup.olderLapse);
}

/** The rows the tab's table has below its titles: one per entry, and the heading of the older lapses. */
export function expiringRowCount(entries: readonly ExpiringEntry[]): number {
  return entries.length + (firstOlderLapse(entries) >= 0 ? 1 : 0);
}

export interface ExpiringSheetIds {
  matrix: number;
  completions: number;
}

export function expiringTable(
  matrix: TrainingMatrix,
  entries: readonly ExpiringEntry[],
  sheetIds: ExpiringSheetIds,
): Table {
  const rows = entries.map(({ person, training, status }): CellValue[] => {
    const who = matrix.people[person]!;
    const what = matrix.trainings[training]!;
    const latest = status.latest!;
    return [
      who.userId,
      who.userName,
      who.site,
      who.department,
      who.managerEmail,
      what.trainingId,
      cellLinkFormula(sheetIds.matrix, matrixCellA1(matrix, person, training), trainingLabel(what)),
      status.required ? 'Yes' : 'No',
      toSheetSerial(latest.completed),
      toSheetSerial(status.expiry!),
      status.daysLeft,
      status.status,
      rowLinkFormula(sheetIds.completions, latest.row, `Row ${latest.row}`),
      pairKey(who.userId, what.trainingId),
    ];
  });
  const firstOlder = firstOlderLapse(entries);
  if (firstOlder >= 0) rows.splice(firstOlder, 0, headingRow());
  return { columns: EXPIRING_COLUMNS, rows, keyColumn: EXPIRING_COLUMN.key };
}

/** The heading above the older lapses: its words in the first column, its own key, nothing else. */
function headingRow(): CellValue[] {
  const row = new Array<CellValue>(EXPIRING_COLUMNS.length).fill('');
  row[0] = OLDER_LAPSES_HEADING;
  row[EXPIRING_COLUMN.key] = OLDER_LAPSES_KEY;
  return row;
}
