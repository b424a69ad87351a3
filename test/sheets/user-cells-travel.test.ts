/**
 * The user's cells travel with their records the way Sheets moves rows: a run makes room by
 * inserting and deleting rows, so a row that stays is not written at all. Google refuses a script's
 * write that breaks a reject-input rule, so an old value under a rule the user (or the add-on, on
 * "Last inspected") added later must never be written back: every refresh completes, and each
 * record keeps its value and rule.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  keepTextFromBeforeValidation,
  LAST_INSPECTED,
  rows,
  SCHEDULES_TAB,
  syncLog,
  tab,
} from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';

const TAB = 'Completed trainings';
/** The hidden "Record key" column, and the first column after the table's. */
const KEY = 'J';
const SIGNED_OFF = 11;
/** Outcome, in the Sync log's columns from Action. */
const OUTCOME = 5;

function lastOutcome(harness: AddonHarness): string {
  return syncLog(harness)[0]![OUTCOME]!;
}

/** Each record's "Signed off" cell: its value and whether a reject-input Yes/No rule covers it. */
function signedOffByKey(harness: AddonHarness): Map<string, { value: string; rejects: boolean }> {
  const sheet = tab(harness, TAB);
  const last = sheet.lastRow;
  const keys = sheet.displayValues(`${KEY}2:${KEY}${last}`).map(([key]) => key!);
  const values = sheet.displayValues(`K2:K${last}`);
  const rules = sheet.dataValidations(`K2:K${last}`);
  return new Map(
    keys.map((key, index) => {
      const rule = rules[index]![0] ?? null;
      const rejects = rule !== null && rule.criteria === 'VALUE_IN_LIST' && !rule.allowInvalid;
      return [key, { value: values[index]![0]!, rejects }];
    }),
  );
}

describe('a "Signed off" Yes/No dropdown that rejects input, over rows that already hold "y"', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { seed: 31, completions: 24, users: 8 } });
    harness.connect();
    harness.clickMenu('Reconcile completed trainings');
    const user = userActions(harness);
    user.type(TAB, 1, SIGNED_OFF, [['Signed off']]);
    user.type(
      TAB,
      2,
      SIGNED_OFF,
      Array.from({ length: 24 }, (_, index) => [index % 3 === 0 ? 'y' : 'Yes']),
    );
    tab(harness, TAB).setDataValidation('K2:K25', { valueInList: ['Yes', 'No'], allowInvalid: false });
  });
  afterAll(() => harness.done());

  /** Every record there before and after keeps its value and its rule. */
  function expectSignedOffKept(before: Map<string, { value: string; rejects: boolean }>): void {
    const after = signedOffByKey(harness);
    let kept = 0;
    for (const [key, cell] of before) {
      if (!after.has(key)) continue;
      expect({ key, ...after.get(key)! }).toEqual({ key, ...cell });
      kept++;
    }
    expect(kept).toBeGreaterThan(15);
  }

  test('Refresh all adds records on top and completes; every "y" stays with its record, under its rule', async () => {
    const before = signedOffByKey(harness);
    expect([...before.values()].filter((cell) => cell.value === 'y' && cell.rejects)).toHaveLength(8);
    await harness.dataset.mutate({ addCompletions: 2 });
    harness.clickMenu('Refresh all');
    expect(lastOutcome(harness)).toBe('Success');
    expectSignedOffKept(before);
  });

  test('Reconcile with records added inside the list and removed from it completes, values and rules kept', async () => {
    const before = signedOffByKey(harness);
    await harness.dataset.mutate({
      addBackdatedCompletions: { count: 2, daysBeforeNewest: 30 },
      removeCompletionsAt: [4, 11],
    });
    harness.clickMenu('Reconcile completed trainings');
    expect(lastOutcome(harness)).toBe('Success');
    expectSignedOffKept(before);
    // New records take the column's rule, and nothing of anyone's.
    const after = signedOffByKey(harness);
    const fresh = [...after.entries()].filter(([key]) => !before.has(key));
    expect(fresh.length).toBeGreaterThan(0);
    for (const [, cell] of fresh) expect(cell).toEqual({ value: '', rejects: true });
  });

  test('a full import from the dialog completes, values and rules kept', async () => {
    const before = signedOffByKey(harness);
    await harness.dataset.mutate({ addCompletions: 1, removeCompletionsAt: [7] });
    const step = harness.callServer('startCompletionsImport', {});
    expect(step.summary).toMatch(/^Imported /);
    expectSignedOffKept(before);
  });
});

test("a record added on top leaves every other row where it was: a formula pointing at a record's cell still shows that record", async () => {
  const harness = await createAddonHarness({ dataset: { seed: 32, completions: 12, users: 6 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  const user = userActions(harness);
  user.type(TAB, 1, SIGNED_OFF, [['Signed off'], ['Yes'], ['No'], ['Yes'], ['No'], ['Yes']]);
  const sheet = tab(harness, TAB);
  const keyAt = (row: number) => sheet.displayValues(`${KEY}${row}`)[0]![0]!;
  const watched = keyAt(6);
  // A reference to one record's key cell, typed in a column of the user's.
  user.typeFormula(TAB, 1, 13, `=${KEY}6`);
  const signedOff = sheet.displayValues('K6')[0]![0];

  await harness.dataset.mutate({ addCompletions: 1 });
  harness.clickMenu('Reconcile completed trainings');
  expect(lastOutcome(harness)).toBe('Success');
  // The reference followed the row (as Sheets moves references when rows are inserted above them),
  // and the row still holds the record and its own cells.
  expect(sheet.formulas('M1')[0]![0]).toBe(`=${KEY}7`);
  expect(sheet.displayValues('K7')[0]![0]).toBe(signedOff);
  expect(keyAt(7)).toBe(watched);
  await harness.done();
});

test('an old text under "Last inspected", which now rejects anything but a date, survives every equipment import', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 33, completions: 5, users: 4, equipmentTypes: 3 },
  });
  harness.connect();
  harness.clickMenu(IMPORT);
  const schedules = tab(harness, SCHEDULES_TAB);
  const [, , scheduleId] = rows(schedules, 'A', 'C')[0]!;
  keepTextFromBeforeValidation(harness, { [scheduleId!]: 'last spring' });
  const cell = `${LAST_INSPECTED}2`;
  schedules.setDataValidation(cell, { requireDate: true, allowInvalid: false });

  for (const run of [IMPORT, 'Refresh all', IMPORT]) {
    harness.clickMenu(run);
    expect(lastOutcome(harness)).toBe('Success');
    expect(schedules.displayValues(cell)[0]![0]).toBe('last spring');
    const rule = schedules.dataValidations(cell)[0]![0];
    expect(rule).toMatchObject({ criteria: 'DATE_IS_VALID_DATE', allowInvalid: false });
  }
  await harness.done();
});
