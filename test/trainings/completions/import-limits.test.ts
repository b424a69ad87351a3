/**
 * The completions import at the edges: larger than one execution, not configured, run twice at
 * once, records of the wrong shape, and more rows than a spreadsheet can hold.
 */
import type { Completion } from '../../../src/api/schemas';
import { completionKey } from '../../../src/api/completion-key';
import { createAddonHarness } from '../../support/addon-harness';

const TAB = 'Completed trainings';

test('an import larger than one execution continues across executions; the tab changes only at the end', async () => {
  // Each round trip to the service takes 20 s of emulated time: 25 pages read one at a time, plus
  // the user names, need several 6-minute executions.
  const harness = await createAddonHarness({
    dataset: { seed: 51, completions: 25_000, users: 30 },
    emulator: { urlFetchRoundTripMs: 20_000 },
  });
  harness.connect();
  harness.useBatchSize(1);

  const steps = [harness.callServer('startCompletionsImport', {})];
  while (!steps[steps.length - 1]!.done) {
    expect(harness.emulator.workbooks.get(harness.spreadsheetId)!.sheetNames).not.toContain(TAB);
    steps.push(harness.callServer('continueCompletionsImport'));
    // Every page read and then confirmed (25 rounds each), and 30 names: about eight runs.
    expect(steps.length).toBeLessThan(16);
  }
  expect(steps.length).toBeGreaterThan(2);
  expect(steps[0]!.summary).toMatch(
    /^Read [\d,]+ records \(page \d+ of 25\) before the time limit of one run/,
  );

  const shown = harness.displayed(TAB).slice(1);
  const expected = ((await harness.dataset.data()).completions as unknown as Completion[]).map(completionKey);
  expect(shown.map((row) => row[9])).toEqual(expected);
  const names = new Map((await harness.dataset.data()).users.map((user) => [user.id, user.name]));
  expect(shown.every((row) => row[1] === (names.get(row[0]!) ?? ''))).toBe(true);
  // The staging tab is left empty and hidden.
  const staging = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet('Safety Sync staging');
  expect(staging.hidden).toBe(true);
  expect(staging.lastRow).toBe(0);
  const outcomes = harness
    .displayed('Sync log')
    .slice(1)
    .map((row) => row[7]);
  expect(outcomes[0]).toBe('Success');
  expect(outcomes.slice(1).every((outcome) => outcome === 'Continuing')).toBe(true);
  await harness.done();
});

test('records skipped by any execution of a long import are counted and listed when it ends', async () => {
  // 40 s of emulated time per round trip, one page at a time: page 7 (holding the record of the
  // wrong shape) is read by the first execution, the user names by later ones.
  const harness = await createAddonHarness({
    dataset: { seed: 56, completions: 12_000, users: 30, anomalies: true },
    emulator: { urlFetchRoundTripMs: 40_000 },
  });
  harness.connect();
  harness.useBatchSize(1);

  const steps = [harness.callServer('startCompletionsImport', {})];
  while (!steps[steps.length - 1]!.done) {
    expect(steps.length).toBeLessThan(16);
    steps.push(harness.callServer('continueCompletionsImport'));
  }

  expect(steps[0]!.summary).toMatch(/^Read [\d,]+ records \(page 7 of 12\)/);
  expect(steps.length).toBeGreaterThan(2);
  expect(harness.displayed(TAB)).toHaveLength(12_000);
  const [, last] = harness.displayed('Sync log');
  expect(last![7]).toBe('Success');
  expect(last![10]).toMatch(
    /^1 record skipped because it does not have the documented shape: completedtrainings\.list page 7, record \d+ \(dateNumber/,
  );
  await harness.done();
});

test('not configured: the menu says what is missing, opens Settings and fetches nothing', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 52, completions: 10 } });
  harness.clickMenu('Import completed trainings…');
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  expect(ui.alerts[0]!.message).toBe(
    'Safety Sync needs the service base URL and your API token. Open Safety Sync → Settings… to add it.',
  );
  expect(ui.dialogs.map((dialog) => dialog.title)).toEqual(['Safety Sync settings']);
  expect(harness.emulator.urlFetch.requests).toHaveLength(0);
  await harness.done();
});

test('two runs at once never interleave: the second says an import is already running', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 53, completions: 2_000 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  const before = harness.displayed(TAB);
  harness.emulator.urlFetch.requests.length = 0;
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  // The same import started again (another tab) while the first waits for the service's first
  // answers (pages 1 and 2 at once: the import before found two).
  let secondSaw = '';
  harness.emulator.beforeNextCall('UrlFetchApp.fetchAll', () => {
    harness.clickMenu('Reconcile completed trainings');
    secondSaw = ui.alerts[ui.alerts.length - 1]!.message;
  });
  harness.clickMenu('Reconcile completed trainings');
  expect(secondSaw).toMatch(/^An import is already running in this spreadsheet/);
  // Every request came from the first run's execution.
  expect(new Set(harness.emulator.urlFetch.requests.map((request) => request.executionId)).size).toBe(1);
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported 2,000 completed trainings/);
  expect(harness.displayed(TAB)).toEqual(before);
  await harness.done();
});

test('records of the wrong shape are skipped, counted and listed in the Sync log', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 54, completions: 800, anomalies: true } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  const served = (await harness.dataset.data()).completions;
  const wellFormed = served.filter((record) => typeof record.dateNumber === 'number');
  expect(wellFormed.length).toBeLessThan(served.length);
  expect(harness.displayed(TAB)).toHaveLength(wellFormed.length + 1);
  const details = harness.displayed('Sync log')[1]![10]!;
  expect(served.length - wellFormed.length).toBe(1);
  expect(details).toMatch(/^1 record skipped because it does not have the documented shape/);
  expect(details).toMatch(/completedtrainings\.list page 1, record \d+ \(dateNumber/);
  await harness.done();
});

test('an import that would cross the 10 million cell limit is refused before anything is written', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 55, completions: 3_000 } });
  harness.connect();
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  // Someone's huge tab leaves room for fewer than 3,000 rows of ten columns (beside the two passes
  // of 3,000 records a long import would stage, one cell a record).
  workbook.addSheet('Archive', { rows: 498_000, columns: 20 });
  harness.emulator.urlFetch.requests.length = 0;
  harness.clickMenu('Reconcile completed trainings');
  const alert = workbook.ui.alerts[workbook.ui.alerts.length - 1]!;
  expect(alert.message).toMatch(
    /^"Completed trainings" would need 3,000 rows, but this spreadsheet has room for about 799 \(Google Sheets allows 10 million cells per spreadsheet\)\. Narrow the import with a user or training filter/,
  );
  expect(workbook.sheetNames).not.toContain(TAB);
  // Refused after page 1 told how many pages there are: the other two were never read.
  expect(harness.emulator.urlFetch.requests).toHaveLength(1);
  await harness.done();
});

test('a long import shows its progress page by page, at most one toast every few seconds', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 56, completions: 6_000, users: 10 },
    // Each round trip takes 5 s of emulated time: a slow network, where progress matters.
    emulator: { urlFetchRoundTripMs: 5_000 },
  });
  harness.connect();
  harness.useBatchSize(1);
  harness.clickMenu('Reconcile completed trainings');
  const toasts = harness.emulator.workbooks
    .get(harness.spreadsheetId)!
    .ui.toasts.map((toast) => toast.message);
  // Page 1 comes at 5 s, then one page every 5 s, and all of them again to confirm them (pages 1
  // and 2 in the first round, as the last page is known by then); a toast goes out once 8 s have
  // passed since the last.
  expect(toasts).toEqual([
    'Reading completed trainings: page 2 of 6',
    'Reading completed trainings: page 4 of 6',
    'Reading completed trainings: page 6 of 6',
    'Checking completed trainings against the service: page 3 of 6',
    'Checking completed trainings against the service: page 5 of 6',
  ]);
  await harness.done();
});

test('the cell-limit check counts the staging a long import needs, and refuses before staging anything', async () => {
  // 3,000 records over a slow network: they would be staged between executions.
  const harness = await createAddonHarness({
    dataset: { seed: 57, completions: 3_000, users: 30 },
    emulator: { urlFetchRoundTripMs: 100_000 },
  });
  harness.connect();
  harness.useBatchSize(1);
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  // Room for the tab's 3,001 rows of ten columns, not for 3,000 staged records besides.
  workbook.addSheet('Archive', { rows: 497_150, columns: 20 });
  harness.emulator.urlFetch.requests.length = 0;

  expect(() => harness.callServer('startCompletionsImport', {})).toThrow(
    /^"Completed trainings" would need 3,000 rows, but this spreadsheet has room for about [\d,]+ \(Google Sheets allows 10 million cells per spreadsheet\)\./,
  );
  expect(harness.emulator.urlFetch.requests).toHaveLength(1);
  expect(workbook.sheetNames).not.toContain(TAB);
  expect(workbook.sheetNames).not.toContain('Safety Sync staging');
  await harness.done();
});

test('a record whose optional special expiration date is not a date comes in with that cell empty, and is reported', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 58, completions: 1_200 } });
  harness.connect();
  await harness.dataset.setQuirks({
    completionFields: [
      { position: 4, fields: { specialExpirationDateNumber: 20241341 } },
      { position: 1_100, fields: { specialExpirationDateNumber: 20240230 } },
    ],
  });

  harness.clickMenu('Reconcile completed trainings');

  const shown = harness.displayed(TAB).slice(1);
  expect(shown).toHaveLength(1_200);
  expect(shown[4]![4]).toBe('');
  expect(shown[1_100]![4]).toBe('');
  const served = (await harness.dataset.data()).completions;
  const edited = (position: number, value: number) =>
    completionKey({ ...served[position], specialExpirationDateNumber: value } as unknown as Completion);
  expect(shown[4]![9]).toBe(edited(4, 20241341));
  expect(shown[1_100]![9]).toBe(edited(1_100, 20240230));
  const [line] = harness.displayed('Sync log').slice(1);
  expect(line![7]).toBe('Success');
  expect(line![10]).toMatch(
    // The workbook's first run, which also backfills Compliance history and says so after.
    /^2 records imported with an empty special expiration date, because the service sent values that are not dates \(YYYYMMDD\): user [^,]+, training [^,]+, completed \d{8} \(specialExpirationDateNumber 20241341\); user .* \(specialExpirationDateNumber 20240230\)\. Compliance history: backfilled 24 months, \d{4}-\d{2} to \d{4}-\d{2} from the completions this workbook holds\.$/,
  );
  await harness.done();
});

test('a text longer than a cell holds is cut to fit with a visible marker and reported, by Reconcile and by Refresh all', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 8, completions: 30, users: 8 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  const long = `G-${'x'.repeat(60_000)}`;
  await harness.dataset.mutate({
    insertCompletionsAt: [{ position: 5, fields: { groupTraining_id: long } }],
  });
  harness.clickMenu('Reconcile completed trainings');
  await harness.dataset.mutate({
    insertCompletionsAt: [{ position: 0, fields: { groupTraining_id: `${long}y` } }],
  });
  harness.clickMenu('Refresh all');

  const rows = harness.displayed(TAB).slice(1);
  expect(rows).toHaveLength(32);
  const cut = rows.filter((row) => row[7]!.startsWith('G-xxx'));
  expect(cut).toHaveLength(2);
  for (const row of cut) {
    expect(row[7]!.length).toBeLessThanOrEqual(50_000);
    expect(row[7]).toMatch(/… \[cut: 60,00[23] characters; the full text is in the service\]$/);
  }
  const log = harness
    .displayed('Sync log')
    .slice(1, 4)
    .map((line) => line.join(' '));
  expect(log.filter((line) => line.includes('were cut to fit'))).toHaveLength(2);
  expect(log.every((line) => !line.includes('Failed'))).toBe(true);
  await harness.done();
});
