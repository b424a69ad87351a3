/** Records added on top of a newest-first tab, below its titles, without rewriting the rest. */
import { type CellValue, type ColumnSpec, numberFormatOf } from './table';
import type { TabLayout } from './tab-layout';
import { NO_NOTES, padded, readFormulaSyntax } from './tab-content';
import { blankSpillOutputs, emptyUserCells, type UserCells } from './user-cells';
import { writeRows } from './row-writer';

/**
 * Rows the add-on adds on top of a newest-first tab (below its titles) without rewriting the rest:
 * rows are inserted below the first record, which then moves down under the new ones. Inserting
 * inside the records, not above them, keeps references to the table (`D2:D` in a formula heading a
 * column, `'Completed trainings'!A2:A` on another tab) pointing at all of it. Returns
 * WriteResult.slowerWrite's note, or null.
 */
export function insertRowsOnTop(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  layout: TabLayout,
  rows: readonly CellValue[][],
): string | null {
  const width = layout.width;
  const spreadsheet = sheet.getParent();
  const target = {
    sheet,
    spreadsheet,
    spreadsheetId: spreadsheet.getId(),
    sheetName: sheet.getName(),
    nothingBuffered: false,
  };
  readFormulaSyntax({ columns }, target.spreadsheetId, spreadsheet, sheet);
  const topRows = sheet.getRange(1, 1, 2, width);
  const [headerValues, firstValues] = topRows.getValues() as CellValue[][];
  const [, firstNotes] = topRows.getNotes();
  const [headerFormats, firstFormats] = topRows.getNumberFormats();
  const [headerFormulas, firstFormulas] = topRows.getFormulasR1C1();
  const pick = <T>(cells: readonly T[]) => layout.userColumns.map((column) => cells[column - 1]!);
  const header: UserCells = {
    values: pick(headerValues!),
    formats: pick(headerFormats!),
    formulas: pick(headerFormulas!),
  };
  const firstUser: UserCells = {
    values: pick(firstValues!),
    formats: pick(firstFormats!),
    formulas: pick(firstFormulas!),
  };
  blankSpillOutputs([header, firstUser], layout.userColumns);

  const firstValidations = sheet.getRange(2, 1, 1, width).getDataValidations()[0]!;
  const hasValidations = firstValidations.some((validation) => validation !== null);

  sheet.insertRowsAfter(2, rows.length);
  // The first record's values go back under its rules, which may refuse an old value (and Google may
  // give the inserted rows the same rules): the rules are lifted, then set again after the values.
  if (hasValidations) sheet.getRange(2, 1, rows.length + 1, width).clearDataValidations();
  const tableFormats = columns.map((column) => numberFormatOf(column.kind));
  const slowerWrite = writeRows(target, columns, layout, 2, [
    ...rows.map((row) => ({
      table: row,
      tableFormats,
      user: emptyUserCells(layout.userColumns.length, firstUser.formats),
    })),
    {
      table: layout.tableColumns.map((column) => firstValues![column - 1]!),
      tableFormats,
      user: firstUser,
      readBack: true,
    },
  ]);
  sheet.getRange(2, 1, rows.length, width).setFontWeight('normal');
  if (hasValidations) {
    // The new rows take the first record's validation; the first record keeps its own.
    sheet
      .getRange(2, 1, rows.length + 1, width)
      .setDataValidations([...rows.map(() => firstValidations), firstValidations]);
  }
  if (firstNotes!.some((note) => note !== '')) {
    sheet
      .getRange(2, 1, rows.length + 1, width)
      .setNotes([...rows.map(() => padded(NO_NOTES, width)), padded(firstNotes!, width)]);
  }
  return slowerWrite;
}
