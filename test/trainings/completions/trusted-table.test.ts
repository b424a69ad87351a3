/**
 * The Completed trainings tab is the named range SafetySync_Completions, and its imported columns
 * carry warning-only protection, both covering the table after every import and refresh: a full
 * import reads them with the tab and sets them with its other writes (no request or commit of their
 * own), with or without the Sheets API, and so does a refresh that cannot widen them; a refresh's rows, inserted inside the table, widen them as Sheets
 * widens any range rows are inserted into.
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { ourProtections } from '../../support/table-guards';

const TAB = 'Completed trainings';

function guards(harness: AddonHarness) {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const sheet = workbook.sheet(TAB);
  return {
    rows: sheet.lastRow,
    namedRange: workbook.namedRanges().find((named) => named.name === 'SafetySync_Completions'),
    protections: ourProtections(sheet).map((protection) => [protection.range, protection.warningOnly]),
  };
}

async function recordCount(harness: AddonHarness): Promise<number> {
  return (await harness.dataset.data()).completions.length;
}

/** The named range and the one protection cover the ten columns of titles and every record. */
async function expectWholeTableGuarded(harness: AddonHarness): Promise<void> {
  const height = (await recordCount(harness)) + 1;
  expect(guards(harness)).toEqual({
    rows: height,
    namedRange: { name: 'SafetySync_Completions', sheet: TAB, range: `A1:J${height}` },
    protections: [[`A1:J${height}`, true]],
  });
}

describe.each([
  ['through the Sheets API', false],
  ['through the Spreadsheet service, without the API', true],
])('%s', (_way, withoutSheetsAdvancedService) => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { seed: 61, completions: 40, users: 8 },
      withoutSheetsAdvancedService,
    });
    harness.connect();
    harness.emulator.counter.reset();
    harness.clickMenu('Reconcile completed trainings');
  });
  afterAll(() => harness.done());

  test('a full import names the table and protects its columns, warning only', async () => {
    await expectWholeTableGuarded(harness);
    // Read with the tab before any write, set with its other writes: no request of their own. Once
    // for each guarded tab the import writes: Completed trainings, and People with the training tabs.
    const calls = harness.emulator.counter.snapshot();
    expect(calls['Spreadsheet.getNamedRanges']).toBe(2);
  });

  test('a refresh that adds records on top widens both, without looking them up', async () => {
    await harness.dataset.mutate({ addCompletions: 6 });
    harness.emulator.counter.reset();
    harness.clickMenu('Refresh all');
    await expectWholeTableGuarded(harness);
    // Those of Completed trainings are not looked up; People's are, as its table is guarded again.
    const calls = harness.emulator.counter.snapshot();
    expect([calls['Spreadsheet.getNamedRanges'], calls['Sheet.getProtections']]).toEqual([1, 1]);
  });

  test('a full import after records were removed and a column inserted among the table covers exactly the table', async () => {
    harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB).insertColumnsBefore(4);
    harness.emulator.workbooks.get(harness.spreadsheetId)!.typeValues(`'${TAB}'!D1`, [['Badge']]);
    await harness.dataset.mutate({ removeCompletions: 9 });
    harness.clickMenu('Reconcile completed trainings');
    const height = (await recordCount(harness)) + 1;
    expect(guards(harness)).toEqual({
      rows: height,
      namedRange: { name: 'SafetySync_Completions', sheet: TAB, range: `A1:K${height}` },
      protections: [
        [`A1:C${height}`, true],
        [`E1:K${height}`, true],
      ],
    });
  });
});

test('a refresh that cannot widen them by inserting rows inside the table sets them again, with its other writes', async () => {
  // A single record: the new ones cannot go below a first record that stays on top of others.
  const harness = await createAddonHarness({ dataset: { seed: 62, completions: 1, users: 2 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  await harness.dataset.mutate({ addCompletions: 4 });
  harness.emulator.counter.reset();
  harness.clickMenu('Refresh all');
  await expectWholeTableGuarded(harness);
  expect(await recordCount(harness)).toBe(5);
  // Read with the tab and set with the rows, through the Spreadsheet service: no Sheets API request.
  // Once for Completed trainings, once for People.
  const calls = harness.emulator.counter.snapshot();
  expect(calls['Spreadsheet.getNamedRanges']).toBe(2);
  expect(calls['Sheets.Spreadsheets.batchUpdate']).toBeUndefined();
  await harness.done();
});
