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
import { columnRunA1, gridA1 } from './a1-notation';
import { argumentSeparatorIn, formulaInLocale } from './formula-syntax';
import { NEW_SHEET_COLUMNS, NEW_SHEET_ROWS } from './cell-limit';
import { type ColumnRun, SHEETS_API_MIN_CELLS, sheetsAdvancedService, writeRunsRaw } from './sheets-api';
import {
  type CellValue,
  type ColumnSpec,
  numberFormatOf,
  PLAIN_TEXT,
  setColumnWidths,
  type Table,
} from './table';
import { alignRows, type RowAlignment } from './row-alignment';
import { layoutAddingColumns } from './added-columns';
import { freshLayout, type TabLayout } from './tab-layout';

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

/** One row's cells in the user's columns (in the order of `TabLayout.userColumns`). */
interface UserCells {
  values: CellValue[];
  /** Number formats, which move with the values. */
  formats: string[];
  /** In R1C1 notation, so that a formula means the same on whichever row its record lands; '' for none. */
  formulas: string[];
}

/** What a row of the tab holds besides the table's own values. */
interface HeldCells {
  user: UserCells;
  /** Every column's note ('' for none), over the layout's width. */
  notes: string[];
  /** The data validation of each cell over the layout's width; empty when the tab has no rule. */
  validations: Validation[];
}

type Validation = GoogleAppsScript.Spreadsheet.DataValidation | null;

/** A row below the titles: its key, its cells in the table's columns (in the table's order). */
export interface TabRecord {
  key: string;
  table: CellValue[];
  /** Whether the user's columns hold a value or a formula, or any cell of the row a note. */
  hasUserContent: boolean;
}

/** The filter on a tab: its size (it always starts at A1 when the add-on made it) and criteria. */
interface FilterShape {
  /** For removing it without looking it up again (a read). */
  handle: GoogleAppsScript.Spreadsheet.Filter;
  row: number;
  column: number;
  height: number;
  width: number;
  criteria: { column: number; criteria: GoogleAppsScript.Spreadsheet.FilterCriteria }[];
}

/**
 * What the writer needs to know of a tab's frame, read with its content: a write reads nothing, so
 * that the tab's writes are committed once (Apps Script commits buffered writes before every read,
 * 0.3–0.8 s each on Google).
 */
export interface TabFrame {
  /**
   * A tab with nothing in it yet (inserted by the run, or empty): its columns get the table's
   * widths, which afterwards are the user's to change.
   */
  isNew: boolean;
  /** Its rows now: prepareTab grows it to the table's height. */
  maxRows: number;
  /** Its rows as read, before the run grew it. */
  maxRowsRead: number;
  maxColumns: number;
  frozenRows: number;
  filter: FilterShape | null;
}

/** What is in the tab now, read with a number of calls that does not grow with its rows. */
export interface TabContent {
  /** Null for a tab that is not there yet: the write inserts it. */
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  spreadsheetId: string;
  sheetName: string;
  frame: TabFrame;
  layout: TabLayout;
  lastRow: number;
  /** Row 1 in the user's columns: their titles, or a formula heading a column. */
  header: UserCells;
  /** Each row's cells by its key (the first row of a key, should the user have copied one). */
  byKey: Map<string, HeldCells>;
  /** Every row below the titles, in the tab's order. */
  records: TabRecord[];
  /** Whether any row below the titles has a note: without one, notes need no write. */
  hasNotes: boolean;
  /** Whether any cell below the titles has a data validation rule: without one, rules need no write. */
  hasValidations: boolean;
  /**
   * The validation of the first record's row over the layout's width, which a new record's row
   * takes (a rule set on a whole column keeps covering it); null when no record row has one.
   */
  validationTemplate: Validation[] | null;
}

const NO_NOTES: readonly string[] = [];

function emptyUserCells(width: number, formats?: string[]): UserCells {
  return {
    values: new Array<CellValue>(width).fill(''),
    formats: formats ?? new Array<string>(width).fill(''),
    formulas: new Array<string>(width).fill(''),
  };
}

/**
 * The content of `sheet` (by default the tab called `sheetName`; the caller's when it found the tab
 * by its id), or of a tab not there yet (of the size Sheets gives a new tab, inserted as
 * `sheetName`), read with the number of calls readTabContent makes.
 */
export function readTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  sheetName: string,
  table: Pick<Table, 'columns' | 'keyColumn'>,
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null = spreadsheet.getSheetByName(sheetName),
): TabContent {
  if (sheet) return readTabContent(sheet, table, spreadsheet);
  const spreadsheetId = idOf(spreadsheet);
  readFormulaSyntax(table, spreadsheetId, spreadsheet);
  return {
    ...emptyContent(table),
    sheet: null,
    spreadsheet,
    spreadsheetId,
    sheetName,
    frame: {
      isNew: true,
      maxRows: NEW_SHEET_ROWS,
      maxRowsRead: NEW_SHEET_ROWS,
      maxColumns: NEW_SHEET_COLUMNS,
      frozenRows: 0,
      filter: null,
    },
  };
}

type Located = 'sheet' | 'spreadsheet' | 'spreadsheetId' | 'sheetName' | 'frame';

function emptyContent(table: Pick<Table, 'columns'>): Omit<TabContent, Located> {
  return {
    layout: freshLayout(table.columns),
    lastRow: 0,
    header: emptyUserCells(0),
    byKey: new Map(),
    records: [],
    hasNotes: false,
    hasValidations: false,
    validationTemplate: null,
  };
}

/** Each spreadsheet's id, read once a run for every tab of it the run reads. */
const ids = new WeakMap<GoogleAppsScript.Spreadsheet.Spreadsheet, string>();

function idOf(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  let id = ids.get(spreadsheet);
  if (id === undefined) {
    id = spreadsheet.getId();
    ids.set(spreadsheet, id);
  }
  return id;
}

/**
 * The add-on's formulas are written in the spreadsheet's syntax: for a table that has some, its
 * locale is read with the tab, as a read after the run's writes would cost a commit.
 */
function readFormulaSyntax(
  table: Pick<Table, 'columns'>,
  spreadsheetId: string,
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  sheet?: GoogleAppsScript.Spreadsheet.Sheet,
): void {
  if (table.columns.some((column) => column.kind === 'formula'))
    argumentSeparatorIn(spreadsheetId, spreadsheet, sheet);
}

/** The filter and frozen rows the titles and filter are compared with before they are set. */
export function readTabFrame(sheet: GoogleAppsScript.Spreadsheet.Sheet): TabFrame {
  const filter = sheet.getFilter();
  let shape: FilterShape | null = null;
  if (filter) {
    const range = filter.getRange();
    const column = range.getColumn();
    const width = range.getNumColumns();
    const criteria: FilterShape['criteria'] = [];
    for (let at = column; at < column + width; at++) {
      const set = filter.getColumnFilterCriteria(at);
      if (set) criteria.push({ column: at, criteria: set });
    }
    shape = { handle: filter, row: range.getRow(), column, height: range.getNumRows(), width, criteria };
  }
  const maxRows = sheet.getMaxRows();
  return {
    isNew: false,
    maxRows,
    maxRowsRead: maxRows,
    maxColumns: sheet.getMaxColumns(),
    frozenRows: sheet.getFrozenRows(),
    filter: shape,
  };
}

/** Reads the tab's layout and everything the user owns in it (rows 1 to `lastRow`). */
export function readTabContent(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  table: Pick<Table, 'columns' | 'keyColumn'>,
  spreadsheet = sheet.getParent(),
): TabContent {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  const located = {
    sheet,
    spreadsheet,
    spreadsheetId: idOf(spreadsheet),
    sheetName: sheet.getName(),
    frame: { ...readTabFrame(sheet), isNew: lastRow === 0 },
  };
  readFormulaSyntax(table, located.spreadsheetId, spreadsheet, sheet);
  if (lastRow === 0 || lastColumn === 0) return { ...emptyContent(table), ...located };
  const values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as CellValue[][];
  const layout = layoutAddingColumns(
    sheet,
    located.sheetName,
    values,
    table.columns,
    lastRow > 1,
    located.frame,
  );
  const keyColumn = layout.tableColumns[table.keyColumn]! - 1;
  const { userColumns } = layout;
  const notes = lastRow > 1 ? sheet.getRange(2, 1, lastRow - 1, layout.width).getNotes() : [];
  const hasNotes = notes.some((row) => row.some((note) => note !== ''));

  // Rules in every column: a rule on the table's own columns refuses writes there too.
  const validations: Validation[][] =
    lastRow > 1 ? sheet.getRange(2, 1, lastRow - 1, layout.width).getDataValidations() : [];
  let userCellsOf = (_index: number): UserCells => emptyUserCells(0);
  if (userColumns.length > 0) {
    // One read of the span the user's columns cover (all of them, whatever sits between).
    const left = userColumns[0]!;
    const span = sheet.getRange(1, left, lastRow, userColumns[userColumns.length - 1]! - left + 1);
    const formulas = span.getFormulasR1C1();
    const formats = span.getNumberFormats();
    userCellsOf = (index) => ({
      values: userColumns.map((column) => values[index]![column - 1] ?? ''),
      formats: userColumns.map((column) => formats[index]![column - left] ?? ''),
      formulas: userColumns.map((column) => formulas[index]![column - left] ?? ''),
    });
  }
  const userRows = Array.from({ length: lastRow }, (_, index) => userCellsOf(index));
  blankSpillOutputs(userRows, userColumns);
  const hasValidations = validations.some((row) => row.some((validation) => validation !== null));
  const byKey = new Map<string, HeldCells>();
  const records: TabRecord[] = [];
  for (let index = 1; index < lastRow; index++) {
    const user = userRows[index]!;
    const rowNotes = notes[index - 1] ?? [];
    const hasUserContent =
      user.values.some((value) => value !== '' && value !== null) ||
      user.formulas.some((formula) => formula !== '') ||
      rowNotes.some((note) => note !== '');
    const key = String(values[index]![keyColumn]);
    records.push({
      key,
      table: layout.tableColumns.map((column) => values[index]![column - 1]!),
      hasUserContent,
    });
    if (!byKey.has(key)) {
      byKey.set(key, {
        user,
        notes: hasNotes ? padded(rowNotes, layout.width) : [],
        validations: hasValidations ? padded(validations[index - 1] ?? [], layout.width, null) : [],
      });
    }
  }
  return {
    ...located,
    layout,
    lastRow,
    header: userRows[0]!,
    byKey,
    records,
    hasNotes,
    hasValidations,
    validationTemplate: hasValidations ? padded(validations[0]!, layout.width, null) : null,
  };
}

function padded<T = string>(cells: readonly T[], width: number, empty: T = '' as T): T[] {
  return Array.from({ length: width }, (_, index) => cells[index] ?? empty);
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
  const { sheet } = target;
  const { layout } = content;
  const width = layout.width;
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
  const runRange = (run: { first: number; end: number }, column = 1, columns = width) =>
    sheet.getRange(run.first + 2, column, run.end - run.first, columns);
  // Google may give inserted rows the rules of the row above: they take none until their cells are in.
  if (content.hasValidations) for (const run of alignment.insertedRuns) runRange(run).clearDataValidations();

  const rulesOf = finalRules(content, keys);
  const tableFormats = table.columns.map((column) => numberFormatOf(column.kind));
  // Table columns that hold a rule in a row that stays: written only where their value changes.
  const guarded = new Set<number>();
  if (content.hasValidations) {
    alignment.keptFrom.forEach((old, index) => {
      if (old === -1) return;
      rulesOf(index).forEach((rule, column) => {
        if (rule && layout.tableColumns.includes(column + 1)) guarded.add(column + 1);
      });
    });
  }
  const held = keys.map((key) => content.byKey.get(key));
  const newRecord = newRecordCells(content);
  const rows: RowToWrite[] = table.rows.map((row, index) => ({
    table: row,
    tableFormats,
    user: held[index]?.user ?? newRecord,
  }));
  const titles = table.columns.map((column) => column.header);
  const titleRow = { table: titles, tableFormats: titles.map(() => PLAIN_TEXT), user: content.header };
  const freeColumns = new Set(layout.tableColumns.filter((column) => !guarded.has(column)));
  const slowerWrite = writeRows(
    target.nothingBuffered && !moved ? target : { ...target, nothingBuffered: false },
    table.columns,
    layout,
    1,
    [titleRow, ...rows],
    { tableColumns: freeColumns, userColumns: false },
  );

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
      const range = runRange(run, column, 1);
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
  for (const run of alignment.insertedRuns) {
    const runRows = rows.slice(run.first, run.end);
    writeRows(target, table.columns, layout, run.first + 2, runRows, {
      tableColumns: new Set(),
      userColumns: true,
    });
    const notes = held.slice(run.first, run.end).map((cells) => cells?.notes ?? []);
    if (notes.some((row) => row.length > 0))
      runRange(run).setNotes(notes.map((row) => (row.length > 0 ? row : padded(NO_NOTES, width))));
    if (content.hasValidations)
      runRange(run).setDataValidations(
        Array.from({ length: run.end - run.first }, (_, offset) => rulesOf(run.first + offset)),
      );
  }
  return slowerWrite;
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

/** A new record's user cells: empty, in the formats of the first record's row. */
function newRecordCells(content: TabContent): UserCells {
  const first = content.byKey.values().next().value as HeldCells | undefined;
  return emptyUserCells(content.layout.userColumns.length, first?.user.formats);
}

/**
 * Rows the add-on adds on top of a newest-first tab (below its titles) without rewriting the rest:
 * rows are inserted below the first record, which then moves down under the new ones. Inserting
 * inside the records, not above them, keeps references to the table (`D2:D` in a formula heading a
 * column, `'Completed trainings'!A2:A` on another tab) pointing at all of it. Returns
 * WriteResult.slowerWrite's note, or null.
 */
export function insertRowsOnTop(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  layout: TabLayout,
  rows: readonly CellValue[][],
): string | null {
  const width = layout.width;
  const spreadsheet = sheet.getParent();
  const target = {
    sheet,
    spreadsheet,
    spreadsheetId: spreadsheet.getId(),
    sheetName: sheet.getName(),
    nothingBuffered: false,
  };
  readFormulaSyntax({ columns }, target.spreadsheetId, spreadsheet, sheet);
  const topRows = sheet.getRange(1, 1, 2, width);
  const [headerValues, firstValues] = topRows.getValues() as CellValue[][];
  const [, firstNotes] = topRows.getNotes();
  const [headerFormats, firstFormats] = topRows.getNumberFormats();
  const [headerFormulas, firstFormulas] = topRows.getFormulasR1C1();
  const pick = <T>(cells: readonly T[]) => layout.userColumns.map((column) => cells[column - 1]!);
  const header: UserCells = {
    values: pick(headerValues!),
    formats: pick(headerFormats!),
    formulas: pick(headerFormulas!),
  };
  const firstUser: UserCells = {
    values: pick(firstValues!),
    formats: pick(firstFormats!),
    formulas: pick(firstFormulas!),
  };
  blankSpillOutputs([header, firstUser], layout.userColumns);

  const firstValidations = sheet.getRange(2, 1, 1, width).getDataValidations()[0]!;
  const hasValidations = firstValidations.some((validation) => validation !== null);

  sheet.insertRowsAfter(2, rows.length);
  // The first record's values go back under its rules, which may refuse an old value (and Google may
  // give the inserted rows the same rules): the rules are lifted, then set again after the values.
  if (hasValidations) sheet.getRange(2, 1, rows.length + 1, width).clearDataValidations();
  const tableFormats = columns.map((column) => numberFormatOf(column.kind));
  const slowerWrite = writeRows(target, columns, layout, 2, [
    ...rows.map((row) => ({
      table: row,
      tableFormats,
      user: emptyUserCells(layout.userColumns.length, firstUser.formats),
    })),
    {
      table: layout.tableColumns.map((column) => firstValues![column - 1]!),
      tableFormats,
      user: firstUser,
      readBack: true,
    },
  ]);
  sheet.getRange(2, 1, rows.length, width).setFontWeight('normal');
  if (hasValidations) {
    // The new rows take the first record's validation; the first record keeps its own.
    sheet
      .getRange(2, 1, rows.length + 1, width)
      .setDataValidations([...rows.map(() => firstValidations), firstValidations]);
  }
  if (firstNotes!.some((note) => note !== '')) {
    sheet
      .getRange(2, 1, rows.length + 1, width)
      .setNotes([...rows.map(() => padded(NO_NOTES, width)), padded(firstNotes!, width)]);
  }
  return slowerWrite;
}

/**
 * Strings Sheets may read as something else when they are written as if typed: anything with a
 * digit (numbers, dates, times, currencies, percentages), a leading "=", "+", "-", "'", "(" or "#"
 * (formulas, signs, negative amounts, a quote prefix, error values), a currency sign, and the booleans.
 */
const READ_AS_NON_TEXT = /\d|^\s*[=+\-'(#]|[$€£¥₹%]|^\s*(?:true|false)\s*$/i;

/**
 * Functions whose result may fill cells beyond their own (below, or to the right), the add-on's own
 * custom functions among them: the values they fill are not the user's, and writing them back would
 * block the formula from filling them (#REF!). A formula that calls none of them fills only its cell,
 * so values below it are the user's.
 */
const SPILLING_FUNCTION =
  /(?:^|[^A-Z0-9_.])(?:ARRAYFORMULA|FILTER|SORTN?|UNIQUE|QUERY|SEQUENCE|IMPORTRANGE|IMPORTDATA|IMPORTHTML|IMPORTXML|IMPORTFEED|FLATTEN|TRANSPOSE|MAP|BYROW|BYCOL|SCAN|MAKEARRAY|SPLIT|HSTACK|VSTACK|TOCOL|TOROW|WRAPROWS|WRAPCOLS|CHOOSECOLS|CHOOSEROWS|ARRAY_CONSTRAIN|MMULT|FREQUENCY|GOOGLEFINANCE|LINEST|LOGEST|GROWTH|TREND|SAFETY_[A-Z_]+)\s*\(|\{/i;

/** An error value a formula shows when it cannot fill its cells: what is there is not its output. */
const FORMULA_ERROR = /^#(?:REF|N\/A|ERROR|VALUE|NAME\?|NUM|DIV\/0|NULL)!?/;

/** A value as setValues must be given it so that the cell holds it exactly: text stays text. */
function keptAsTyped(value: CellValue, format: string): CellValue {
  return typeof value === 'string' && format !== PLAIN_TEXT && READ_AS_NON_TEXT.test(value)
    ? `'${value}`
    : value;
}

function maySpill(formula: string, shown: CellValue): boolean {
  return (
    formula !== '' &&
    SPILLING_FUNCTION.test(formula) &&
    !(typeof shown === 'string' && FORMULA_ERROR.test(shown))
  );
}

/** A tab to write rows into, with what the Sheets API addresses it by (read before any write). */
interface WriteTarget {
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

interface RowToWrite {
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
function writeRows(
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
  let slowerWrite: string | null = null;
  const blocks = rowBlocks(rows);
  const freshRows = blocks.reduce((sum, block) => sum + (block.readBack ? 0 : block.end - block.first), 0);
  if (freshRows * rawPositions.length >= SHEETS_API_MIN_CELLS) {
    const spreadsheets = sheetsAdvancedService();
    if (!spreadsheets)
      slowerWrite = slowerWriteNote("the Sheets advanced service is not in the add-on's manifest");
    else {
      const rawColumns = new Set(rawPositions.map((position) => layout.tableColumns[position]!));
      // The API sees only committed rows, and Apps Script sends writes still buffered after the API's
      // (the emulator, not knowing which cells they touch, lets them hide all of the API's): the
      // API writes first, with nothing buffered, and the formats and other columns after it.
      if (!nothingBuffered) SpreadsheetApp.flush();
      const apiTarget = { spreadsheetId, sheetName };
      try {
        for (const { first, end, readBack } of blocks) {
          if (!readBack)
            writeRunsRaw(
              spreadsheets,
              apiTarget,
              top + first,
              rawRuns(layout, rows.slice(first, end), rawPositions),
            );
        }
      } catch (error) {
        slowerWrite = slowerWriteNote(
          `the Sheets API answered: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (slowerWrite === null) {
        const typedColumns = [
          ...(writesUser ? layout.userColumns : []),
          ...layout.tableColumns.filter(
            (column, position) => writesTable(position) && !rawColumns.has(column),
          ),
        ];
        writeAroundRaw(target, columns, layout, top, rows, rawColumns, blocks, typedColumns);
        if (writesUser) writeUserFormulas(sheet, layout, top, userCellsOf(rows));
        return null;
      }
    }
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
  return slowerWrite;
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

function slowerWriteNote(reason: string): string {
  return `A large table was written through the Spreadsheet service, slower, because ${reason}; nothing is missing.`;
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
function writeTyped(
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

/**
 * Empties the cells a formula fills, which are its output, not the user's: below a formula heading a
 * column (row 0 of `rows`, up to the next formula), and right of a formula on the same row (up to the
 * first empty cell, formula or table column), when that formula may spill and shows no error.
 */
function blankSpillOutputs(rows: readonly UserCells[], sheetColumns: readonly number[]): void {
  const width = rows[0]?.values.length ?? 0;
  for (let column = 0; column < width; column++) {
    let spilling = false;
    rows.forEach((row, index) => {
      const formula = row.formulas[column]!;
      if (formula) spilling = index === 0 && maySpill(formula, row.values[column]!);
      else if (spilling) row.values[column] = '';
    });
  }
  for (const row of rows) {
    for (let column = 0; column < width; column++) {
      if (!maySpill(row.formulas[column]!, row.values[column]!)) continue;
      for (let right = column + 1; right < width && !row.formulas[right]; right++) {
        const adjacent = sheetColumns[right] === sheetColumns[right - 1]! + 1;
        if (!adjacent || row.values[right] === '' || row.values[right] === null) break;
        row.values[right] = '';
      }
    }
  }
}

/**
 * The user's formulas, written after the values: a column whose records hold formulas and no values
 * in one write of all its rows (whatever its formulas, even one per row), and any other formula (a
 * title's, or one among values) in one write per distinct formula to the runs of rows that hold it.
 */
function writeUserFormulas(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layout: TabLayout,
  top: number,
  rows: readonly UserCells[],
): void {
  const firstRecord = top === 1 ? 1 : 0;
  const records = rows.slice(firstRecord);
  const runsByFormula = new Map<string, string[]>();
  layout.userColumns.forEach((sheetColumn, column) => {
    const formulaOnly =
      records.length > 0 &&
      records.some((row) => row.formulas[column]) &&
      records.every(
        (row) => row.formulas[column] || row.values[column] === '' || row.values[column] === null,
      );
    if (formulaOnly) {
      sheet
        .getRange(top + firstRecord, sheetColumn, records.length, 1)
        .setFormulasR1C1(records.map((row) => [row.formulas[column]!]));
    }
    const end = formulaOnly ? firstRecord : rows.length;
    for (let start = 0; start < end;) {
      const formula = rows[start]!.formulas[column]!;
      let next = start + 1;
      while (next < end && rows[next]!.formulas[column] === formula) next++;
      if (formula) {
        const runs = runsByFormula.get(formula) ?? [];
        runs.push(columnRunA1(sheetColumn, top + start, top + next - 1));
        runsByFormula.set(formula, runs);
      }
      start = next;
    }
  });
  for (const [formula, runs] of runsByFormula) sheet.getRangeList(runs).setFormulaR1C1(formula);
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
