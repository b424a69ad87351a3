/**
 * What a custom function hands back to Sheets. A function cannot set number formats, so dates go
 * back as Date objects, which Sheets turns into date cells in the spreadsheet's time zone: a
 * date-only value as the instant of that day's midnight there (a whole serial, which no zone shifts
 * afterwards), a date-time as its instant. Tables come from the same column specs and rows as the
 * tabs, without the columns the add-on keeps hidden for itself.
 */
import type { RejectedRecord } from '../api/schemas';
import { fromSheetSerial, midnightOf, type UtcOffsetAt } from '../lib/dates';
import type { CellValue, ColumnSpec } from '../sheets/table';

export type FormulaCell = string | number | boolean | Date;
export type FormulaResult = FormulaCell | FormulaCell[][];

const MS_PER_DAY = 86_400_000;
const SHEET_SERIAL_OF_1970_01_01 = 25_569;

/**
 * Rows for a function are built with a UTC offset of 0 (`AS_INSTANTS`): a date-time serial is
 * then the instant itself, which a Date carries exactly; Sheets shows it in the spreadsheet's zone.
 */
export const AS_INSTANTS: UtcOffsetAt = () => 0;

function formulaCell(value: CellValue, column: ColumnSpec, utcOffsetAt: UtcOffsetAt): FormulaCell {
  if (value === null) return '';
  if (typeof value === 'number' && column.kind === 'date') {
    const date = fromSheetSerial(value);
    return date === null ? value : midnightOf(date, utcOffsetAt);
  }
  if (typeof value === 'number' && column.kind === 'datetime') {
    return new Date(Math.round((value - SHEET_SERIAL_OF_1970_01_01) * MS_PER_DAY));
  }
  return value;
}

export interface FormulaTable {
  columns: readonly ColumnSpec[];
  /** Built with AS_INSTANTS. */
  rows: readonly CellValue[][];
  /** Records the service sent in a shape the contract does not allow, left out of `rows`. */
  rejected: readonly RejectedRecord[];
}

/**
 * The table as a function's answer: an optional header row, the rows, and a last row saying what
 * was left out, if anything was (a function has no Sync log to report it in). Nothing at all is an
 * empty cell: Sheets shows an error for an empty array.
 */
export function formulaTable(
  table: FormulaTable,
  withHeader: boolean,
  utcOffsetAt: UtcOffsetAt,
): FormulaResult {
  const shown = table.columns
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => !column.hidden);
  const result: FormulaCell[][] = [];
  if (withHeader) result.push(shown.map(({ column }) => column.header));
  for (const row of table.rows) {
    result.push(shown.map(({ column, index }) => formulaCell(row[index] ?? null, column, utcOffsetAt)));
  }
  if (table.rejected.length > 0) {
    result.push(shown.map((_, index) => (index === 0 ? describeRejected(table.rejected) : '')));
  }
  return result.length > 0 ? result : '';
}

function describeRejected(rejected: readonly RejectedRecord[]): string {
  const [first] = rejected;
  const count = rejected.length === 1 ? '1 record' : `${rejected.length} records`;
  return (
    `Left out: ${count} from the service in a shape Safety Sync cannot read ` +
    `(${first!.source}: ${first!.problem}). The Sync log of an import lists them all.`
  );
}
