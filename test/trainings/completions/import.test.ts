/**
 * Safety Sync → Import completed trainings, end to end: dist/Code.js in the emulator, the sample
 * service over loopback. What a training manager sees in the "Completed trainings" tab.
 */
import type { Completion } from '../../../src/api/schemas';
import { completionKey } from '../../../src/api/completion-key';
import { readCost } from '../../../src/api/completion-rounds';
import { expectedCompletionRows } from '../../support/completion-rows';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../../support/addon-harness';
import { spreadsheetServiceCalls } from '../../../dev/emulator/spreadsheet';

const TAB = 'Completed trainings';
const HEADER = [
  'User ID',
  'User name',
  'Training ID',
  'Completion date',
  'Special expiration date',
  'Instructor ID',
  'Instructor name',
  'Group training ID',
  'Created',
  'Record key',
];

function totalOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

function completionRequests(harness: AddonHarness): number {
  return harness.emulator.urlFetch.requests.filter((request) =>
    request.url.endsWith('/v1/completedtrainings.list'),
  ).length;
}

/** Runs the import the way the dialog does: start, then continue until done. */
function importViaDialog(harness: AddonHarness, filter: Record<string, string> = {}): string[] {
  const summaries: string[] = [];
  let step = harness.callServer('startCompletionsImport', filter);
  summaries.push(step.summary);
  while (!step.done) {
    step = harness.callServer('continueCompletionsImport');
    summaries.push(step.summary);
  }
  return summaries;
}

async function importedHarness(options: HarnessOptions): Promise<AddonHarness> {
  const harness = await createAddonHarness(options);
  harness.connect();
  return harness;
}

describe('a full import', () => {
  let harness: AddonHarness;
  let callsAt25k: number;
  let summaries: string[];
  beforeAll(async () => {
    harness = await importedHarness({ dataset: { seed: 31, completions: 25_000, users: 60 } });
    harness.emulator.counter.reset();
    harness.emulator.urlFetch.requests.length = 0;
    summaries = importViaDialog(harness);
    callsAt25k = totalOf(spreadsheetServiceCalls(harness.emulator.counter.snapshot()));
  });
  afterAll(() => harness.done());

  test('gives exactly the service records, newest first, typed as the user expects', async () => {
    const shown = harness.displayed(TAB);
    expect(shown[0]).toEqual(HEADER);
    expect(shown.slice(1)).toEqual(expectedCompletionRows(await harness.dataset.data(), 'Europe/London'));
  });

  test('costs 25 pages read and confirmed: 51 completion requests (page 1, then all 25 twice)', () => {
    expect(completionRequests(harness)).toBe(readCost(25, 100).requests);
    expect(readCost(25, 100).requests).toBe(51);
  });

  test('ends with a summary: records, how many are new, requests and time', () => {
    const requests = harness.emulator.urlFetch.requests.length;
    expect(summaries).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Imported 25,000 completed trainings \\(25000 new, 0 removed\\); \\d+ user names looked up\\. \\(${requests} requests, \\d+ s\\)$`,
        ),
      ),
    ]);
  });

  test('ids and names stay literal text; dates are date cells', () => {
    const sheet = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
    const formats = sheet.numberFormats()[1]!;
    expect(formats).toEqual([
      '@',
      '@',
      '@',
      'yyyy-mm-dd',
      'yyyy-mm-dd',
      '@',
      '@',
      '@',
      'yyyy-mm-dd hh:mm:ss',
      '@',
    ]);
    expect(
      sheet
        .formulas()
        .flat()
        .every((formula) => formula === ''),
    ).toBe(true);
    const values = sheet.values();
    expect(values[1]![3]).toBeInstanceOf(Date);
    expect(sheet.frozenRows).toBe(1);
    expect(sheet.fontWeights()[0]!.every((weight) => weight === 'bold')).toBe(true);
    expect(sheet.filter).toBe(`A1:J${values.length}`);
  });

  test('the Spreadsheet service calls do not grow with the record count', async () => {
    const small = await importedHarness({ dataset: { seed: 31, completions: 1_000, users: 60 } });
    small.emulator.counter.reset();
    importViaDialog(small);
    expect(totalOf(spreadsheetServiceCalls(small.emulator.counter.snapshot()))).toBe(callsAt25k);
    await small.done();
  });

  test('the Sync log records the run', () => {
    const log = harness.displayed('Sync log');
    expect(log[0]!.slice(0, 8)).toEqual([
      'Time',
      'User',
      'Action',
      'Added',
      'Removed',
      'Requests',
      'Duration (s)',
      'Outcome',
    ]);
    expect(log[1]!.slice(1, 5)).toEqual([
      'owner@example.com',
      'Import completed trainings: all completions (full)',
      '25000',
      '0',
    ]);
    expect(log[1]![7]).toBe('Success');
  });
});

describe('refreshes', () => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await importedHarness({ dataset: { seed: 32, completions: 5_000, users: 40 } });
    importViaDialog(harness);
  });
  afterAll(() => harness.done());

  test('20 new completions cost one completion request, land on top, and keep user-added columns', async () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    const before = harness.displayed(TAB);
    // The manager adds a "Signed off by" column and fills it for two records.
    workbook.typeValues(`'${TAB}'!K1:K3`, [['Signed off by'], ['Ada'], ['Grace']]);
    const keyOfRow = (rows: string[][], row: number) => rows[row]![9];
    const signed = [keyOfRow(before, 1), keyOfRow(before, 2)];

    const { added } = await harness.dataset.mutate({ addCompletions: 20 });
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu('Refresh all');

    expect(completionRequests(harness)).toBe(1);
    const after = harness.displayed(TAB);
    expect(after).toHaveLength(before.length + 20);
    const expected = expectedCompletionRows(await harness.dataset.data(), 'Europe/London');
    expect(after.slice(1).map((row) => row.slice(0, 10))).toEqual(expected);
    expect(new Set(after.slice(1, 21).map((row) => row[9]))).toEqual(
      new Set((added as unknown as Completion[]).map(completionKey)),
    );
    expect(after[0]![10]).toBe('Signed off by');
    const signedBy = new Map(after.map((row) => [row[9], row[10]]));
    expect(signedBy.get(signed[0])).toBe('Ada');
    expect(signedBy.get(signed[1])).toBe('Grace');
  });

  test('completions entered late land in date order among the rows, and user-added cells stay with theirs', async () => {
    const before = harness.displayed(TAB);
    const signedBy = (rows: string[][]) => new Map(rows.map((row) => [row[9], row[10]]));
    await harness.dataset.mutate({ addBackdatedCompletions: { count: 5, daysBeforeNewest: 3 } });
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu('Refresh all');
    expect(completionRequests(harness)).toBe(1);
    const after = harness.displayed(TAB);
    expect(after.slice(1).map((row) => row.slice(0, 10))).toEqual(
      expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
    );
    for (const [key, note] of signedBy(before)) if (note) expect(signedBy(after).get(key)).toBe(note);
  });

  test('a refresh with nothing new changes nothing and costs one request', () => {
    const before = harness.displayed(TAB);
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu('Refresh all');
    expect(completionRequests(harness)).toBe(1);
    expect(harness.displayed(TAB)).toEqual(before);
  });

  test('a full reconciliation drops rows gone upstream, with their notes, and the Sync log counts them', async () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    const { removed } = await harness.dataset.mutate({ removeCompletions: 3 });
    const goneKeys = new Set((removed as unknown as Completion[]).map(completionKey));
    const rows = harness.displayed(TAB);
    const goneRow = rows.findIndex((row) => goneKeys.has(row[9]!));
    workbook.typeValues(`'${TAB}'!K${goneRow + 1}`, [['note on a record that goes']]);

    harness.clickMenu('Reconcile completed trainings');

    const after = harness.displayed(TAB);
    expect(after.slice(1).map((row) => row.slice(0, 10))).toEqual(
      expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
    );
    expect(after.flat()).not.toContain('note on a record that goes');
    expect(after.map((row) => row[10])).toContain('Ada');
    const log = harness.displayed('Sync log');
    expect(log[1]!.slice(2, 5)).toEqual(['Import completed trainings: all completions (full)', '0', '3']);
    expect(log[1]![10]).toMatch(/^1 row with your own notes removed, because its record is gone/);
  });
});

test('completions recorded while the import pages: none lost, none doubled', async () => {
  const harness = await importedHarness({ dataset: { seed: 33, completions: 8_000 } });
  await harness.dataset.setFaults({ insertDuringPaging: { afterRequests: 2, count: 9 } });
  importViaDialog(harness);
  const shown = harness.displayed(TAB).slice(1);
  const expected = expectedCompletionRows(await harness.dataset.data(), 'Europe/London');
  expect(expected).toHaveLength(8_009);
  expect(shown.map((row) => row[9]).sort()).toEqual(expected.map((row) => row[9]).sort());
  await harness.done();
});

test('the next full import asks for page 1 with the pages the last one found, and still ends exact', async () => {
  const harness = await importedHarness({ dataset: { seed: 35, completions: 3_500 } });
  importViaDialog(harness);
  const pagesAsked = () =>
    harness.emulator.urlFetch.requests
      .filter((request) => request.url.endsWith('/v1/completedtrainings.list'))
      .map((request) => (JSON.parse(request.payload!) as { page: number }).page);
  // The first import: page 1 alone tells there are 4; the confirming pass asks for all 4 at once,
  // page 1 last (records arriving on top then shift no page answered after it).
  expect(pagesAsked()).toEqual([1, 1, 2, 3, 4, 2, 3, 4, 1]);
  harness.emulator.urlFetch.requests.length = 0;
  // 1,200 more records since: a fifth page, read in a round of its own after the four expected.
  await harness.dataset.mutate({ addCompletions: 1_200 });
  harness.clickMenu('Reconcile completed trainings');
  expect(pagesAsked()).toEqual([2, 3, 4, 1, 4, 5, 2, 3, 4, 5, 1]);
  expect(harness.displayed(TAB).slice(1)).toEqual(
    expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
  );
  await harness.done();
});

test('a service that refuses part of a round midway gets fewer pages at once, and the import ends exact', async () => {
  const harness = await importedHarness({ dataset: { seed: 36, completions: 24_500 } });
  importViaDialog(harness);
  harness.emulator.urlFetch.requests.length = 0;
  // The next import asks for its 25 pages at once; the service refuses the first 10 that arrive.
  await harness.dataset.setFaults({
    queue: [{ fault: 'rate_limit_exceeded', method: 'completedtrainings.list', times: 10 }],
  });
  harness.clickMenu('Reconcile completed trainings');
  expect(harness.displayed(TAB).slice(1)).toEqual(
    expectedCompletionRows(await harness.dataset.data(), 'Europe/London'),
  );
  // One fetchAll's requests come back together: count them by when their answers did (the same
  // moment for all of them, where the moments they were sent may differ by a tick).
  const sizeAt = new Map<number, number>();
  for (const { answeredAtRealMs } of harness.emulator.urlFetch.requests)
    sizeAt.set(answeredAtRealMs!, (sizeAt.get(answeredAtRealMs!) ?? 0) + 1);
  const fetchAllSizes = [...sizeAt.values()];
  // 25 at once (10 refused); the 10 again, then the check in fetchAlls of at most 12.
  expect(fetchAllSizes[0]).toBe(25);
  expect(fetchAllSizes.slice(1).every((size) => size <= 12)).toBe(true);
  expect(fetchAllSizes.reduce((sum, size) => sum + size, 0)).toBe(25 + 10 + 25);
  await harness.done();
});

describe.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])('a spreadsheet in %s', (timeZone) => {
  test('shows every completion on the service day, and created in its own zone', async () => {
    const harness = await importedHarness({ timeZone, dataset: { seed: 34, completions: 1_500 } });
    importViaDialog(harness);
    expect(harness.displayed(TAB).slice(1)).toEqual(
      expectedCompletionRows(await harness.dataset.data(), timeZone),
    );
    await harness.done();
  });
});

describe('formulas in columns the user added', () => {
  let harness: AddonHarness;
  beforeEach(async () => {
    harness = await importedHarness({ dataset: { seed: 33, completions: 3_000, users: 30 } });
    importViaDialog(harness);
  });
  afterEach(() => harness.done());

  test('follow their records when late completions reorder the rows, still pointing at their own row', async () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    const before = harness.displayed(TAB);
    // A "Due" formula filled down next to every record, and a value typed next to one.
    workbook.typeValues(`'${TAB}'!K1:L${before.length}`, [
      ['Due', 'Checked by'],
      ...before.slice(1).map((_, index) => [`=D${index + 2}+365`, index === 100 ? 'Ada' : '']),
    ]);
    const heldKeys = new Set(before.map((row) => row[9]));
    const checkedKey = before[101]![9];

    await harness.dataset.mutate({ addBackdatedCompletions: { count: 5, daysBeforeNewest: 3 } });
    harness.emulator.counter.reset();
    harness.clickMenu('Refresh all');

    const after = harness.displayed(TAB);
    expect(after).toHaveLength(before.length + 5);
    const formulas = workbook.sheet(TAB).formulas();
    expect(after[0]!.slice(10, 12)).toEqual(['Due', 'Checked by']);
    after.slice(1).forEach((row, index) => {
      const isNew = !heldKeys.has(row[9]);
      expect(formulas[index + 1]![10]).toBe(isNew ? '' : `=D${index + 2}+365`);
      expect(row[11]).toBe(row[9] === checkedKey ? 'Ada' : '');
    });
    // The formulas move with their rows, as when a user inserts rows: none is written again.
    const calls = harness.emulator.counter.snapshot();
    expect(calls['Range.setFormulasR1C1']).toBeUndefined();
    expect(calls['RangeList.setFormulaR1C1']).toBeUndefined();
  });

  test('a formula among typed values follows its record, moved with its row rather than written again', async () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    const keyOnRow = (row: number) => harness.displayed(TAB)[row - 1]![9];
    // Notes, two of them formulas alike (the same relative formula), one different.
    workbook.typeValues(`'${TAB}'!K1:K5`, [['Notes'], ['checked'], ['=D3+30'], ['=D4+30'], ['=$D$2']]);
    const noted = [2, 3, 4, 5].map(keyOnRow);
    // Newer completions arrive on top and push every record down.
    await harness.dataset.mutate({ addCompletions: 5 });
    harness.emulator.counter.reset();

    harness.clickMenu('Reconcile completed trainings');

    const after = harness.displayed(TAB);
    const formulas = workbook.sheet(TAB).formulas();
    const rowOf = (key: string | undefined) => after.findIndex((row) => row[9] === key) + 1;
    expect(after[rowOf(noted[0]) - 1]![10]).toBe('checked');
    expect(formulas[rowOf(noted[1]) - 1]![10]).toBe(`=D${rowOf(noted[1])}+30`);
    expect(formulas[rowOf(noted[2]) - 1]![10]).toBe(`=D${rowOf(noted[2])}+30`);
    expect(rowOf(noted[1])).toBe(8);
    expect(formulas[rowOf(noted[3]) - 1]![10]).toBe('=$D$2');
    expect(harness.emulator.counter.snapshot()['RangeList.setFormulaR1C1']).toBeUndefined();
  });

  test('an array formula heading a column is kept, and the cells it fills are left for it', () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    workbook.typeValues(`'${TAB}'!K1:L2`, [
      ['={"Due"; ARRAYFORMULA(D2:D+365)}', 'Checked by'],
      ['', 'Grace'],
    ]);
    const graceKey = harness.displayed(TAB)[1]![9];

    harness.clickMenu('Reconcile completed trainings');

    const formulas = workbook.sheet(TAB).formulas();
    expect(formulas[0]![10]).toBe('={"Due"; ARRAYFORMULA(D2:D+365)}');
    const after = harness.displayed(TAB);
    expect(after.slice(1).every((row) => row[10] === '')).toBe(true);
    expect(after.find((row) => row[9] === graceKey)![11]).toBe('Grace');
  });
});
