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
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  sheetName: string,
  rows: number,
  columns: number,
  alongsideCells = 0,
): void {
  let otherCells = alongsideCells;
  let tabCells = 0;
  let tabColumns = columns;
  for (const sheet of spreadsheet.getSheets()) {
    const cells = sheet.getMaxRows() * sheet.getMaxColumns();
    if (sheet.getName() === sheetName) {
      tabCells = cells;
      tabColumns = Math.max(columns, sheet.getMaxColumns());
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
