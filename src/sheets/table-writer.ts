/**
 * Writes a Table into a tab in place, with a number of Spreadsheet service calls that does not grow
 * with the row count. Tabs are never deleted and re-created, so formulas elsewhere that point at them
 * keep working. The table's columns are found by their titles in row 1 (see tab-layout.ts), so a
 * user may insert, move or add columns anywhere; every other column is the user's, and its cells
 * follow their rows, matched by the row's key: their number formats, their values exactly as they
 * were (a string that Sheets would read as a number, a date, a boolean, an error or a formula goes
 * back with a leading apostrophe, which keeps it text, unless its cell is plain text), their formulas
 * written back relative to the row's new position. Notes follow their rows in every column.
 *
 * The user's cells move with their records as a user would move them: rows are inserted where
 * records arrive and deleted where they leave (row-alignment.ts), so a row that stays keeps its
 * values, rules, notes, formats and the references to its cells untouched, and none of its user cells
 * is written. Re-typing every row instead would write every old value back, and Google refuses a
 * script's write that breaks a reject-input validation rule: one old value under a dropdown added
 * later would stop every import. Only rows that arrive or must move (out of order) are written, their
 * own rules lifted while their values go in and set again after (Google allows a rule over any
 * value). Sorting the tab is not used: how Sheets sorts hidden rows, filters and formulas is not
 * documented. A table that changed in more places than MAX_ROW_STEPS is re-typed, rules lifted the
 * same way, in a number of calls that does not grow with its rows.
 */
import { numberFormatOf, PLAIN_TEXT, type Table } from './table';
import { alignRows, type RowAlignment } from './row-alignment';
import type { TabLayout } from './tab-layout';
import { NO_NOTES, padded, readTabContent, type TabContent, type TabFrame } from './tab-content';
import { type HeldCells, newRecordCells, type Validation } from './user-cells';
import { type RowToWrite, type WriteTarget, writeRows, writeTyped } from './row-writer';
import { formatHeaderAndColumns, prepareTab } from './tab-frame';

export interface WriteResult {
  /** The tab written (inserted by the write when it was not there). */
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  rowsWritten: number;
  /**
   * For the Sync log, once a run: why a write large enough for the Sheets API went through the
   * slower Spreadsheet service; null when it did not.
   */
  slowerWrite: string | null;
  /** Keys that had values in the user's columns and are no longer in the table. */
  userRowsDropped: number;
  /** Where the table now is: its columns, rows 1 to `height` (titles included), in a tab of `maxRows`. */
  placement: TablePlacement;
}

export interface TablePlacement {
  layout: TabLayout;
  height: number;
  maxRows: number;
}

/**
 * Reads the tab, then writes `table` over it: for a tab written on its own. A job writing several
 * reads them all first (readTab, readTabContent) and writes each with writeTableOver, so that a read
 * between its writes costs no commit.
 */
export function writeTable(sheet: GoogleAppsScript.Spreadsheet.Sheet, table: Table): WriteResult {
  return writeTableOver(readTabContent(sheet, table), table);
}

/**
 * Writes `table` over what `content` says the tab holds (inserting the tab when it was not there),
 * reading nothing: a job reads every tab it writes first (a missing title refuses the run before
 * any tab is written), then writes each, and its writes are committed together. `nothingBuffered`:
 * the caller has just committed, so a write through the Sheets API needs no commit before it.
 */
export function writeTableOver(
  content: TabContent,
  table: Table,
  { nothingBuffered = false }: { nothingBuffered?: boolean } = {},
): WriteResult {
  const { layout, frame } = content;
  const height = table.rows.length + 1;
  const sheet = prepareTab(content, height, layout.width);

  const keys = table.rows.map((row) => String(row[table.keyColumn]));
  const keySet = new Set(keys);
  let userRowsDropped = 0;
  for (const record of content.records)
    if (record.hasUserContent && !keySet.has(record.key)) userRowsDropped++;

  const target = {
    sheet,
    spreadsheet: content.spreadsheet,
    spreadsheetId: content.spreadsheetId,
    sheetName: content.sheetName,
    nothingBuffered,
  };
  const alignment =
    content.records.length > 0
      ? alignRows(
          content.records.map((record) => record.key),
          keys,
        )
      : null;
  const slowerWrite =
    alignment && movesRowsSafely(alignment, frame)
      ? writeAligned(target, content, table, keys, alignment)
      : retype(target, content, table, keys);

  formatHeaderAndColumns(sheet, table.columns, height, layout, frame);
  return {
    rowsWritten: table.rows.length,
    userRowsDropped,
    slowerWrite,
    sheet,
    placement: { layout, height, maxRows: frame.maxRows },
  };
}

/**
 * Beyond this many places where rows are inserted or deleted, the table is re-typed instead: each
 * place costs about ten calls (insert, delete, the new rows' rules cleared, their cells, notes and
 * rules written), while re-typing costs about as many in all, whatever the row count. Forty places
 * are some 400 buffered calls, a few seconds on Google; a list that changed in more places than that
 * has changed nearly everywhere, and moving rows would save the user little.
 */
const MAX_ROW_STEPS = 40;

/**
 * Whether the rows can be inserted and deleted as `alignment` says: within MAX_ROW_STEPS, and never
 * leaving the tab without a row below its frozen ones (Sheets refuses to delete all of them).
 */
function movesRowsSafely(alignment: RowAlignment, frame: TabFrame): boolean {
  if (alignment.steps.length > MAX_ROW_STEPS) return false;
  return frame.maxRows - alignment.deleted > Math.max(frame.frozenRows, 1);
}

/** The rule each row of the table ends with: its own (it stays, or moves with its record), or a new record's. */
function finalRules(content: TabContent, keys: readonly string[]): (index: number) => Validation[] {
  const template = content.validationTemplate ?? padded<Validation>([], content.layout.width, null);
  return (index) => {
    const own = content.byKey.get(keys[index]!)?.validations;
    return own?.length ? own : template;
  };
}

/**
 * Makes room as `alignment` says, then writes what changed: the table's titles and columns, and for
 * the inserted rows only (records that arrive, or that moved out of order) the user's cells, notes and
 * rules, their own when their record moved. A row that stays gets no user cell written, and a cell of
 * it under a rule is written only when the table's value there changed.
 */
function writeAligned(
  target: WriteTarget,
  content: TabContent,
  table: Table,
  keys: readonly string[],
  alignment: RowAlignment,
): string | null {
  const moved = makeRoom(target.sheet, content, table, alignment);
  const tableFormats = table.columns.map((column) => numberFormatOf(column.kind));
  const held = keys.map((key) => content.byKey.get(key));
  const newRecord = newRecordCells(content);
  const rows: RowToWrite[] = table.rows.map((row, index) => ({
    table: row,
    tableFormats,
    user: held[index]?.user ?? newRecord,
  }));
  const write = { target, content, table, alignment, rulesOf: finalRules(content, keys), held, rows };
  const guarded = guardedColumns(write);
  const slowerWrite = writeFreeColumns(write, guarded, moved);
  writeGuardedColumns(write, guarded);
  writeInsertedRows(write);
  return slowerWrite;
}

/** What the phases of an aligned write share: the table's rows as they are written, in its order. */
interface AlignedWrite {
  target: WriteTarget;
  content: TabContent;
  table: Table;
  alignment: RowAlignment;
  /** The rule each row of the table ends with. */
  rulesOf: (index: number) => Validation[];
  /** What each record's row held, by the table's order; undefined for a record that arrives. */
  held: readonly (HeldCells | undefined)[];
  rows: readonly RowToWrite[];
}

/** Rows `run.first` to `run.end − 1` of the table (below its titles), `columns` columns from `column`. */
function runRange(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  run: { first: number; end: number },
  column: number,
  columns: number,
): GoogleAppsScript.Spreadsheet.Range {
  return sheet.getRange(run.first + 2, column, run.end - run.first, columns);
}

/**
 * Inserts and deletes rows as `alignment` says, keeping `content`'s frame in step, and lifts the
 * rules of the inserted rows. Whether any row moved.
 */
function makeRoom(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  content: TabContent,
  table: Table,
  alignment: RowAlignment,
): boolean {
  for (const step of alignment.steps) {
    if (step.insertCount > 0) sheet.insertRowsAfter(step.insertAfter, step.insertCount);
    if (step.deleteCount > 0) sheet.deleteRows(step.deleteAt, step.deleteCount);
  }
  // The tab keeps the rows it had (or the table's height, when more), as it would with the table
  // re-typed: ranges the run read before its writes (conditional formats set again with the add-on's
  // own, say) stay inside it. Rows prepareTab grew it by, at its end, are not needed where rows
  // were inserted; rows deleted are made up at its end.
  const { frame } = content;
  const tabRows = frame.maxRows + alignment.inserted - alignment.deleted;
  const needed = Math.max(frame.maxRowsRead, table.rows.length + 1);
  if (tabRows > needed) sheet.deleteRows(needed + 1, tabRows - needed);
  else if (tabRows < needed) sheet.insertRowsAfter(tabRows, needed - tabRows);
  frame.maxRows = needed;
  const moved = alignment.steps.length > 0;
  // A filter is rebuilt over the new height: insertions and deletions changed its size.
  if (moved && content.frame.filter) content.frame.filter.height = -1;
  // Google may give inserted rows the rules of the row above: they take none until their cells are in.
  if (content.hasValidations)
    for (const run of alignment.insertedRuns)
      runRange(sheet, run, 1, content.layout.width).clearDataValidations();
  return moved;
}

/** Table columns that hold a rule in a row that stays: written only where their value changes. */
function guardedColumns({ content, alignment, rulesOf }: AlignedWrite): Set<number> {
  const { layout } = content;
  const guarded = new Set<number>();
  if (content.hasValidations) {
    alignment.keptFrom.forEach((old, index) => {
      if (old === -1) return;
      rulesOf(index).forEach((rule, column) => {
        if (rule && layout.tableColumns.includes(column + 1)) guarded.add(column + 1);
      });
    });
  }
  return guarded;
}

/**
 * The titles and the table's columns that hold no rule in a row that stays, over every row.
 * `moved`: rows were inserted or deleted, writes the Sheets API must see committed first.
 */
function writeFreeColumns(
  { target, content, table, rows }: AlignedWrite,
  guarded: ReadonlySet<number>,
  moved: boolean,
): string | null {
  const { layout } = content;
  const titles = table.columns.map((column) => column.header);
  const titleRow = { table: titles, tableFormats: titles.map(() => PLAIN_TEXT), user: content.header };
  const freeColumns = new Set(layout.tableColumns.filter((column) => !guarded.has(column)));
  return writeRows(
    target.nothingBuffered && !moved ? target : { ...target, nothingBuffered: false },
    table.columns,
    layout,
    1,
    [titleRow, ...rows],
    { tableColumns: freeColumns, userColumns: false },
  );
}

/** The guarded columns' cells that changed or arrive, each run with its rules lifted, then set again. */
function writeGuardedColumns(
  { target, content, table, alignment, rulesOf, rows }: AlignedWrite,
  guarded: ReadonlySet<number>,
): void {
  const { layout } = content;
  const inserted = new Array<boolean>(table.rows.length).fill(false);
  for (const run of alignment.insertedRuns) inserted.fill(true, run.first, run.end);
  for (const column of guarded) {
    const position = layout.tableColumns.indexOf(column);
    const changed = (index: number) => {
      if (inserted[index]) return true;
      const old = content.records[alignment.keptFrom[index]!]!.table[position];
      return !sameCell(old, table.rows[index]![position]);
    };
    for (const run of runsWhere(table.rows.length, changed)) {
      // A value under a rule goes in with the rule lifted, which is then set again: Google refuses
      // a script's write that breaks a reject-input rule, and allows setting a rule over any value.
      const range = runRange(target.sheet, run, column, 1);
      range.clearDataValidations();
      writeTyped(target, table.columns, layout, run.first + 2, rows.slice(run.first, run.end), {
        left: column,
        width: 1,
      });
      range.setDataValidations(
        Array.from({ length: run.end - run.first }, (_, offset) => [
          rulesOf(run.first + offset)[column - 1]!,
        ]),
      );
    }
  }
}

/** The inserted rows' user cells, notes and rules: their own when their record moved. */
function writeInsertedRows({ target, content, table, alignment, rulesOf, held, rows }: AlignedWrite): void {
  const { layout } = content;
  const width = layout.width;
  for (const run of alignment.insertedRuns) {
    const runRows = rows.slice(run.first, run.end);
    writeRows(target, table.columns, layout, run.first + 2, runRows, {
      tableColumns: new Set(),
      userColumns: true,
    });
    const notes = held.slice(run.first, run.end).map((cells) => cells?.notes ?? []);
    if (notes.some((row) => row.length > 0))
      runRange(target.sheet, run, 1, width).setNotes(
        notes.map((row) => (row.length > 0 ? row : padded(NO_NOTES, width))),
      );
    if (content.hasValidations)
      runRange(target.sheet, run, 1, width).setDataValidations(
        Array.from({ length: run.end - run.first }, (_, offset) => rulesOf(run.first + offset)),
      );
  }
}

/** Runs of consecutive indexes below `length` for which `holds` is true. */
function runsWhere(length: number, holds: (index: number) => boolean): { first: number; end: number }[] {
  const runs: { first: number; end: number }[] = [];
  for (let index = 0; index < length; index++) {
    if (!holds(index)) continue;
    const last = runs[runs.length - 1];
    if (last && last.end === index) last.end++;
    else runs.push({ first: index, end: index + 1 });
  }
  return runs;
}

/** Whether a cell as read (dates as Dates) holds what the table writes there. */
function sameCell(read: unknown, written: unknown): boolean {
  if (read instanceof Date) return written instanceof Date && read.getTime() === written.getTime();
  return (read ?? '') === (written ?? '');
}

/**
 * Every row typed again at its record's position, as the table's order says: for a table that
 * changed in too many places to move rows, or a tab with no records yet. Every rule below the
 * titles is lifted while the cells are written, then set again with its record, so that an old
 * value goes back under its own reject-input rule.
 */
function retype(
  target: WriteTarget,
  content: TabContent,
  table: Table,
  keys: readonly string[],
): string | null {
  const { sheet } = target;
  const { layout } = content;
  const width = layout.width;
  const height = table.rows.length + 1;
  const written = Math.max(height, content.lastRow) - 1;
  if (content.hasValidations && table.rows.length > 0)
    sheet.getRange(2, 1, table.rows.length, width).clearDataValidations();
  const held = keys.map((key) => content.byKey.get(key));
  const titles = table.columns.map((column) => column.header);
  // Shared by every row: a large table is written without a copy of anything per row.
  const tableFormats = table.columns.map((column) => numberFormatOf(column.kind));
  const newRecord = newRecordCells(content);
  const slowerWrite = writeRows(target, table.columns, layout, 1, [
    { table: titles, tableFormats: titles.map(() => PLAIN_TEXT), user: content.header },
    ...table.rows.map((row, index) => ({ table: row, tableFormats, user: held[index]?.user ?? newRecord })),
  ]);
  // Rows the previous content used beyond the new table are emptied, not deleted: deleting rows
  // would turn other tabs' references to them into #REF!. After the rows: a write through the Sheets
  // API goes first.
  if (content.lastRow > height) {
    sheet.getRange(height + 1, 1, content.lastRow - height, width).clearContent();
  }
  if (content.hasNotes && written > 0) {
    const notes = Array.from({ length: written }, (_, index) => {
      const cells = index < table.rows.length ? held[index] : undefined;
      return cells && cells.notes.length > 0 ? cells.notes : padded(NO_NOTES, width);
    });
    sheet.getRange(2, 1, written, width).setNotes(notes);
  }
  if (content.hasValidations && table.rows.length > 0) {
    const rulesOf = finalRules(content, keys);
    sheet
      .getRange(2, 1, table.rows.length, width)
      .setDataValidations(table.rows.map((_, index) => rulesOf(index)));
  }
  return slowerWrite;
}
