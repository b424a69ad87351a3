/**
 * Writing rows of a table and the user's cells beside them from a tab row, typed so that every
 * cell holds exactly its value: a large write sends the table's own columns through the Sheets API
 * (RAW), the rest through the Spreadsheet service.
 */
import { gridA1 } from './a1-notation';
import { argumentSeparatorIn, formulaInLocale } from './formula-syntax';
import { type ColumnRun, writeRunsRaw, writeThroughApiIfLarge } from './sheets-api';
import { type CellValue, type ColumnSpec } from './table';
import type { TabLayout } from './tab-layout';
import { keptAsTyped, type UserCells, writeUserFormulas } from './user-cells';

/** A tab to write rows into, with what the Sheets API addresses it by (read before any write). */
export interface WriteTarget {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  spreadsheetId: string;
  sheetName: string;
  /**
   * Whether the caller knows that no write of the execution waits to be committed (it has just
   * committed them): a write through the Sheets API then needs no commit before it.
   */
  nothingBuffered: boolean;
}

export interface RowToWrite {
  /** The table's cells, in the table's order. */
  table: readonly CellValue[];
  tableFormats: readonly string[];
  user: UserCells;
  /**
   * Whether the table's cells were read back from the tab (a record that moves): their dates are
   * Dates, which only setValues takes, so the row never goes through the Sheets API.
   */
  readBack?: boolean;
}

/**
 * Writes `rows` from tab row `top` over the layout's width, then the user's formulas (a cell with a
 * formula gets no value). A large write sends the table's own columns through the Sheets API (RAW),
 * their formats one call per run of columns, and the rest through the Spreadsheet service; a smaller
 * one, or one the API cannot take, writes formats and values of the whole width in one call each.
 * Returns what the Sync log should say when a large write had to go the slower way, else null.
 */
export function writeRows(
  target: WriteTarget,
  columns: readonly ColumnSpec[],
  layout: TabLayout,
  top: number,
  rows: readonly RowToWrite[],
  only?: WrittenColumns,
): string | null {
  const { sheet, spreadsheetId, sheetName, nothingBuffered } = target;
  const writesTable = (position: number) => !only || only.tableColumns.has(layout.tableColumns[position]!);
  const writesUser = !only || only.userColumns;
  // The add-on's own formulas (in-sheet links) must be read as formulas: they are not sent RAW.
  const rawPositions = columns.flatMap((column, position) =>
    column.kind === 'formula' || !writesTable(position) ? [] : [position],
  );
  const blocks = rowBlocks(rows);
  const freshRows = blocks.reduce((sum, block) => sum + (block.readBack ? 0 : block.end - block.first), 0);
  // The API writes first, with nothing buffered, and the formats and other columns after it.
  const apiWrite = writeThroughApiIfLarge(
    freshRows * rawPositions.length,
    nothingBuffered,
    (spreadsheets) => {
      for (const { first, end, readBack } of blocks) {
        if (!readBack)
          writeRunsRaw(
            spreadsheets,
            { spreadsheetId, sheetName },
            top + first,
            rawRuns(layout, rows.slice(first, end), rawPositions),
          );
      }
    },
  );
  if (apiWrite.throughApi) {
    const rawColumns = new Set(rawPositions.map((position) => layout.tableColumns[position]!));
    const typedColumns = [
      ...(writesUser ? layout.userColumns : []),
      ...layout.tableColumns.filter((column, position) => writesTable(position) && !rawColumns.has(column)),
    ];
    writeAroundRaw(target, columns, layout, top, rows, rawColumns, blocks, typedColumns);
    if (writesUser) writeUserFormulas(sheet, layout, top, userCellsOf(rows));
    return null;
  }
  if (!only) writeTyped(target, columns, layout, top, rows, { left: 1, width: layout.width });
  else {
    const written = [
      ...(writesUser ? layout.userColumns : []),
      ...layout.tableColumns.filter((_, position) => writesTable(position)),
    ];
    for (const run of adjacentRuns(written)) writeTyped(target, columns, layout, top, rows, run);
  }
  if (writesUser) writeUserFormulas(sheet, layout, top, userCellsOf(rows));
  return apiWrite.slowerWrite;
}

/** The columns a write covers: the table's (sheet columns) it names, and the user's or none. */
interface WrittenColumns {
  tableColumns: ReadonlySet<number>;
  userColumns: boolean;
}

/** Consecutive rows read back from the tab, or not: rows `first` to `end − 1`. */
interface RowBlock {
  first: number;
  end: number;
  readBack: boolean;
}

function rowBlocks(rows: readonly RowToWrite[]): RowBlock[] {
  const blocks: RowBlock[] = [];
  rows.forEach((row, index) => {
    const readBack = row.readBack ?? false;
    const last = blocks[blocks.length - 1];
    if (last && last.readBack === readBack) last.end = index + 1;
    else blocks.push({ first: index, end: index + 1, readBack });
  });
  return blocks;
}

function userCellsOf(rows: readonly RowToWrite[]): UserCells[] {
  return rows.map((row) => row.user);
}

/** Columns `left` to `left + width − 1`. */
export interface ColumnSpan {
  left: number;
  width: number;
}

/**
 * Writes the span's formats, then its values as setValues must be given them so that text stays
 * text (one call each): a value lands in the format it had, and "@" cells take strings literally.
 * The add-on's own formulas, built in the canonical syntax, go in in the spreadsheet's.
 */
export function writeTyped(
  { sheet, spreadsheet, spreadsheetId }: WriteTarget,
  columns: readonly ColumnSpec[],
  layout: TabLayout,
  top: number,
  rows: readonly RowToWrite[],
  span: ColumnSpan,
): void {
  const inSpan = (column: number) => column >= span.left && column < span.left + span.width;
  const inSpreadsheetSyntax = (value: CellValue) =>
    typeof value === 'string' && value.startsWith('=')
      ? formulaInLocale(value, argumentSeparatorIn(spreadsheetId, spreadsheet))
      : value;
  const values: CellValue[][] = [];
  const formats: string[][] = [];
  for (const row of rows) {
    const rowValues = new Array<CellValue>(span.width).fill('');
    const rowFormats = new Array<string>(span.width).fill('');
    layout.tableColumns.forEach((column, position) => {
      if (!inSpan(column)) return;
      const format = row.tableFormats[position]!;
      const value = row.table[position] ?? '';
      // The add-on's own formulas go in as formulas; any other string (a date column holds
      // whatever the user typed in it, "Last inspected" say) stays what it was.
      rowValues[column - span.left] =
        columns[position]!.kind === 'formula' ? inSpreadsheetSyntax(value) : keptAsTyped(value, format);
      rowFormats[column - span.left] = format;
    });
    layout.userColumns.forEach((column, position) => {
      if (!inSpan(column)) return;
      const format = row.user.formats[position] ?? '';
      rowFormats[column - span.left] = format;
      if (!row.user.formulas[position])
        rowValues[column - span.left] = keptAsTyped(row.user.values[position] ?? '', format);
    });
    values.push(rowValues);
    formats.push(rowFormats);
  }
  const range = sheet.getRange(top, span.left, rows.length, span.width);
  range.setNumberFormats(formats);
  range.setValues(values);
}

/**
 * What a RAW write leaves to the Spreadsheet service: the formats of the columns it sends, one
 * setNumberFormat per format, over the runs of adjacent columns of that format in rows of the same
 * formats (the titles, the records); `typedColumns` (the user's, the add-on's formulas, those the write
 * covers) as setValues writes them, one run of adjacent columns at a time, as are the table's cells of
 * rows read back from the tab.
 */
function writeAroundRaw(
  target: WriteTarget,
  columns: readonly ColumnSpec[],
  layout: TabLayout,
  top: number,
  rows: readonly RowToWrite[],
  rawColumns: ReadonlySet<number>,
  blocks: readonly RowBlock[],
  typedColumns: readonly number[],
): void {
  const areasByFormat = new Map<string, string[]>();
  for (let first = 0; first < rows.length;) {
    let end = first + 1;
    while (end < rows.length && sameFormats(rows[end]!.tableFormats, rows[first]!.tableFormats)) end++;
    const formatOf = new Map(
      layout.tableColumns.flatMap((column, position) =>
        rawColumns.has(column) ? [[column, rows[first]!.tableFormats[position]!] as const] : [],
      ),
    );
    for (const run of adjacentRuns([...formatOf.keys()], (column) => formatOf.get(column)!)) {
      const format = formatOf.get(run.left)!;
      const areas = areasByFormat.get(format) ?? [];
      areas.push(gridA1(top + first, run.left, end - first, run.width));
      areasByFormat.set(format, areas);
    }
    first = end;
  }
  for (const [format, areas] of areasByFormat) target.sheet.getRangeList(areas).setNumberFormat(format);
  for (const run of adjacentRuns(typedColumns)) writeTyped(target, columns, layout, top, rows, run);
  for (const { first, end, readBack } of blocks) {
    if (!readBack) continue;
    for (const run of adjacentRuns([...rawColumns]))
      writeTyped(target, columns, layout, top + first, rows.slice(first, end), run);
  }
}

function sameFormats(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((format, index) => format === b[index]);
}

/** Sheet columns grouped into runs of adjacent columns with the same `kind`, left to right. */
export function adjacentRuns(
  sheetColumns: readonly number[],
  kind: (column: number) => string = () => '',
): ColumnSpan[] {
  const sorted = [...sheetColumns].sort((a, b) => a - b);
  const runs: ColumnSpan[] = [];
  for (const column of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.left + last.width === column && kind(last.left) === kind(column)) last.width++;
    else runs.push({ left: column, width: 1 });
  }
  return runs;
}

/** The table's columns that go RAW, as runs of adjacent sheet columns with every row's cells. */
function rawRuns(
  layout: TabLayout,
  rows: readonly RowToWrite[],
  rawPositions: readonly number[],
): ColumnRun[] {
  const positionOf = new Map(rawPositions.map((position) => [layout.tableColumns[position]!, position]));
  return adjacentRuns([...positionOf.keys()], () => '').map((run) => {
    const positions = Array.from({ length: run.width }, (_, offset) => positionOf.get(run.left + offset)!);
    // A run of the whole table, in its order (the usual case), is its rows as they are: no copy.
    const whole = positions.every((position, index) => position === index);
    return {
      left: run.left,
      values: rows.map((row) =>
        whole && row.table.length === positions.length
          ? row.table
          : positions.map((position) => row.table[position] ?? ''),
      ),
    };
  });
}
