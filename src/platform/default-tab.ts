/**
 * The empty tab a new spreadsheet starts with ("Sheet1", named in the spreadsheet's locale) is
 * removed by the add-on's first import, so that the add-on's tabs are all a manager sees. It is
 * recognised by what it holds, never by its name: it must be the spreadsheet's only tab before the
 * add-on's first write, and hold nothing at all (no value, format, note, validation, named range,
 * protection, conditional format, chart, filter or frozen row). Being the only tab, no formula
 * elsewhere in the spreadsheet can refer to it. A tab with anything in it is the user's, and stays.
 */
import { keepsAnyAddonTab, keepsVisibleAddonTab } from './addon-tabs';
import type { DocumentState } from './document-state';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** What a cell nobody touched reads as. */
const AUTOMATIC_NUMBER_FORMAT = '0.###############';
const NO_BACKGROUND = '#ffffff';
const NORMAL_WEIGHT = 'normal';

/**
 * Before a run writes: the spreadsheet's untouched default tab, when the add-on has made no tab yet
 * (no read at all once it has); null otherwise.
 */
export function untouchedDefaultTab(spreadsheet: Spreadsheet, state: DocumentState): Sheet | null {
  if (keepsAnyAddonTab(state)) return null;
  const sheets = spreadsheet.getSheets();
  const only = sheets.length === 1 ? sheets[0]! : null;
  return only && holdsNothing(only) ? only : null;
}

/**
 * After the run's writes and its Sync log line: removes the tab found before them, once the run has
 * made a tab of its own that a person sees (the first part of a long import makes only its hidden
 * staging tab, and Sheets keeps one visible tab at least). Decided from the run's state, without a
 * read: a read after writes would cost a commit.
 */
export function removeDefaultTab(
  spreadsheet: Spreadsheet,
  state: DocumentState,
  defaultTab: Sheet | null,
): void {
  if (defaultTab && keepsVisibleAddonTab(state)) spreadsheet.deleteSheet(defaultTab);
}

function holdsNothing(sheet: Sheet): boolean {
  if (sheet.getLastRow() > 0 || sheet.getLastColumn() > 0) return false;
  if (sheet.getFrozenRows() > 0 || sheet.getFrozenColumns() > 0 || sheet.getFilter() !== null) return false;
  if (sheet.getConditionalFormatRules().length > 0 || sheet.getCharts().length > 0) return false;
  if (sheet.getNamedRanges().length > 0) return false;
  const { SHEET, RANGE } = SpreadsheetApp.ProtectionType;
  if (sheet.getProtections(SHEET).length > 0 || sheet.getProtections(RANGE).length > 0) return false;
  const grid = sheet.getRange(1, 1, sheet.getMaxRows(), sheet.getMaxColumns());
  return (
    every(grid.getNumberFormats(), AUTOMATIC_NUMBER_FORMAT) &&
    every(grid.getBackgrounds(), NO_BACKGROUND) &&
    every(grid.getFontWeights(), NORMAL_WEIGHT) &&
    every(grid.getNotes(), '') &&
    every(grid.getDataValidations(), null)
  );
}

function every<T>(cells: readonly (readonly T[])[], untouched: T): boolean {
  return cells.every((row) => row.every((cell) => cell === untouched));
}
