/**
 * The user's cells on their own (src/sheets/user-cells.ts): which values go back with an apostrophe
 * so that Sheets keeps them as the text the user typed, which cells are a formula's spilled output
 * (not the user's, so not written back), and what a new record's row starts with.
 */
import { PLAIN_TEXT } from '../../src/sheets/table';
import {
  blankSpillOutputs,
  emptyUserCells,
  keptAsTyped,
  newRecordCells,
  type HeldCells,
  type UserCells,
} from '../../src/sheets/user-cells';

describe('a value written back into an automatic-format cell', () => {
  test.each([
    ['42'],
    ['007'],
    ['Room 4'],
    ['2024-05-01'],
    ['=SUM(A1)'],
    ['+44'],
    ['-minus'],
    ["'quoted"],
    ['(draft)'],
    ['#N/A'],
    ['  =spaced'],
    ['costs $'],
    ['€ only'],
    ['£'],
    ['¥'],
    ['₹'],
    ['half %'],
    ['true'],
    ['FALSE'],
    [' True '],
  ])('keeps %j as text with a leading apostrophe', (typed) => {
    expect(keptAsTyped(typed, '')).toBe(`'${typed}`);
    expect(keptAsTyped(typed, '0.00')).toBe(`'${typed}`);
  });

  test.each([
    ['Yes'],
    ['No'],
    ['maybe'],
    ['truthful'],
    ['not false'],
    ['a-b'],
    ['x=y'],
    ['Q(x'],
    ['no #'],
    [''],
  ])('writes %j as it is: Sheets reads it as that text', (typed) => {
    expect(keptAsTyped(typed, '')).toBe(typed);
  });

  test('writes anything as it is into a plain-text cell, and numbers, booleans and blanks anywhere', () => {
    expect(keptAsTyped('42', PLAIN_TEXT)).toBe('42');
    expect(keptAsTyped('=SUM(A1)', PLAIN_TEXT)).toBe('=SUM(A1)');
    expect(keptAsTyped(42, '')).toBe(42);
    expect(keptAsTyped(true, '')).toBe(true);
    expect(keptAsTyped(null, '')).toBeNull();
  });
});

/** Rows of one user column each: [value, formula] from the titles down. */
function column(...cells: [value: string | number, formula: string][]): UserCells[] {
  return cells.map(([value, formula]) => ({ values: [value], formats: [''], formulas: [formula] }));
}

function values(rows: readonly UserCells[]): (string | number | boolean | null)[][] {
  return rows.map((row) => row.values);
}

describe("a formula's spilled output, which is not the user's", () => {
  test.each([
    ['=ARRAYFORMULA(C2:C*2)'],
    ['=FILTER(A:A, B:B)'],
    ['=SORT(A2:A)'],
    ['=SORTN(A2:A, 3)'],
    ['=UNIQUE(A2:A)'],
    ['=QUERY(A:C, "select A")'],
    ['=SEQUENCE(5)'],
    ['=IMPORTRANGE("x", "A:A")'],
    ['=FLATTEN(A2:B)'],
    ['=MAP(A2:A, LAMBDA(x, x))'],
    ['=BYROW(A2:B, LAMBDA(r, 1))'],
    ['=VSTACK(A2:A, B2:B)'],
    ['=SAFETY_STATUS(A2:A)'],
    ['={"Due"; A2:A}'],
    ['=1 + filter(A:A, B:B)'],
    ['=ARRAYFORMULA (C2:C)'],
  ])('below a column heading %s is blanked down to the next formula', (formula) => {
    const rows = column(['Due', formula], [3, ''], [4, ''], ['mine', '=C5'], ['after', '']);
    blankSpillOutputs(rows, [11]);
    expect(values(rows)).toEqual([['Due'], [''], [''], ['mine'], ['after']]);
  });

  test.each([['=C2*2'], ['=MYFILTER(A2:A)'], ['=X.SORT(A2:A)'], ['=SUM(A2:A)'], ['=FILTERED_TOTAL']])(
    "below a heading formula that fills only its cell (%s) is the user's",
    (formula) => {
      const rows = column(['Due', formula], [3, ''], ['x', '']);
      blankSpillOutputs(rows, [11]);
      expect(values(rows)).toEqual([['Due'], [3], ['x']]);
    },
  );

  test.each([['#REF!'], ['#N/A'], ['#ERROR!'], ['#VALUE!'], ['#NAME?'], ['#NUM!'], ['#DIV/0!'], ['#NULL!']])(
    "below a heading formula showing %s (it could not fill its cells) is the user's",
    (error) => {
      const rows = column([error, '=ARRAYFORMULA(C2:C*2)'], [3, ''], ['x', '']);
      blankSpillOutputs(rows, [11]);
      expect(values(rows)).toEqual([[error], [3], ['x']]);
    },
  );

  test('a spilling formula below the titles blanks nothing under it', () => {
    const rows = column(['Due', ''], [3, '=ARRAYFORMULA(C2:C*2)'], [4, '']);
    blankSpillOutputs(rows, [11]);
    expect(values(rows)).toEqual([['Due'], [3], [4]]);
  });

  test('to the right of a spilling formula is blanked up to an empty cell, a formula or a gap', () => {
    const row = (formulas: string[], cells: (string | number)[]): UserCells => ({
      values: cells,
      formats: cells.map(() => ''),
      formulas,
    });
    const split = '=SPLIT(A2, ",")';
    const rows = [
      row(['', '', '', ''], ['T1', 'T2', 'T3', 'T4']),
      row([split, '', '', ''], ['a', 'b', 'c', 'd']),
      row([split, '', '', ''], ['a', 'b', '', 'd']),
      row([split, '', '=1', ''], ['a', 'b', 2, 'd']),
      row(['=C3', '', '', ''], ['a', 'b', 'c', 'd']),
      row([split, '', '', ''], ['#REF!', 'b', 'c', 'd']),
    ];
    blankSpillOutputs(rows, [11, 12, 13, 14]);
    expect(values(rows)).toEqual([
      ['T1', 'T2', 'T3', 'T4'],
      ['a', '', '', ''],
      ['a', '', '', 'd'],
      ['a', '', 2, 'd'],
      ['a', 'b', 'c', 'd'],
      ['#REF!', 'b', 'c', 'd'],
    ]);
    // A table column between two of the user's columns: the spill stops there.
    const apart = [row(['', '', ''], ['T1', 'T2', 'T3']), row([split, '', ''], ['a', 'b', 'c'])];
    blankSpillOutputs(apart, [11, 12, 14]);
    expect(values(apart)).toEqual([
      ['T1', 'T2', 'T3'],
      ['a', '', 'c'],
    ]);
    // A cell read as null (an empty date cell) ends the spill as an empty one does.
    const withNull = [row([split, '', ''], ['a', null as unknown as string, 'c'])];
    blankSpillOutputs(withNull, [11, 12, 13]);
    expect(values(withNull)).toEqual([['a', null, 'c']]);
  });

  test('a tab without user columns has nothing to blank', () => {
    expect(() => blankSpillOutputs([], [])).not.toThrow();
    const rows = [emptyUserCells(0)];
    blankSpillOutputs(rows, []);
    expect(rows).toEqual([{ values: [], formats: [], formulas: [] }]);
  });
});

describe("a new record's user cells", () => {
  test("are empty, in the first record's formats", () => {
    const held = (formats: string[]): HeldCells => ({
      user: { values: ['Yes', 'x'], formats, formulas: ['', '=R1C1'] },
      notes: [],
      validations: [],
    });
    const byKey = new Map([
      ['first', held(['0.00', '@'])],
      ['second', held(['0', '0'])],
    ]);
    expect(newRecordCells({ byKey, layout: { userColumns: [4, 5] } })).toEqual({
      values: ['', ''],
      formats: ['0.00', '@'],
      formulas: ['', ''],
    });
  });

  test('are empty in no format on a tab without records', () => {
    expect(newRecordCells({ byKey: new Map(), layout: { userColumns: [4, 5] } })).toEqual({
      values: ['', ''],
      formats: ['', ''],
      formulas: ['', ''],
    });
  });
});
