/**
 * Where an imported table's columns are in its tab, found by their titles in row 1, never by
 * position: a user may insert, move or add columns anywhere, and every read and write follows the
 * titles. A tab whose titles are missing or doubled cannot be read safely, so it is refused with a
 * sentence saying what to do, before anything is written. Columns a later layout added (`since`) are
 * inserted instead, by added-columns.ts, which reads tabs with this.
 */
import type { ColumnSpec } from './table';

export class TabLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TabLayoutError';
  }
}

export interface TabLayout {
  /** The 1-based column of each of the table's columns, in the table's order. */
  tableColumns: number[];
  /** Every other 1-based column up to `width`: the user's own. */
  userColumns: number[];
  /** The columns that hold anything: the table's and the user's. */
  width: number;
}

/** A tab with nothing in it yet: the table's columns first, in order. */
export function freshLayout(columns: readonly ColumnSpec[]): TabLayout {
  return { tableColumns: columns.map((_, index) => index + 1), userColumns: [], width: columns.length };
}

/** Row 1's cells as the titles they show (a title typed as a number is that number's text). */
export function titlesOf(headerRow: readonly unknown[]): string[] {
  return headerRow.map((cell) => (typeof cell === 'string' ? cell : String(cell ?? '')));
}

/**
 * The layout of a tab whose row 1 is `headerRow` (as getValues returns it, the tab's used width).
 * An empty row 1 on an empty tab is a fresh layout; otherwise every title must be there exactly once.
 */
export function layoutOfHeader(
  tabName: string,
  headerRow: readonly unknown[],
  columns: readonly ColumnSpec[],
  tabHasRows: boolean,
): TabLayout {
  const titles = titlesOf(headerRow);
  if (!tabHasRows && titles.every((title) => title === '')) return freshLayout(columns);
  const missing: string[] = [];
  const doubled: string[] = [];
  const tableColumns = columns.map((column) => {
    const first = titles.indexOf(column.header);
    if (first < 0) missing.push(column.header);
    else if (titles.indexOf(column.header, first + 1) >= 0) doubled.push(column.header);
    return first + 1;
  });
  if (missing.length > 0) {
    throw new TabLayoutError(
      `The "${tabName}" tab has no ${quotedList(missing)} column in row 1, so Safety Sync cannot tell ` +
        'which column holds what. Put the title back above its column (Edit > Undo, or type it in ' +
        'row 1), or rename the tab to keep it as it is and let the next run start a new one. Nothing was changed.',
    );
  }
  if (doubled.length > 0) {
    throw new TabLayoutError(
      `The "${tabName}" tab has more than one ${quotedList(doubled)} column in row 1, so Safety Sync ` +
        'cannot tell which one is its own. Rename or delete the extra column. Nothing was changed.',
    );
  }
  const imported = new Set(tableColumns);
  const width = Math.max(titles.length, ...tableColumns);
  const userColumns: number[] = [];
  for (let column = 1; column <= width; column++) if (!imported.has(column)) userColumns.push(column);
  return { tableColumns, userColumns, width };
}

function quotedList(titles: readonly string[]): string {
  const quoted = titles.map((title) => `"${title}"`);
  return quoted.length === 1
    ? quoted[0]!
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}`;
}

/** A row of the tab (all `layout.width` cells) as the table's cells, in the table's order. */
export function tableCellsOf<T>(row: readonly T[], layout: TabLayout): T[] {
  return layout.tableColumns.map((column) => row[column - 1]!);
}
