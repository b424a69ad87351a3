/**
 * The "Expiring trainings" tab: every person × training whose status is Expired or Expiring, soonest
 * expiry first (so the longest overdue lead), with the days left, a link to its cell of the matrix
 * and one to its latest completion's row on "Completed trainings". A hidden key (the pair) lets
 * columns the user adds (reminder sent, booked on…) follow their pair across refreshes.
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
import { trainingLabel } from './catalogue';
import { pairKey } from './completions-tab';
import { matrixCellA1, type PairStatus, type TrainingMatrix } from './matrix';
import { TrainingStatus } from './training-status';

export const EXPIRING_SHEET = 'Expiring trainings';

const EXPIRING_SPEC = [
  { header: 'User ID', kind: 'text', width: 100 },
  { header: 'User name', kind: 'text', width: 180 },
  { header: 'Training ID', kind: 'text', width: 100 },
  { header: 'Training', kind: 'formula', width: 200 },
  { header: 'Completed', kind: 'date', width: 100 },
  { header: 'Expires', kind: 'date', width: 100 },
  { header: 'Days left', kind: 'integer', width: 100 },
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

/** The pairs to list, soonest expiry first; a tie keeps the matrix's order (people, then trainings). */
export function expiringEntries(matrix: TrainingMatrix): ExpiringEntry[] {
  const entries: ExpiringEntry[] = [];
  matrix.statuses.forEach((row, person) =>
    row.forEach((status, training) => {
      if (status.status === TrainingStatus.expired || status.status === TrainingStatus.expiring) {
        entries.push({ person, training, status });
      }
    }),
  );
  // Array.prototype.sort is stable: ties stay in the order they were pushed.
  return entries.sort((a, b) => a.status.expiry! - b.status.expiry!);
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
      what.trainingId,
      cellLinkFormula(sheetIds.matrix, matrixCellA1(person, training), trainingLabel(what)),
      toSheetSerial(latest.completed),
      toSheetSerial(status.expiry!),
      status.daysLeft,
      status.status,
      rowLinkFormula(sheetIds.completions, latest.row, `Row ${latest.row}`),
      pairKey(who.userId, what.trainingId),
    ];
  });
  return { columns: EXPIRING_COLUMNS, rows, keyColumn: EXPIRING_COLUMN.key };
}
