/**
 * The Training matrix tab on the sheet: the add-on's own, so it is cleared and written whole from
 * the grid matrix.ts lays out. Its size is read with the run's other reads, before any write.
 */
import { gridA1 } from '../sheets/a1-notation';
import { NEW_SHEET_COLUMNS, NEW_SHEET_ROWS } from '../sheets/cell-limit';
import { setColumnWidths } from '../sheets/table';
import { MATRIX_COLUMN_WIDTHS, MATRIX_FROZEN, type MatrixGrid } from './matrix';

/** The matrix tab as a run found it; nothing more is read before it is written whole. */
export interface MatrixTab {
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  /** Inserted by this run: its columns get their widths (a width the user set is theirs). */
  isNew: boolean;
  maxRows: number;
  maxColumns: number;
}

export function readMatrixTab(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): MatrixTab {
  return sheet
    ? { sheet, isNew: false, maxRows: sheet.getMaxRows(), maxColumns: sheet.getMaxColumns() }
    : { sheet: null, isNew: true, maxRows: NEW_SHEET_ROWS, maxColumns: NEW_SHEET_COLUMNS };
}

/** The matrix in place: the tab is the add-on's own, so it is cleared and written whole. */
export function writeMatrix(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  tab: MatrixTab,
  grid: MatrixGrid,
): void {
  const rows = grid.values.length;
  const columns = grid.values[0]!.length;
  if (tab.maxRows < rows) sheet.insertRowsAfter(tab.maxRows, rows - tab.maxRows);
  if (tab.maxColumns < columns) sheet.insertColumnsAfter(tab.maxColumns, columns - tab.maxColumns);
  sheet.clear();
  const range = sheet.getRange(1, 1, rows, columns);
  // Formats first: ids and names written into "@" cells stay literal text.
  for (const { format, a1 } of grid.formats) sheet.getRangeList(a1).setNumberFormat(format);
  range.setValues(grid.values.map((row) => row.map((value) => value ?? '')));
  range.setBackgrounds(grid.backgrounds);
  sheet.getRange(1, 1, grid.notes.length, columns).setNotes(grid.notes);
  sheet.getRangeList(grid.boldRows.map((row) => gridA1(row, 1, 1, columns))).setFontWeight('bold');
  sheet.setFrozenRows(MATRIX_FROZEN.rows);
  sheet.setFrozenColumns(MATRIX_FROZEN.columns);
  if (tab.isNew)
    setColumnWidths(sheet, new Map(MATRIX_COLUMN_WIDTHS.map((width, index) => [index + 1, width])));
}
