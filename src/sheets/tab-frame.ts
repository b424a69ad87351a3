/**
 * The frame around a written table: the tab inserted or grown to the table's size before its rows
 * are written, then its titles, filter, widths and hidden columns set after, from the frame read
 * with the tab's content (tab-content.ts), reading nothing.
 */
import { sheetsAdvancedService } from './sheets-api';
import { type ColumnSpec, setColumnWidths } from './table';
import type { TabLayout } from './tab-layout';
import type { FilterShape, TabContent, TabFrame } from './tab-content';

/**
 * Inserts the tab when it is not there and grows it to `rows` × `columns`, keeping `content` in step.
 * A job writing several tabs prepares them all, then commits once (SpreadsheetApp.flush): the Sheets
 * API sees only committed rows, and a new tab's id (for links to it) is a read.
 */
export function prepareTab(
  content: TabContent,
  rows: number,
  columns: number,
): GoogleAppsScript.Spreadsheet.Sheet {
  const { frame } = content;
  const sheet = content.sheet ?? content.spreadsheet.insertSheet(content.sheetName);
  content.sheet = sheet;
  if (frame.maxRows < rows) {
    sheet.insertRowsAfter(frame.maxRows, rows - frame.maxRows);
    frame.maxRows = rows;
  }
  if (frame.maxColumns < columns) {
    sheet.insertColumnsAfter(frame.maxColumns, columns - frame.maxColumns);
    frame.maxColumns = columns;
  }
  return sheet;
}

/**
 * prepareTab through one Sheets API request, for a table whose rows the API writes next: an existing
 * tab is grown on Google's side at once, where the Spreadsheet service's insertions would wait in its
 * buffer for a commit (0.3–0.8 s on Google) before the API could write to them. Needs nothing
 * buffered. A new tab is not inserted here: Google does not document whether the Spreadsheet service
 * shows a tab the API added in the same execution, so it goes through the service (one commit more).
 * False when the tab is new, or the API is not there or refused (nothing changed: the request is
 * atomic), and the caller prepares the tab through the service.
 */
export function prepareTabThroughApi(content: TabContent, rows: number, columns: number): boolean {
  const { frame, sheet } = content;
  const spreadsheets = sheet ? sheetsAdvancedService() : null;
  if (!sheet || !spreadsheets) return false;
  const sheetId = sheet.getSheetId();
  const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
  if (frame.maxRows < rows)
    requests.push({ appendDimension: { sheetId, dimension: 'ROWS', length: rows - frame.maxRows } });
  if (frame.maxColumns < columns)
    requests.push({ appendDimension: { sheetId, dimension: 'COLUMNS', length: columns - frame.maxColumns } });
  if (requests.length === 0) return true;
  try {
    spreadsheets.batchUpdate({ requests }, content.spreadsheetId);
  } catch {
    // The API disabled in the add-on's Cloud project, or over its quota.
    return false;
  }
  frame.maxRows = Math.max(frame.maxRows, rows);
  frame.maxColumns = Math.max(frame.maxColumns, columns);
  return true;
}

/**
 * Bold frozen titles (the user's too, so the row reads as one), a filter over the table and the
 * user's columns (so that sorting from it moves whole rows), the user's filter criteria kept, the
 * table's widths on a new tab (a width the user set is theirs), hidden columns hidden; constant in
 * the row count. `frame` is the tab as it was read: nothing is read here.
 */
export function formatHeaderAndColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  height: number,
  layout: TabLayout,
  frame: Pick<TabFrame, 'isNew' | 'frozenRows' | 'filter'>,
): void {
  sheet.getRange(1, 1, 1, layout.width).setFontWeight('bold');
  if (frame.frozenRows !== 1) sheet.setFrozenRows(1);
  refilter(sheet, height, layout.width, frame.filter);
  if (frame.isNew) {
    setColumnWidths(
      sheet,
      new Map(columns.map((column, index) => [layout.tableColumns[index]!, column.width])),
    );
  }
  columns.forEach((column, index) => {
    if (column.hidden) sheet.hideColumns(layout.tableColumns[index]!);
  });
}

/**
 * The filter spans rows 1 to `height` of columns 1 to `width`. A filter of another size is replaced
 * (Apps Script cannot resize one), and the criteria the user set on its columns are set again.
 */
function refilter(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  height: number,
  width: number,
  filter: FilterShape | null,
): void {
  if (filter) {
    if (filter.row === 1 && filter.column === 1 && filter.height === height && filter.width === width) return;
    filter.handle.remove();
  }
  const created = sheet.getRange(1, 1, height, width).createFilter();
  for (const kept of filter?.criteria ?? []) {
    if (kept.column <= width) created.setColumnFilterCriteria(kept.column, kept.criteria);
  }
}
