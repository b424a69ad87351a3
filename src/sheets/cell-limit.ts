/**
 * Google Sheets holds at most 10 million cells per spreadsheet (every tab's rows × columns). An
 * import that would cross it is refused before anything is written, with what to do instead.
 */
import { formatCount } from '../lib/numbers';

export const SPREADSHEET_CELL_LIMIT = 10_000_000;

export class SpreadsheetTooSmallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpreadsheetTooSmallError';
  }
}

/**
 * Throws when a tab grown to `rows` data rows (plus a header) would take the spreadsheet over the
 * limit. `alongsideCells`: what another tab will need beside it meanwhile (a long import's staging).
 */
export function checkRoomForRows(
  grids: readonly SheetGrid[],
  sheetName: string,
  rows: number,
  columns: number,
  alongsideCells = 0,
): void {
  let otherCells = alongsideCells;
  let tabCells = 0;
  let tabColumns = columns;
  for (const grid of grids) {
    const cells = grid.maxRows * grid.maxColumns;
    if (grid.name === sheetName) {
      tabCells = cells;
      tabColumns = Math.max(columns, grid.maxColumns);
    } else {
      otherCells += cells;
    }
  }
  const needed = Math.max(tabCells, (rows + 1) * tabColumns);
  if (otherCells + needed <= SPREADSHEET_CELL_LIMIT) return;
  const room = Math.max(0, Math.floor((SPREADSHEET_CELL_LIMIT - otherCells) / tabColumns) - 1);
  throw new SpreadsheetTooSmallError(
    `"${sheetName}" would need ${formatCount(rows)} rows, but this spreadsheet has room for about ` +
      `${formatCount(room)} (Google Sheets allows 10 million cells per spreadsheet). ` +
      'Narrow the import with a user or training filter, or import into a new spreadsheet.',
  );
}

/** Google Sheets allows at most this many columns in a tab (column ZZZ). */
export const SHEET_COLUMN_LIMIT = 18_278;

/** The size Sheets gives a tab inserted without one (insertSheet): 1,000 rows of columns A to Z. */
export const NEW_SHEET_ROWS = 1000;
export const NEW_SHEET_COLUMNS = 26;

/** A tab as a run is about to write it: its whole size, header and all. */
export interface TabSize {
  sheetName: string;
  rows: number;
  columns: number;
}

/** Every tab's grid: what a run checks its tabs' room against, read once for several checks. */
export interface SheetGrid {
  name: string;
  maxRows: number;
  maxColumns: number;
}

export function readSheetGrids(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): SheetGrid[] {
  return spreadsheet.getSheets().map((sheet) => ({
    name: sheet.getName(),
    maxRows: sheet.getMaxRows(),
    maxColumns: sheet.getMaxColumns(),
  }));
}

/**
 * Throws, before anything is written, when tabs written in place (never shrunk: other tabs' formulas
 * may point at their rows) would need more columns than a tab may have, or take the spreadsheet over
 * its cell limit, `grids` being its tabs now (readSheetGrids). `advice` says how to need less;
 * `alongside`: tabs the same run writes, counted at the size it gives them, not named.
 */
export function checkRoomForTabs(
  grids: readonly SheetGrid[],
  tabs: readonly TabSize[],
  advice: string,
  alongside: readonly TabSize[] = [],
): void {
  const tooWide = tabs.find((tab) => tab.columns > SHEET_COLUMN_LIMIT);
  if (tooWide) {
    throw new SpreadsheetTooSmallError(
      `"${tooWide.sheetName}" would need ${formatCount(tooWide.columns)} columns, but Google Sheets allows ` +
        `${formatCount(SHEET_COLUMN_LIMIT)} in a tab. ${advice}`,
    );
  }
  const byName = new Map([...alongside, ...tabs].map((tab) => [tab.sheetName, tab]));
  let cells = 0;
  for (const grid of grids) {
    const tab = byName.get(grid.name);
    byName.delete(grid.name);
    cells += Math.max(grid.maxRows, tab?.rows ?? 0) * Math.max(grid.maxColumns, tab?.columns ?? 0);
  }
  // A tab inserted new has Sheets' default size before anything is written into it.
  for (const tab of byName.values()) {
    cells += Math.max(tab.rows, NEW_SHEET_ROWS) * Math.max(tab.columns, NEW_SHEET_COLUMNS);
  }
  if (cells <= SPREADSHEET_CELL_LIMIT) return;
  const names = tabs.map((tab) => `"${tab.sheetName}"`).join(', ');
  throw new SpreadsheetTooSmallError(
    `${names} would take this spreadsheet to ${formatCount(cells)} cells, but Google Sheets allows 10 million ` +
      `cells per spreadsheet. ${advice}`,
  );
}
