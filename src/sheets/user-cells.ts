/**
 * The user's cells in a tab the add-on writes: what a row holds besides the table's own values, and
 * how those cells go back exactly as they were. A value Sheets would read as something else goes
 * back with a leading apostrophe, which keeps it text; a formula's spilled output is not the user's
 * and is not written back; the user's formulas are written back relative to their row's position.
 */
import { columnRunA1 } from './a1-notation';
import { type CellValue, PLAIN_TEXT } from './table';
import type { TabLayout } from './tab-layout';

/** One row's cells in the user's columns (in the order of `TabLayout.userColumns`). */
export interface UserCells {
  values: CellValue[];
  /** Number formats, which move with the values. */
  formats: string[];
  /** In R1C1 notation, so that a formula means the same on whichever row its record lands; '' for none. */
  formulas: string[];
}

/** What a row of the tab holds besides the table's own values. */
export interface HeldCells {
  user: UserCells;
  /** Every column's note ('' for none), over the layout's width. */
  notes: string[];
  /** The data validation of each cell over the layout's width; empty when the tab has no rule. */
  validations: Validation[];
}

export type Validation = GoogleAppsScript.Spreadsheet.DataValidation | null;

export function emptyUserCells(width: number, formats?: string[]): UserCells {
  return {
    values: new Array<CellValue>(width).fill(''),
    formats: formats ?? new Array<string>(width).fill(''),
    formulas: new Array<string>(width).fill(''),
  };
}

/** A new record's user cells: empty, in the formats of the first record's row. */
export function newRecordCells(content: {
  byKey: ReadonlyMap<string, HeldCells>;
  layout: Pick<TabLayout, 'userColumns'>;
}): UserCells {
  const first = content.byKey.values().next().value as HeldCells | undefined;
  return emptyUserCells(content.layout.userColumns.length, first?.user.formats);
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
export function keptAsTyped(value: CellValue, format: string): CellValue {
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

/**
 * Empties the cells a formula fills, which are its output, not the user's: below a formula heading a
 * column (row 0 of `rows`, up to the next formula), and right of a formula on the same row (up to the
 * first empty cell, formula or table column), when that formula may spill and shows no error.
 */
export function blankSpillOutputs(rows: readonly UserCells[], sheetColumns: readonly number[]): void {
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
export function writeUserFormulas(
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
