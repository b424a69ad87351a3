/**
 * The Training matrix tab on the sheet: the add-on's own, so it is cleared and written whole from
 * the grid matrix.ts lays out, its colours as conditional format rules that replace the tab's
 * (a run never adds to the last one's). Its size, and its "Show inactive people" choice, are read with
 * the run's other reads, before any write.
 */
import { gridA1 } from '../sheets/a1-notation';
import { NEW_SHEET_COLUMNS, NEW_SHEET_ROWS } from '../sheets/cell-limit';
import { writeRunsRaw, writeThroughApiIfLarge } from '../sheets/sheets-api';
import { complianceRules } from '../sheets/status-words';
import { setColumnWidths } from '../sheets/table';
import { midnightOf, type UtcOffsetAt } from '../lib/dates';
import { yesOrNoCell } from '../sheets/input-tab';
import {
  MATRIX_FROZEN,
  type MatrixGrid,
  SHOW_INACTIVE_TITLE,
  STATUS_BACKGROUNDS,
  type StatusColourRule,
} from './matrix-grid';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The matrix tab as a run found it; nothing more is read before it is written whole. */
export interface MatrixTab {
  sheet: Sheet | null;
  /** The tab's "Show inactive people" choice: yes in the cell beside its title. */
  showInactive: boolean;
  /** Inserted by this run: its columns get their widths (a width the user set is theirs). */
  isNew: boolean;
  maxRows: number;
  maxColumns: number;
}

export function readMatrixTab(sheet: Sheet | null): MatrixTab {
  if (!sheet)
    return {
      sheet: null,
      showInactive: false,
      isNew: true,
      maxRows: NEW_SHEET_ROWS,
      maxColumns: NEW_SHEET_COLUMNS,
    };
  const maxColumns = sheet.getMaxColumns();
  const legendRow = sheet.getRange(1, 1, 1, maxColumns).getValues()[0]!;
  const title = legendRow.indexOf(SHOW_INACTIVE_TITLE);
  const showInactive = title >= 0 && yesOrNoCell(legendRow[title + 1]) === true;
  return { sheet, showInactive, isNew: false, maxRows: sheet.getMaxRows(), maxColumns };
}

/** What the Sheets API addresses the tab by, and the zone the rules' dates are days of. */
export interface MatrixTarget {
  spreadsheetId: string;
  sheetName: string;
  utcOffsetAt: UtcOffsetAt;
}

/**
 * The matrix in place: the tab is the add-on's own, so it is cleared (values, formats and the
 * per-cell colours an older version wrote) and written whole. A large matrix's values go through
 * the Sheets API (RAW: an id or a name stays text whatever it looks like), after their formats, so
 * that a date serial shows as a date; where the API is not there or refuses, through setValues.
 */
export function writeMatrix(sheet: Sheet, tab: MatrixTab, grid: MatrixGrid, target: MatrixTarget): void {
  const rows = grid.values.length;
  const columns = grid.values[0]!.length;
  if (tab.maxRows < rows) sheet.insertRowsAfter(tab.maxRows, rows - tab.maxRows);
  if (tab.maxColumns < columns) sheet.insertColumnsAfter(tab.maxColumns, columns - tab.maxColumns);
  sheet.clear();
  // clear() keeps data validation: the last run's yes/no may sit where a legend word now goes, and a
  // write that breaks a rejecting rule is refused.
  sheet.getRange(1, 1, 1, Math.max(tab.maxColumns, columns)).setDataValidation(null);
  // Formats first: ids and names written into "@" cells stay literal text.
  for (const { format, a1 } of grid.formats) sheet.getRangeList(a1).setNumberFormat(format);
  const values = grid.values.map((row) => row.map((value) => value ?? ''));
  const apiWrite = writeThroughApiIfLarge(rows * columns, false, (spreadsheets) =>
    writeRunsRaw(spreadsheets, target, 1, [{ left: 1, values }]),
  );
  if (!apiWrite.throughApi) sheet.getRange(1, 1, rows, columns).setValues(values);
  sheet.getRange(grid.legend.a1).setBackgrounds([grid.legend.backgrounds]);
  sheet.setConditionalFormatRules([
    ...grid.statusRules.map((rule) => statusRule(sheet, rule, target.utcOffsetAt)),
    ...complianceRules(grid.complianceA1.map((a1) => sheet.getRange(a1))),
  ]);
  sheet.getRange(1, 1, grid.notes.length, columns).setNotes(grid.notes);
  sheet
    .getRange(grid.showInactiveA1)
    .setDataValidation(
      SpreadsheetApp.newDataValidation()
        .requireValueInList(['yes', 'no'], true)
        .setAllowInvalid(false)
        .setHelpText(`${SHOW_INACTIVE_TITLE}: yes or no.`)
        .build(),
    );
  if (grid.inactive) sheet.getRange(grid.inactive.a1).setBackgrounds(grid.inactive.backgrounds);
  sheet.getRangeList(grid.boldRows.map((row) => gridA1(row, 1, 1, columns))).setFontWeight('bold');
  sheet.setFrozenRows(MATRIX_FROZEN.rows);
  sheet.setFrozenColumns(MATRIX_FROZEN.columns);
  if (tab.isNew) setColumnWidths(sheet, grid.columnWidths);
}

/** A status colour as Sheets takes it: a day is the instant it starts in the spreadsheet's zone. */
function statusRule(
  sheet: Sheet,
  { status, condition, a1 }: StatusColourRule,
  utcOffsetAt: UtcOffsetAt,
): GoogleAppsScript.Spreadsheet.ConditionalFormatRule {
  const builder = SpreadsheetApp.newConditionalFormatRule();
  if ('textIs' in condition) builder.whenTextEqualTo(condition.textIs);
  else if ('textStartsWith' in condition) builder.whenTextStartsWith(condition.textStartsWith);
  else if ('dateBefore' in condition) builder.whenDateBefore(midnightOf(condition.dateBefore, utcOffsetAt));
  else builder.whenDateAfter(midnightOf(condition.dateAfter, utcOffsetAt));
  return builder
    .setBackground(STATUS_BACKGROUNDS[status])
    .setRanges(a1.map((block) => sheet.getRange(block)))
    .build();
}
