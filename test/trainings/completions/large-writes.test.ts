/**
 * Large imports written through the Sheets API (RAW), and the Spreadsheet service when it cannot be
 * used: the API disabled in the Cloud project, or its quota used up. Whichever way a table goes, the
 * "Completed trainings" tab shows exactly the service's records, text as text and dates as dates, and
 * the manager's own columns beside them keep what they hold. dist/Code.js in the emulator, the sample
 * service over loopback.
 */
import { WRITE_REQUESTS_PER_MINUTE_PER_USER } from '../../../dev/emulator/spreadsheet';
import { expectedCompletionRows } from '../../support/completion-rows';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../../support/addon-harness';

const TAB = 'Completed trainings';
const RECORDS = 2_000;

/** Ids as a service may send them, each of which setValues would re-type without care. */
const AWKWARD_IDS = [
  { user_id: "'0042", training_id: '=1+1', instructor_id: ' 007 ', groupTraining_id: 'TRUE' },
  { user_id: '00123', training_id: '1/2/2024', instructor_id: '+44 20', groupTraining_id: '#N/A' },
  { user_id: '=A1', training_id: "'", instructor_id: '3.50', groupTraining_id: ' ' },
];

async function awkwardHarness(options: Omit<HarnessOptions, 'dataset'> = {}): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed: 44, completions: RECORDS, users: 40 },
    ...options,
  });
  await harness.dataset.mutate({
    insertCompletionsAt: AWKWARD_IDS.map((fields, index) => ({ position: 1 + index * 700, fields })),
  });
  harness.connect();
  return harness;
}

/** The tab, table columns only, below its titles. */
function shownRecords(harness: AddonHarness): string[][] {
  return harness
    .displayed(TAB)
    .slice(1)
    .map((row) => row.slice(0, 10));
}

/** What the table's cells hold, not only what they show: text stays text, dates are dates. */
function expectTyped(harness: AddonHarness): void {
  const sheet = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
  const values = sheet.values();
  const textColumns = [0, 2, 5, 7, 9];
  expect(values.slice(1).every((row) => textColumns.every((column) => typeof row[column] === 'string'))).toBe(
    true,
  );
  expect(values.slice(1).every((row) => row[3] instanceof Date && row[8] instanceof Date)).toBe(true);
  expect(sheet.formulas().every((row) => row.every((formula) => formula === ''))).toBe(true);
  const awkward = values.filter((row) => AWKWARD_IDS.some((ids) => ids.user_id === row[0]));
  expect(awkward.map((row) => [row[0], row[2], row[5], row[7]])).toEqual(
    AWKWARD_IDS.map((ids) => [ids.user_id, ids.training_id, ids.instructor_id, ids.groupTraining_id]),
  );
}

function sheetsApiRequests(harness: AddonHarness): number {
  return harness.emulator.counter.snapshot()['Sheets.Spreadsheets.Values.batchUpdate'] ?? 0;
}

/** The Sheets API requests that wrote the table's values: a full import's insertion of its tabs takes one more. */
function valueRequestsPriced(harness: AddonHarness): number {
  const tabRequests = harness.emulator.counter.snapshot()['Sheets.Spreadsheets.batchUpdate'] ?? 0;
  return harness.emulator.costs.quantities().sheetsApiRequests - tabRequests;
}

describe('a 2,000-record import through the Sheets API', () => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await awkwardHarness();
    harness.emulator.costs.reset();
    harness.emulator.counter.reset();
    harness.clickMenu('Reconcile completed trainings');
  });
  afterAll(() => harness.done());

  test('shows exactly the service records: ids keep leading zeros, "=", "\'" and spaces; dates are dates', async () => {
    expect(shownRecords(harness)).toEqual(
      expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
    );
    expectTyped(harness);
  });

  test('writes the table in one request, not cell by cell through the Spreadsheet service', () => {
    expect(sheetsApiRequests(harness)).toBe(1);
    const { sheetsApiCells, cellsWritten } = harness.emulator.costs.quantities();
    expect(sheetsApiCells).toBe((RECORDS + AWKWARD_IDS.length + 1) * 10);
    // What the Spreadsheet service wrote cell by cell is the Sync log's row, the training tabs and
    // the like, not the table's ten columns. Compliance history holds a row per month and training
    // (rewritten by each run through the service): its cells are counted out.
    const history = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet('Compliance history');
    const historyCells = history.lastRow * history.lastColumn;
    expect(historyCells).toBeGreaterThan(0);
    expect(cellsWritten - historyCells).toBeLessThan(RECORDS * 10);
  });

  test('a refresh of 1,000 new records puts them on top through the API; the record they move keeps its dates', async () => {
    await harness.dataset.mutate({ addCompletions: 1_000 });
    harness.clickMenu('Refresh all');
    // Written by the API, not refused by it and written again through setValues.
    expect(sheetsApiRequests(harness)).toBe(2);
    expect(valueRequestsPriced(harness)).toBe(2);
    expect(shownRecords(harness)).toEqual(
      expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
    );
    expectTyped(harness);
  });

  test("a column the manager inserts among the table's keeps its cells beside their records", async () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    workbook.sheet(TAB).insertColumnsBefore(4, 1);
    workbook.typeValues(`'${TAB}'!D1:D4`, [['Badge'], ["'00123"], ["'=not a formula"], ['2024-01-02']]);
    const before = harness.displayed(TAB);
    const besideKey = (rows: string[][]) => new Map(rows.slice(1).map((row) => [row[10], row[3]]));
    await harness.dataset.mutate({ addCompletions: 5 });
    harness.clickMenu('Reconcile completed trainings');

    const after = harness.displayed(TAB);
    expect(after[0]![3]).toBe('Badge');
    const shownAfter = besideKey(after);
    for (const [key, badge] of besideKey(before)) expect(shownAfter.get(key)).toBe(badge);
    const tableColumns = after.slice(1).map((row) => [...row.slice(0, 3), ...row.slice(4, 11)]);
    expect(tableColumns).toEqual(expectedCompletionRows(await harness.dataset.data(), 'Europe/London'));
    expect(valueRequestsPriced(harness)).toBe(3);
  });
});

test.each([
  ['disabled in the Cloud project', { emulator: { sheetsApiInCloudProject: 'disabled' } }],
  ['not in the manifest', { withoutSheetsAdvancedService: true }],
] as const)('with the Sheets API %s, the import is the same through setValues', async (_, options) => {
  const harness = await awkwardHarness(options);
  harness.emulator.costs.reset();
  harness.clickMenu('Reconcile completed trainings');
  expect(shownRecords(harness)).toEqual(
    expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
  );
  expectTyped(harness);
  expect(harness.emulator.costs.quantities().sheetsApiCells).toBe(0);
  expect(harness.displayed('Sync log')[1]![7]).toBe('Success');
  // The Sync log says why the run was slower, once.
  expect(harness.displayed('Sync log')[1]![10]).toMatch(
    /A large table was written through the Spreadsheet service, slower, because/,
  );
  await harness.done();
});

test('with the quota used up before a run, the run falls back and the tab is still exact and complete', async () => {
  const harness = await awkwardHarness();
  harness.clickMenu('Reconcile completed trainings');
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  workbook.typeValues(`'${TAB}'!K1:K2`, [['Signed off by'], ['Ada']]);
  const signed = harness.displayed(TAB)[1]![9];

  // Enough new records on top for the API: other scripts of the manager's have used the quota.
  await harness.dataset.mutate({ addCompletions: 1_000 });
  harness.emulator.sheetsApiQuotas.spend('owner@example.com', WRITE_REQUESTS_PER_MINUTE_PER_USER);
  harness.emulator.costs.reset();
  harness.emulator.counter.reset();
  harness.clickMenu('Refresh all');

  // The API was asked, answered 429, and nothing of the table went through it.
  expect(sheetsApiRequests(harness)).toBe(1);
  expect(harness.emulator.costs.quantities().sheetsApiCells).toBe(0);
  expect(shownRecords(harness)).toEqual(
    expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
  );
  expectTyped(harness);
  const after = harness.displayed(TAB);
  expect(after.find((row) => row[9] === signed)![10]).toBe('Ada');
  expect(after.filter((row) => row[10] !== '')).toHaveLength(2);
  const refresh = harness
    .displayed('Sync log')
    .find((line) => line[2]!.startsWith('Refresh completed trainings'))!;
  expect(refresh[10]).toContain('the Sheets API answered');
  await harness.done();
});

test('a quota answer between two requests of one table: what the first wrote is written again, exactly', async () => {
  // 20,000 records are more than one request of 2 MB: the quota leaves room for the first only.
  const harness = await createAddonHarness({ dataset: { seed: 45, completions: 20_000, users: 40 } });
  harness.connect();
  // Room for one write request, the first of the table (a new tab is inserted through the
  // Spreadsheet service, not the API).
  harness.emulator.sheetsApiQuotas.spend('owner@example.com', WRITE_REQUESTS_PER_MINUTE_PER_USER - 1);
  harness.emulator.costs.reset();
  harness.emulator.counter.reset();
  harness.clickMenu('Reconcile completed trainings');

  expect(sheetsApiRequests(harness)).toBe(2);
  expect(valueRequestsPriced(harness)).toBe(1);
  expect(shownRecords(harness)).toEqual(
    expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
  );
  expect(harness.displayed('Sync log')[1]![7]).toBe('Success');
  await harness.done();
});

test('a full import whose new records need more rows makes room where they arrive, then writes them through the API', async () => {
  const harness = await awkwardHarness();
  harness.clickMenu('Reconcile completed trainings');
  const rowsBefore = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB).maxRows;
  await harness.dataset.mutate({ addCompletions: 1_500 });
  harness.emulator.counter.reset();
  harness.clickMenu('Reconcile completed trainings');

  // One insertion for the 1,500 records on top (the user's cells below move down with their rows),
  // committed before the API writes into those rows, and once more at the end.
  const calls = harness.emulator.counter.snapshot();
  expect(calls['Sheet.insertRowsAfter']).toBe(1);
  expect(calls['Sheets.Spreadsheets.batchUpdate']).toBe(1);
  expect(harness.emulator.counter.commits()).toBe(2);
  const records = await harness.dataset.data();
  expect(records.completions.length + 1).toBeGreaterThan(rowsBefore);
  expect(shownRecords(harness)).toEqual(expectedCompletionRows(records, 'Europe/London'));
  expectTyped(harness);
  await harness.done();
});
