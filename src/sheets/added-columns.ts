/**
 * Columns a later layout version adds to a table (ColumnSpec.since). A tab made before such a column
 * existed gets it the first time a run reads the tab: a whole sheet column is inserted right after
 * the column it follows in the spec, so the user's columns move right with every cell, note and rule
 * in them, each still beside its record, and formulas elsewhere follow the cells they point at. A
 * column of the user's bearing the same title is never taken for the add-on's: the run refuses before
 * writing anything, saying what to rename. The run's Sync log says once which columns were added.
 *
 * Once the add-on has a later column on a tab (it inserted it, or wrote the tab with it), the caller
 * remembers it (platform/later-columns.ts) and passes it back: that column is then found by its
 * title wherever the user moves it, like every other column. A title found away from where the
 * add-on puts it, on a tab where it has no such column yet, is the user's.
 */
import type { ColumnSpec } from './table';
import { DEFAULT_COLUMN_WIDTH, PLAIN_TEXT } from './table';
import { freshLayout, layoutOfHeader, type TabLayout, TabLayoutError, titlesOf } from './tab-layout';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The sentences of the columns added in this execution, until the run's Sync log line takes them. */
const addedSentences: string[] = [];

/** What the Sync log says of the columns added since the last call (each said once). */
export function takeAddedColumnSentences(): string[] {
  return addedSentences.splice(0);
}

/** A column to insert: its spec, and the sheet column (1-based, as the tab is read) it goes after. */
interface Insertion {
  column: ColumnSpec;
  after: number;
}

/**
 * The columns of `columns` a tab with these titles lacks and gets, in the spec's order, each after
 * the last column before it in the spec that the tab has (0: before everything). Refuses a title of
 * the user's that an added column bears: one not right after the column the spec puts it after,
 * where the add-on inserts it (and writes it on a new tab), unless `owned` says the add-on has that
 * column on this tab already.
 */
function plannedInsertions(
  tabName: string,
  titles: readonly string[],
  columns: readonly ColumnSpec[],
  owned: ReadonlySet<string>,
): Insertion[] {
  const insertions: Insertion[] = [];
  let previous = 0;
  for (const column of columns) {
    const at = titles.indexOf(column.header) + 1;
    if (column.since !== undefined && at === 0) insertions.push({ column, after: previous });
    else if (column.since !== undefined && at !== previous + 1 && !owned.has(column.header)) {
      throw new TabLayoutError(
        `${tabName} has a column of yours titled ${column.header}, which Safety Sync now adds: ` +
          `rename yours (for example to ${column.header} (mine)) and run again.`,
      );
    }
    if (at > 0) previous = at;
  }
  return insertions;
}

/**
 * The layout of `sheet` (named `tabName`, as read), whose first rows are `grid` (as getValues read them, row 1 first), after
 * inserting the columns a later layout added: `grid` gains their cells (the title, then empty) so it
 * stays the tab's picture, and `frame.maxColumns` counts them. A tab missing any other title is
 * refused, as layoutOfHeader says. `owned`: the later columns the add-on already has on this tab.
 */
export function layoutAddingColumns(
  sheet: Sheet,
  tabName: string,
  grid: unknown[][],
  columns: readonly ColumnSpec[],
  tabHasRows: boolean,
  frame?: { maxColumns: number },
  owned: ReadonlySet<string> = new Set(),
): TabLayout {
  const titles = titlesOf(grid[0]!);
  const blank = !tabHasRows && titles.every((title) => title === '');
  const insertions = blank ? [] : plannedInsertions(tabName, titles, columns, owned);
  if (insertions.length === 0) return layoutOfHeader(tabName, titles, columns, tabHasRows);
  // Checked before the first insertion: a tab missing an older title is refused untouched.
  const present = new Set(titles);
  layoutOfHeader(
    tabName,
    titles,
    columns.filter((column) => column.since === undefined || present.has(column.header)),
    tabHasRows,
  );
  // Right to left (of columns after the same one, the spec's last first): every `after` still names
  // the column it was read at. Array.prototype.sort is stable.
  const rightToLeft = [...insertions].reverse().sort((a, b) => b.after - a.after);
  for (const { column, after } of rightToLeft) insertColumn(sheet, grid, column, after);
  if (frame) frame.maxColumns += insertions.length;
  for (const { column } of insertions)
    addedSentences.push(`Added the column ${column.header} to ${tabName}.`);
  return layoutOfHeader(tabName, grid[0]!, columns, tabHasRows);
}

function insertColumn(sheet: Sheet, grid: unknown[][], column: ColumnSpec, after: number): void {
  if (after === 0) sheet.insertColumnsBefore(1, 1);
  else sheet.insertColumnsAfter(after, 1);
  const at = after + 1;
  const title = sheet.getRange(1, at);
  title.setNumberFormat(PLAIN_TEXT);
  title.setValue(column.header);
  if (column.width !== DEFAULT_COLUMN_WIDTH) sheet.setColumnWidth(at, column.width);
  grid.forEach((row, index) => row.splice(after, 0, index === 0 ? column.header : ''));
}

/** Reads row 1 of `sheet` (one call) and returns its layout, adding the columns a later layout added. */
export function readTabLayout(sheet: Sheet, columns: readonly ColumnSpec[]): TabLayout {
  const lastColumn = sheet.getLastColumn();
  const lastRow = sheet.getLastRow();
  // A tab with no content has neither a last row nor a last column: one tells.
  if (lastRow === 0) return freshLayout(columns);
  const header = sheet.getRange(1, 1, 1, lastColumn).getValues();
  return layoutAddingColumns(sheet, sheet.getName(), header, columns, lastRow > 1);
}
