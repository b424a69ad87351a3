/**
 * Reading a tab before the table is written over it: its frame (size, frozen rows, filter), its
 * layout (the table's columns found by their titles, see tab-layout.ts), and each row's cells that
 * the write keeps (the user's columns, notes, rules), with a number of calls that does not grow with
 * its rows.
 */
import { argumentSeparatorIn } from './formula-syntax';
import { NEW_SHEET_COLUMNS, NEW_SHEET_ROWS } from './cell-limit';
import { type CellValue, type Table } from './table';
import { layoutAddingColumns } from './added-columns';
import { freshLayout, type TabLayout } from './tab-layout';
import {
  blankSpillOutputs,
  emptyUserCells,
  type HeldCells,
  type UserCells,
  type Validation,
} from './user-cells';

/** A row below the titles: its key, its cells in the table's columns (in the table's order). */
export interface TabRecord {
  key: string;
  table: CellValue[];
  /** Whether the user's columns hold a value or a formula, or any cell of the row a note. */
  hasUserContent: boolean;
}

/** The filter on a tab: its size (it always starts at A1 when the add-on made it) and criteria. */
export interface FilterShape {
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

/**
 * The table a tab holds, as a read needs it: its columns and key, and the later columns (since a
 * layout version) the add-on already has on the tab, which are found wherever the user moved them.
 */
export type TabTable = Pick<Table, 'columns' | 'keyColumn'> & { laterColumnsOwned?: ReadonlySet<string> };

/** A row without notes, padded to a width where a write sets notes on other rows. */
export const NO_NOTES: readonly string[] = [];

/**
 * The content of `sheet` (by default the tab called `sheetName`; the caller's when it found the tab
 * by its id), or of a tab not there yet (of the size Sheets gives a new tab, inserted as
 * `sheetName`), read with the number of calls readTabContent makes.
 */
export function readTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  sheetName: string,
  table: TabTable,
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
export function readFormulaSyntax(
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
  table: TabTable,
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
    table.laterColumnsOwned,
  );
  const keyColumn = layout.tableColumns[table.keyColumn]! - 1;
  const { userColumns } = layout;
  const notes = lastRow > 1 ? sheet.getRange(2, 1, lastRow - 1, layout.width).getNotes() : [];
  const hasNotes = notes.some((row) => row.some((note) => note !== ''));

  // Rules in every column: a rule on the table's own columns refuses writes there too.
  const validations: Validation[][] =
    lastRow > 1 ? sheet.getRange(2, 1, lastRow - 1, layout.width).getDataValidations() : [];
  const userRows = readUserRows(sheet, values, userColumns);
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

/**
 * The user's cells of every row read (`values` are rows 1 to its length), with what a formula of
 * theirs spills blanked: its output is not the user's.
 */
function readUserRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  values: readonly CellValue[][],
  userColumns: readonly number[],
): UserCells[] {
  const lastRow = values.length;
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
  return userRows;
}

/** `cells` over `width` columns, `empty` beyond them. */
export function padded<T = string>(cells: readonly T[], width: number, empty: T = '' as T): T[] {
  return Array.from({ length: width }, (_, index) => cells[index] ?? empty);
}
