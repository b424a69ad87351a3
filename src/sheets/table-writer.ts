/**
 * Writes a Table into a tab in place, with a number of Spreadsheet service calls that does not grow
 * with the row count: one read of what is there, one write of the formats, one of the values (one
 * more for columns the user added). Tabs are never deleted and re-created, so formulas elsewhere
 * that point at them keep working; columns the user added to the right keep their values, matched
 * by the row's key.
 */
import { type CellValue, type ColumnSpec, numberFormatOf, type Table } from './table';

export interface WriteResult {
  rowsWritten: number;
  /** Keys that had values in user-added columns and are no longer in the table. */
  userRowsDropped: number;
}

export function getOrCreateSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, name: string) {
  return spreadsheet.getSheetByName(name) ?? spreadsheet.insertSheet(name);
}

interface ExistingContent {
  /** Headers of the columns right of the table, which belong to the user. */
  userHeaders: CellValue[];
  userValuesByKey: Map<string, CellValue[]>;
  lastRow: number;
}

function readExisting(sheet: GoogleAppsScript.Spreadsheet.Sheet, table: Table): ExistingContent {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  const tableWidth = table.columns.length;
  if (lastRow === 0 || lastColumn <= tableWidth) {
    return { userHeaders: [], userValuesByKey: new Map(), lastRow };
  }
  const values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as CellValue[][];
  const userHeaders = values[0]!.slice(tableWidth);
  const userValuesByKey = new Map<string, CellValue[]>();
  for (const row of values.slice(1)) {
    const userValues = row.slice(tableWidth);
    if (userValues.some((value) => value !== '' && value !== null)) {
      userValuesByKey.set(String(row[table.keyColumn]), userValues);
    }
  }
  return { userHeaders, userValuesByKey, lastRow };
}

export function writeTable(sheet: GoogleAppsScript.Spreadsheet.Sheet, table: Table): WriteResult {
  const existing = readExisting(sheet, table);
  const width = table.columns.length;
  const height = table.rows.length + 1;
  const userWidth = existing.userHeaders.length;

  const spareRows = sheet.getMaxRows() - height;
  if (spareRows < 0) sheet.insertRowsAfter(sheet.getMaxRows(), -spareRows);
  const spareColumns = sheet.getMaxColumns() - (width + userWidth);
  if (spareColumns < 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), -spareColumns);

  // Rows the previous content used beyond the new table are emptied, not deleted: deleting rows
  // would turn other tabs' references to them into #REF!.
  if (existing.lastRow > height) {
    sheet.getRange(height + 1, 1, existing.lastRow - height, width + userWidth).clearContent();
  }

  const header = table.columns.map((column) => column.header);
  const tableRange = sheet.getRange(1, 1, height, width);
  // Formats first: values written into an "@" column are then kept literally.
  const formats = table.columns.map((column) => numberFormatOf(column.kind));
  tableRange.setNumberFormats([header.map(() => '@'), ...table.rows.map(() => formats)]);
  tableRange.setValues([header, ...table.rows.map((row) => row.map((value) => value ?? ''))]);

  let userRowsDropped = 0;
  if (userWidth > 0) {
    const keys = new Set<string>();
    const userRows = table.rows.map((row) => {
      const key = String(row[table.keyColumn]);
      keys.add(key);
      return existing.userValuesByKey.get(key) ?? new Array<CellValue>(userWidth).fill('');
    });
    for (const key of existing.userValuesByKey.keys()) if (!keys.has(key)) userRowsDropped++;
    sheet.getRange(1, width + 1, height, userWidth).setValues([existing.userHeaders, ...userRows]);
  }

  formatHeaderAndColumns(sheet, table.columns, height);
  return { rowsWritten: table.rows.length, userRowsDropped };
}

/** Bold frozen header, a filter over the whole table, column widths; constant in the row count. */
export function formatHeaderAndColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  height: number,
): void {
  const width = columns.length;
  sheet.getRange(1, 1, 1, width).setFontWeight('bold');
  if (sheet.getFrozenRows() !== 1) sheet.setFrozenRows(1);
  sheet.getFilter()?.remove();
  sheet.getRange(1, 1, height, width).createFilter();
  columns.forEach((column, index) => {
    sheet.setColumnWidth(index + 1, column.width);
    if (column.hidden) sheet.hideColumns(index + 1);
  });
}
