/**
 * The metafields, schedules and Upcoming inspections tabs have a hidden key column (type and id:
 * partKey), by which the user's own columns follow their rows. A tab written before it existed gets
 * it: a column is inserted after the tab's other imported columns (the user's columns to its right
 * move one to the right, whole, with everything in them), titled, and filled with each row's key
 * from its "Equipment type ID" and id columns, found by their titles, so that the next write finds
 * every row's cells. Columns a later version added to the schedules and Upcoming tabs (ADDED_LATER)
 * are inserted the same way, empty, for the write to fill.
 */
import { EQUIPMENT_TABS, type EquipmentTab } from './linked-tabs';
import {
  EQUIPMENT_TYPE_COLUMNS,
  METAFIELD_COLUMNS,
  partKey,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
} from './tables';
import { UPCOMING_COLUMN, UPCOMING_COLUMNS } from './upcoming';
import { FORECAST_FIXED_COLUMNS, monthColumnsOf } from './forecast';
import { type ColumnSpec, DEFAULT_COLUMN_WIDTH, PLAIN_TEXT } from '../sheets/table';
import { layoutOfHeader } from '../sheets/tab-layout';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * Columns a later version added to a linked tab: the run that writes the tab inserts each one the
 * tab lacks right after the column before it in the spec (found by its title) and titles it; from
 * then on it is found by its title wherever the manager moves it, like every column. (A `since`
 * column is placed by added-columns.ts instead, which refuses one that is no longer right after the
 * column before it: these tabs are ones people rearrange.)
 */
const ADDED_LATER: ReadonlySet<ColumnSpec> = new Set([
  SCHEDULE_COLUMNS[SCHEDULE_COLUMN.repeats]!,
  ...[
    UPCOMING_COLUMN.repeats,
    UPCOMING_COLUMN.lastInspected,
    UPCOMING_COLUMN.expiringPeriod,
    UPCOMING_COLUMN.whatToDo,
  ].map((index) => UPCOMING_COLUMNS[index]!),
]);

/** Columns a tab written before them may lack: a later layout's (`since`), and ADDED_LATER. */
function mayBeMissing(column: ColumnSpec): boolean {
  return column.since !== undefined || ADDED_LATER.has(column);
}

/** The first row of a tab, in one read; [] for an empty tab. */
export function readHeader(sheet: GoogleAppsScript.Spreadsheet.Sheet): unknown[] {
  const width = sheet.getLastColumn();
  return width === 0 ? [] : sheet.getRange(1, 1, 1, width).getValues()[0]!;
}

/**
 * `columns`: the tab's, the type id first, the metafield's or schedule's id third and the key last.
 * `header`: the tab's first row as read (getValues), or [] for an empty tab. A tab missing other
 * titles is left as it is: writing it refuses, saying which.
 */
export function addMissingKeyColumn(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  header: readonly unknown[] = readHeader(sheet),
): void {
  const key = columns[columns.length - 1]!.header;
  if (header.length === 0 || header.includes(key)) return;
  // Columns a later layout added may be missing too: they are inserted after this.
  const others = columns
    .slice(0, -1)
    .filter((column) => !mayBeMissing(column))
    .map((column) => header.indexOf(column.header));
  if (others.some((index) => index < 0)) return;
  const lastImported = Math.max(...others) + 1;
  const [typeColumn, idColumn] = [others[0]!, others[2]!];
  const rows = Math.max(sheet.getLastRow(), 1);
  // Read before the insert: a read after a write would cost a commit.
  const values = sheet.getRange(1, 1, rows, header.length).getValues();
  const keys = values.map((row, index) => {
    if (index === 0) return [key];
    const id = String(row[idColumn]);
    return [id === '' ? '' : partKey(String(row[typeColumn]), id)];
  });
  sheet.insertColumnsAfter(lastImported, 1);
  const keyColumn = lastImported + 1;
  const keyRange = sheet.getRange(1, keyColumn, rows, 1);
  keyRange.setNumberFormats(keys.map(() => ['@']));
  keyRange.setValues(keys);
}

/**
 * Inserts the columns of ADDED_LATER that a tab with every other title lacks (see there).
 * `header`: row 1 as read before the run's first write; a key column inserted since (after the last
 * imported column) moves none of the columns these go after.
 */
export function addMissingLaterColumns(
  sheet: Sheet,
  columns: readonly ColumnSpec[],
  header: readonly unknown[],
): void {
  if (header.length === 0) return;
  const required = columns.slice(0, -1).filter((column) => !mayBeMissing(column));
  if (required.some((column) => !header.includes(column.header))) return;
  const insertions = columns
    .filter((column) => ADDED_LATER.has(column) && !header.includes(column.header))
    .map((column) => {
      const before = columns
        .slice(0, columns.indexOf(column))
        .reverse()
        .find((candidate) => header.includes(candidate.header));
      return { column, after: before ? header.indexOf(before.header) + 1 : 0 };
    })
    // Right to left, so that each `after` still names the column it was read at; of columns after
    // the same one, the spec's last first, so that they end in the spec's order (sort is stable).
    .reverse()
    .sort((a, b) => b.after - a.after);
  for (const { column, after } of insertions) {
    if (after === 0) sheet.insertColumnsBefore(1, 1);
    else sheet.insertColumnsAfter(after, 1);
    const title = sheet.getRange(1, after + 1);
    title.setNumberFormat(PLAIN_TEXT);
    title.setValue(column.header);
    if (column.width !== DEFAULT_COLUMN_WIDTH) sheet.setColumnWidth(after + 1, column.width);
  }
}

/**
 * Refuses, before any request and any write, when a linked tab's imported titles are missing or
 * doubled (see tab-layout.ts): the four tabs change together or not at all. A tab written before
 * the key columns existed passes without its key, which the import then adds.
 */
export function checkLinkedTitles(sheets: Partial<Record<EquipmentTab, Sheet | null>>): void {
  for (const tab of EQUIPMENT_TABS) {
    const sheet = sheets[tab];
    if (!sheet || sheet.getLastRow() === 0) continue;
    const header = readHeader(sheet);
    layoutOfHeader(sheet.getName(), header, titledColumns(COLUMNS_OF[tab], header), sheet.getLastRow() > 1);
    if (tab === 'forecast') monthColumnsOf(sheet.getName(), header);
  }
}

/**
 * The columns a tab with this title row must have: all of them, but a tab written before the hidden
 * key column (the last) existed has none, and gets it from the import; nor has a tab written before
 * a column a later layout added, which the next write inserts.
 */
export function titledColumns(
  columns: readonly ColumnSpec[],
  header: readonly unknown[],
): readonly ColumnSpec[] {
  const last = columns[columns.length - 1]!;
  return columns.filter(
    (column) =>
      header.includes(column.header) || (!mayBeMissing(column) && !(column === last && last.hidden)),
  );
}

const COLUMNS_OF: Record<EquipmentTab, readonly ColumnSpec[]> = {
  types: EQUIPMENT_TYPE_COLUMNS,
  metafields: METAFIELD_COLUMNS,
  schedules: SCHEDULE_COLUMNS,
  upcoming: UPCOMING_COLUMNS,
  // Its month columns are titled by month, and checked by their count instead.
  forecast: FORECAST_FIXED_COLUMNS,
};
