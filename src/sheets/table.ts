/**
 * A table as the add-on writes it: typed columns and rows of cell values, independent of the
 * Spreadsheet service. Column kinds decide the number format, so that service strings stay literal
 * text ("@": nothing becomes a formula, ids keep leading zeros) and dates are real date cells.
 */
export type CellValue = string | number | boolean | null;

export type ColumnKind =
  | 'text' // literal text, never parsed
  | 'date' // a whole sheet serial: a date no time zone can shift
  | 'datetime' // a fractional sheet serial in the spreadsheet's time zone
  | 'integer'
  | 'percent' // a share from 0 to 1, shown as a percentage
  | 'daysLeft' // a whole number of days until a date, read as "10 days left" or "10 days overdue"
  | 'boolean'
  | 'formula'; // a formula the add-on builds itself (in-sheet links)

/** The width Sheets gives a column: a column of this width needs no call to set it. */
export const DEFAULT_COLUMN_WIDTH = 100;

/** Sets the widths (pixels, by column number) that differ from Sheets' default, one call each. */
export function setColumnWidths(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  widths: ReadonlyMap<number, number>,
): void {
  for (const [column, width] of widths)
    if (width !== DEFAULT_COLUMN_WIDTH) sheet.setColumnWidth(column, width);
}

export interface ColumnSpec {
  /** The name code uses for the column (its index comes from columnIndexes, never by hand). */
  id?: string;
  header: string;
  kind: ColumnKind;
  /** Pixels; DEFAULT_COLUMN_WIDTH where the column needs no more. */
  width: number;
  /** Kept in the sheet for the add-on's own use (matching rows across refreshes), out of sight. */
  hidden?: boolean;
  /**
   * The layout version that added the column (every column without it is from version 1): a tab
   * made before it gets the column inserted beside its imported block (added-columns.ts), where a
   * tab missing a version-1 column is refused.
   */
  since?: number;
}

/** The ids of a spec's columns that have one. */
type ColumnIds<Columns extends readonly ColumnSpec[]> = Columns[number] extends infer Column
  ? Column extends { id: infer Id extends string }
    ? Id
    : never
  : never;

/**
 * Each named column's index in `columns`, derived from the spec so that adding or moving a column
 * can never leave a hand-numbered index map pointing at its neighbour.
 */
export function columnIndexes<const Columns extends readonly ColumnSpec[]>(
  columns: Columns,
): { readonly [Id in ColumnIds<Columns>]: number } {
  const indexes: Record<string, number> = {};
  columns.forEach((column, index) => {
    if (column.id !== undefined) indexes[column.id] = index;
  });
  return indexes as { readonly [Id in ColumnIds<Columns>]: number };
}

export interface Table {
  columns: readonly ColumnSpec[];
  rows: CellValue[][];
  /** The column whose value identifies a row across refreshes (user-added columns follow it). */
  keyColumn: number;
}

/** The number format of plain text: what is written into such a cell is kept as it is. */
export const PLAIN_TEXT = '@';

const NUMBER_FORMATS: Record<ColumnKind, string> = {
  text: PLAIN_TEXT,
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
  integer: '0',
  percent: '0.0%',
  // The value stays a number (sorting, filters and the digest read it); only its display is words.
  daysLeft: '0" days left";0" days overdue";"today"',
  boolean: 'General',
  formula: 'General',
};

export function numberFormatOf(kind: ColumnKind): string {
  return NUMBER_FORMATS[kind];
}

/** A formula's string literal: quotes doubled, so service text can never break out of it. */
export function formulaString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * An in-sheet link to a cell of a tab, "C5", in the canonical syntax the table writer turns into the
 * spreadsheet's (formula-syntax.ts).
 */
export function cellLinkFormula(sheetId: number, a1: string, label: string): string {
  return `=HYPERLINK(${formulaString(`#gid=${sheetId}&range=${a1}`)}, ${formulaString(label)})`;
}

/** An in-sheet link that opens a tab through one of its filter views (filter-views.ts). */
export function filterViewLinkFormula(sheetId: number, filterViewId: number, label: string): string {
  return `=HYPERLINK(${formulaString(`#gid=${sheetId}&fvid=${filterViewId}`)}, ${formulaString(label)})`;
}

/** An in-sheet link to one row of a tab. */
export function rowLinkFormula(sheetId: number, row: number, label: string): string {
  return cellLinkFormula(sheetId, `A${row}`, label);
}
