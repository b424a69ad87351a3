/**
 * Writes a Table into a tab in place, with a number of Spreadsheet service calls that does not grow
 * with the row count: one read of what is there, one write of the formats, one of the values. Tabs
 * are never deleted and re-created, so formulas elsewhere that point at them keep working. Columns
 * the user added to the right follow their rows, matched by the row's key: their number formats,
 * their values exactly as they were (a string that Sheets would read as a number, a date, a
 * boolean, an error or a formula goes back with a leading apostrophe, which keeps it text, unless
 * its cell is plain text), and their formulas written back relative to the row's new position
 * (reads of formulas and formats, writes of formats and values, one write per column of formulas,
 * two calls per distinct formula among values).
 */
import { columnRunA1 } from './a1-notation';
import { type CellValue, type ColumnSpec, numberFormatOf, type Table } from './table';

export interface WriteResult {
  rowsWritten: number;
  /** Keys that had values in user-added columns and are no longer in the table. */
  userRowsDropped: number;
}

export function getOrCreateSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, name: string) {
  return spreadsheet.getSheetByName(name) ?? spreadsheet.insertSheet(name);
}

/** One row's cells in the columns the user added. */
interface UserCells {
  values: CellValue[];
  /** Number formats, which move with the values. */
  formats: string[];
  /** In R1C1 notation, so that a formula means the same on whichever row its record lands; '' for none. */
  formulas: string[];
}

interface ExistingContent {
  userWidth: number;
  header: UserCells;
  cellsByKey: Map<string, UserCells>;
  lastRow: number;
}

function readExisting(sheet: GoogleAppsScript.Spreadsheet.Sheet, table: Table): ExistingContent {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  const tableWidth = table.columns.length;
  const userWidth = Math.max(0, lastColumn - tableWidth);
  if (lastRow === 0 || userWidth === 0) {
    return {
      userWidth: 0,
      header: { values: [], formats: [], formulas: [] },
      cellsByKey: new Map(),
      lastRow,
    };
  }
  const values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as CellValue[][];
  const userRange = sheet.getRange(1, tableWidth + 1, lastRow, userWidth);
  const formulas = userRange.getFormulasR1C1();
  const formats = userRange.getNumberFormats();
  const cellsOf = (index: number): UserCells => ({
    values: values[index]!.slice(tableWidth),
    formats: formats[index]!,
    formulas: formulas[index]!.map((formula) => formula ?? ''),
  });
  const cellsByKey = new Map<string, UserCells>();
  for (let index = 1; index < lastRow; index++) {
    const cells = cellsOf(index);
    const filled =
      cells.values.some((value) => value !== '' && value !== null) ||
      cells.formulas.some((formula) => formula !== '');
    if (filled) cellsByKey.set(String(values[index]![table.keyColumn]), cells);
  }
  return { userWidth, header: cellsOf(0), cellsByKey, lastRow };
}

export function writeTable(sheet: GoogleAppsScript.Spreadsheet.Sheet, table: Table): WriteResult {
  const existing = readExisting(sheet, table);
  const width = table.columns.length;
  const height = table.rows.length + 1;
  const { userWidth } = existing;

  const spareRows = sheet.getMaxRows() - height;
  if (spareRows < 0) sheet.insertRowsAfter(sheet.getMaxRows(), -spareRows);
  const spareColumns = sheet.getMaxColumns() - (width + userWidth);
  if (spareColumns < 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), -spareColumns);

  // Rows the previous content used beyond the new table are emptied, not deleted: deleting rows
  // would turn other tabs' references to them into #REF!.
  if (existing.lastRow > height) {
    sheet.getRange(height + 1, 1, existing.lastRow - height, width + userWidth).clearContent();
  }

  const header = table.columns.map((column) => column.header);
  const tableRange = sheet.getRange(1, 1, height, width);
  // Formats first: values written into an "@" column are then kept literally.
  const formats = table.columns.map((column) => numberFormatOf(column.kind));
  tableRange.setNumberFormats([header.map(() => '@'), ...table.rows.map(() => formats)]);
  tableRange.setValues([header, ...table.rows.map((row) => row.map((value) => value ?? ''))]);

  let userRowsDropped = 0;
  if (userWidth > 0) {
    const keys = new Set<string>();
    // A new record's cells take each column's format from the first record that has one.
    const firstRecord = existing.cellsByKey.values().next().value;
    const empty: UserCells = {
      values: new Array<CellValue>(userWidth).fill(''),
      formats: firstRecord?.formats ?? new Array<string>(userWidth).fill(''),
      formulas: new Array<string>(userWidth).fill(''),
    };
    const userRows = table.rows.map((row) => {
      const key = String(row[table.keyColumn]);
      keys.add(key);
      return existing.cellsByKey.get(key) ?? empty;
    });
    for (const key of existing.cellsByKey.keys()) if (!keys.has(key)) userRowsDropped++;
    writeUserColumns(sheet, width + 1, [existing.header, ...userRows]);
  }

  formatHeaderAndColumns(sheet, table.columns, height);
  return { rowsWritten: table.rows.length, userRowsDropped };
}

const PLAIN_TEXT = '@';

/**
 * Strings Sheets may read as something else when they are written as if typed: anything with a
 * digit (numbers, dates, times, currencies, percentages), a leading "=", "+", "-", "'" or "#"
 * (formulas, signs, a quote prefix, error values), and the booleans.
 */
const READ_AS_NON_TEXT = /\d|^[=+\-'#]|^\s*(?:true|false)\s*$/i;

/**
 * A formula whose result fills the cells below it. The values it filled are not the user's: writing
 * them back would block the formula from filling them again (#REF!), so its column gets only formulas.
 */
const SPILLING_FORMULA =
  /^=\s*(?:IFERROR\s*\(\s*)?(?:\{|(?:ARRAYFORMULA|FILTER|SORTN?|UNIQUE|QUERY|SEQUENCE|IMPORTRANGE|FLATTEN|TRANSPOSE)\s*\()/i;

/**
 * Values in one write; then formulas: a column whose records hold formulas and no values in one
 * write of all its rows (whatever its formulas, even one per row), and any other formula (a header's,
 * or one among values) in one write per distinct formula to the runs of rows that hold it.
 */
function writeUserColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  firstColumn: number,
  rows: readonly UserCells[],
): void {
  const width = rows[0]!.values.length;
  const columns = Array.from({ length: width }, (_, column) => column);
  const spills = columns.map((column) => rows.some((row) => SPILLING_FORMULA.test(row.formulas[column]!)));
  const values = rows.map((row) =>
    row.values.map((value, column) => {
      if (row.formulas[column] || spills[column]) return '';
      return typeof value === 'string' && row.formats[column] !== PLAIN_TEXT && READ_AS_NON_TEXT.test(value)
        ? `'${value}`
        : value;
    }),
  );
  const range = sheet.getRange(1, firstColumn, rows.length, width);
  // Formats first: a value lands in the format it had, and "@" cells take strings literally.
  range.setNumberFormats(rows.map((row) => row.formats));
  range.setValues(values);

  const records = rows.slice(1);
  const formulaOnly = columns.map((column) => {
    let hasFormula = false;
    for (let index = 1; index < rows.length; index++) {
      if (rows[index]!.formulas[column]) hasFormula = true;
      else if (values[index]![column] !== '') return false;
    }
    return hasFormula;
  });
  const runsByFormula = new Map<string, string[]>();
  for (const column of columns) {
    if (formulaOnly[column]) {
      sheet
        .getRange(2, firstColumn + column, records.length, 1)
        .setFormulasR1C1(records.map((row) => [row.formulas[column]!]));
    }
    const end = formulaOnly[column] ? 1 : rows.length;
    for (let start = 0; start < end;) {
      const formula = rows[start]!.formulas[column]!;
      let next = start + 1;
      while (next < end && rows[next]!.formulas[column] === formula) next++;
      if (formula) {
        const runs = runsByFormula.get(formula) ?? [];
        runs.push(columnRunA1(firstColumn + column, start + 1, next));
        runsByFormula.set(formula, runs);
      }
      start = next;
    }
  }
  for (const [formula, runs] of runsByFormula) sheet.getRangeList(runs).setFormulaR1C1(formula);
}

/** Bold frozen header, a filter over the whole table, column widths; constant in the row count. */
export function formatHeaderAndColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  height: number,
): void {
  const width = columns.length;
  sheet.getRange(1, 1, 1, width).setFontWeight('bold');
  if (sheet.getFrozenRows() !== 1) sheet.setFrozenRows(1);
  sheet.getFilter()?.remove();
  sheet.getRange(1, 1, height, width).createFilter();
  columns.forEach((column, index) => {
    sheet.setColumnWidth(index + 1, column.width);
    if (column.hidden) sheet.hideColumns(index + 1);
  });
}
