/**
 * Data validation under change: seeded sequences of a script's calls on one tab (dropdown rules set
 * with "Reject input" or warning only and removed, a rule set and written in one execution,
 * setValue, setValues, appendRow, clearContent, Sheets API update and batchUpdate with RAW values and
 * nulls) against an oracle that knows only the rules and the cells' text. After every call:
 *  - a call is refused exactly when one of its non-empty values is not in the list of a reject-input
 *    rule on its cell (the rule in force at the call), with Google's sentence naming the first such
 *    cell row by row (for the API, inside the API's error);
 *  - a refused call writes nothing; any other call writes all it says; a rule never changes a value.
 *
 * A failing sequence throws with its seed and every step; VALIDATION_WRITES_SEED=7 replays sequence 7,
 * VALIDATION_WRITES_SEQUENCES=20 runs the first 20.
 */
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';
import { emulate } from './fixtures/script-emulator';

const SEQUENCES = 200;
const STEPS = 10;
const COLUMNS = 4;
const ROWS = 5;
/** Texts that Sheets keeps as text when typed; '' clears. */
const WORDS = ['Yes', 'No', 'Maybe', 'Later', ''];
const LISTS = [['Yes', 'No'], ['Yes', 'Maybe'], ['Later']];

const MANIFEST = JSON.stringify({
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function tab() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function range(box) { return tab().getRange(box.row, box.column, box.rows, box.columns); }
  function setRule(box, list, reject) {
    range(box).setDataValidation(
      SpreadsheetApp.newDataValidation().requireValueInList(list).setAllowInvalid(!reject).build());
  }
  function removeRules(box) { range(box).clearDataValidations(); }
  function setRuleThenValues(box, list, rows) {
    setRule(box, list, true);
    range(box).setValues(rows);
  }
  function setValue(box, value) { range(box).setValue(value); }
  function setValues(box, rows) { range(box).setValues(rows); }
  function appendRow(values) { tab().appendRow(values); }
  function clearContent(box) { range(box).clearContent(); }
  function a1(box) { return 'Sheet1!' + range(box).getA1Notation(); }
  function update(box, rows) {
    var id = SpreadsheetApp.getActiveSpreadsheet().getId();
    Sheets.Spreadsheets.Values.update({ values: rows }, id, a1(box), { valueInputOption: 'RAW' });
  }
  function batchUpdate(boxes, grids) {
    var id = SpreadsheetApp.getActiveSpreadsheet().getId();
    var data = boxes.map(function (box, index) { return { range: a1(box), values: grids[index] }; });
    Sheets.Spreadsheets.Values.batchUpdate({ valueInputOption: 'RAW', data: data }, id);
  }
`;

interface Box {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

interface Rule {
  list: readonly string[];
  reject: boolean;
}

/** The tab as the oracle knows it: each cell's text and rule, by "row,column". */
class TabOracle {
  readonly texts = new Map<string, string>();
  readonly rules = new Map<string, Rule>();

  text(row: number, column: number): string {
    return this.texts.get(`${row},${column}`) ?? '';
  }

  /** The first cell, row by row, whose reject-input rule refuses its new text; null for none. */
  refusedCell(writes: readonly [number, number, string | null][]): string | null {
    for (const [row, column, text] of writes) {
      const rule = this.rules.get(`${row},${column}`);
      if (text && rule?.reject && !rule.list.includes(text))
        return `${String.fromCharCode(64 + column)}${row}`;
    }
    return null;
  }

  write(writes: readonly [number, number, string | null][]): void {
    for (const [row, column, text] of writes) if (text !== null) this.texts.set(`${row},${column}`, text);
  }

  setRule(box: Box, rule: Rule | null): void {
    for (const [row, column] of cellsOf(box)) {
      if (rule) this.rules.set(`${row},${column}`, rule);
      else this.rules.delete(`${row},${column}`);
    }
  }

  lastRowWithText(): number {
    let last = 0;
    for (const [key, text] of this.texts) if (text !== '') last = Math.max(last, Number(key.split(',')[0]));
    return last;
  }
}

function cellsOf(box: Box): [number, number][] {
  const cells: [number, number][] = [];
  for (let row = box.row; row < box.row + box.rows; row++)
    for (let column = box.column; column < box.column + box.columns; column++) cells.push([row, column]);
  return cells;
}

function randomBox(random: Random): Box {
  const row = random.int(1, ROWS);
  const column = random.int(1, COLUMNS);
  return { row, column, rows: random.int(1, ROWS - row + 1), columns: random.int(1, COLUMNS - column + 1) };
}

function randomGrid(random: Random, box: Box, withNulls: boolean): (string | null)[][] {
  return Array.from({ length: box.rows }, () =>
    Array.from({ length: box.columns }, () => (withNulls && random.chance(0.2) ? null : random.pick(WORDS))),
  );
}

function gridWrites(
  box: Box,
  grid: readonly (readonly (string | null)[])[],
): [number, number, string | null][] {
  return grid.flatMap((cells, i) =>
    cells.map((text, j): [number, number, string | null] => [box.row + i, box.column + j, text]),
  );
}

const violation = (a1: string) =>
  `The data you entered in cell ${a1} violates the data validation rules set on this cell.`;

/** One step: what it runs, what it writes and which rule it sets, as the oracle sees them. */
interface Step {
  name: string;
  args: unknown[];
  writes: [number, number, string | null][];
  /** A rule set before the writes, in the same execution. */
  rule?: { box: Box; rule: Rule | null };
  apiMethod?: string;
}

function randomStep(random: Random, oracle: TabOracle): Step {
  const box = randomBox(random);
  switch (random.int(0, 8)) {
    case 0: {
      const rule = { list: random.pick(LISTS), reject: random.chance(0.7) };
      return { name: 'setRule', args: [box, rule.list, rule.reject], writes: [], rule: { box, rule } };
    }
    case 1:
      return { name: 'removeRules', args: [box], writes: [], rule: { box, rule: null } };
    case 2: {
      const list = random.pick(LISTS);
      const grid = randomGrid(random, box, false);
      const rule = { box, rule: { list, reject: true } };
      return { name: 'setRuleThenValues', args: [box, list, grid], writes: gridWrites(box, grid), rule };
    }
    case 3: {
      const text = random.pick(WORDS);
      return {
        name: 'setValue',
        args: [box, text],
        writes: cellsOf(box).map(([row, column]) => [row, column, text]),
      };
    }
    case 4: {
      const row = oracle.lastRowWithText() + 1;
      const values = Array.from({ length: random.int(1, COLUMNS) }, () => random.pick(WORDS));
      return { name: 'appendRow', args: [values], writes: values.map((text, i) => [row, i + 1, text]) };
    }
    case 5:
      return {
        name: 'clearContent',
        args: [box],
        writes: cellsOf(box).map(([row, column]) => [row, column, '']),
      };
    case 6: {
      const grid = randomGrid(random, box, true);
      return { name: 'update', args: [box, grid], writes: gridWrites(box, grid), apiMethod: 'update' };
    }
    case 7: {
      const other = randomBox(random);
      const grids = [randomGrid(random, box, true), randomGrid(random, other, true)];
      // Google's batchUpdate writes its ranges in order: a cell in both ends with the second's value.
      const writes = [...gridWrites(box, grids[0]!), ...gridWrites(other, grids[1]!)];
      return { name: 'batchUpdate', args: [[box, other], grids], writes, apiMethod: 'batchUpdate' };
    }
    default: {
      const grid = randomGrid(random, box, false);
      return { name: 'setValues', args: [box, grid], writes: gridWrites(box, grid) };
    }
  }
}

/** The first cell row by row, as Google names it; writes of a batch come range after range. */
function inCheckingOrder(step: Step): [number, number, string | null][] {
  return step.name === 'batchUpdate'
    ? step.writes
    : [...step.writes].sort(([r1, c1], [r2, c2]) => r1 - r2 || c1 - c2);
}

/** Per call name, how many were refused and how many went through. */
type Outcomes = Map<string, { refused: number; written: number }>;

function runSequence(seed: number, outcomes: Outcomes): void {
  const random = seeded(seed);
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST } });
  const spreadsheetId = emulator.createSpreadsheet();
  const sheet = emulator.workbooks.get(spreadsheetId)!.sheet('Sheet1');
  const oracle = new TabOracle();
  const steps: string[] = [];
  for (let index = 0; index < STEPS; index++) {
    const step = randomStep(random, oracle);
    steps.push(`${step.name} ${JSON.stringify(step.args)}`);
    const fail = (problem: string) => {
      throw new Error(`Sequence ${seed}, step ${index + 1}: ${problem}\nSteps:\n${steps.join('\n')}`);
    };
    if (step.rule) oracle.setRule(step.rule.box, step.rule.rule);
    const refused = oracle.refusedCell(inCheckingOrder(step));
    let thrown: string | null = null;
    try {
      emulator.run(step.name, step.args, { spreadsheetId });
    } catch (error) {
      thrown = (error as Error).message;
    }
    if (refused === null && thrown !== null) fail(`refused: ${thrown}`);
    if (refused !== null) {
      const expected = step.apiMethod
        ? `API call to sheets.spreadsheets.values.${step.apiMethod} failed with error: ${violation(refused)}`
        : violation(refused);
      if (thrown === null || !thrown.includes(expected)) fail(`expected "${expected}", got ${thrown}`);
    } else {
      oracle.write(step.writes);
    }
    const outcome = outcomes.get(step.name) ?? { refused: 0, written: 0 };
    outcomes.set(step.name, outcome);
    if (refused === null) outcome.written++;
    else outcome.refused++;
    const expectedTexts = Array.from({ length: ROWS + STEPS }, (_, i) =>
      Array.from({ length: COLUMNS }, (_, j) => oracle.text(i + 1, j + 1)),
    );
    const actual = sheet.values(`A1:D${ROWS + STEPS}`);
    if (JSON.stringify(actual) !== JSON.stringify(expectedTexts))
      fail(`cells are ${JSON.stringify(actual)}, the oracle says ${JSON.stringify(expectedTexts)}`);
  }
}

it(`refuses exactly the writes a reject-input rule refuses, writing nothing of them (${SEQUENCES} sequences)`, () => {
  const { seeds, complete } = sequenceSeeds('VALIDATION_WRITES', SEQUENCES);
  const outcomes: Outcomes = new Map();
  for (const seed of seeds) runSequence(seed, outcomes);
  if (!complete) return;
  // The sequences exercised what the oracle judges: each writing call both refused and let through.
  for (const name of ['setRuleThenValues', 'setValue', 'setValues', 'appendRow', 'update', 'batchUpdate']) {
    expect({ name, refused: outcomes.get(name)!.refused > 0 }).toEqual({ name, refused: true });
    expect({ name, written: outcomes.get(name)!.written > 0 }).toEqual({ name, written: true });
  }
});
