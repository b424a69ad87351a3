/**
 * An import larger than one execution keeps what it read in the hidden staging tab. What comes back
 * from it is exactly what the service sent, and a staging tab someone cleared, edited or left for
 * days is never taken for the records read: the import starts again from page 1 and says so.
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { rowKeysOf, stagedCellOf } from '../../support/record-key-oracle';
import type { Completion } from '../../support/sample-service';
import { servedRowKeys, shownRowKeys } from '../../support/completion-rows';

const TAB = 'Completed trainings';
const STAGING = 'Safety Sync staging';

/** Values a spreadsheet would parse if they were typed or written with setValues. */
const EDGE_CASES: Record<string, unknown>[] = [
  { groupTraining_id: '' },
  { instructor_id: '' },
  { user_id: '007', training_id: ' padded ' },
  { groupTraining_id: '=1+1', instructor_id: "'quoted" },
  { training_id: 'two\nlines', groupTraining_id: '2024-03-01' },
  { user_id: '+44 20', instructor_id: 'TRUE' },
];

/**
 * 6,000 records over a slow network (60 s of emulated time a round trip, one page a round): the
 * first execution stages five pages and pauses.
 */
async function slowHarness(seed: number): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed, completions: 6_000, users: 20 },
    emulator: { urlFetchRoundTripMs: 60_000 },
  });
  harness.connect();
  harness.useBatchSize(1);
  return harness;
}

function finishImport(harness: AddonHarness): string[] {
  const summaries: string[] = [];
  for (let step = harness.callServer('continueCompletionsImport'); ;) {
    summaries.push(step.summary);
    if (step.done) return summaries;
    expect(summaries.length).toBeLessThan(15);
    step = harness.callServer('continueCompletionsImport');
  }
}

function syncLog(harness: AddonHarness): string[][] {
  return harness.displayed('Sync log').slice(1);
}

test('values that a spreadsheet would parse come back from staging exactly, and Refresh all adds nothing', async () => {
  const harness = await slowHarness(61);
  // The edge cases sit among the newest records: staged by the first execution, and on page 1,
  // which the next Refresh all reads again.
  const edits: Record<string, unknown>[] = [];
  EDGE_CASES.forEach((fields, index) => (edits[3 + index * 2] = fields));
  await harness.dataset.setQuirks({
    completionFields: edits.flatMap((fields, position) => (fields ? [{ position, fields }] : [])),
  });

  const first = harness.callServer('startCompletionsImport', {});
  expect(first.done).toBe(false);
  finishImport(harness);

  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness, edits));
  const shown = harness.displayed(TAB);
  expect(shown[1 + 7]!.slice(0, 3)).toEqual(['007', expect.any(String), ' padded ']);
  expect(shown[1 + 9]![7]).toBe('=1+1');
  expect(shown[1 + 9]![5]).toBe("'quoted");

  harness.clickMenu('Refresh all');
  expect(harness.displayed(TAB)).toHaveLength(6_001);
  expect(syncLog(harness)[0]![10]).toMatch(/^No new completed trainings\./);
  await harness.done();
});

describe.each([
  [
    'cleared',
    (harness: AddonHarness) => {
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      const staging = workbook.sheet(STAGING);
      const lastColumn = String.fromCharCode(64 + staging.lastColumn);
      workbook.typeValues(
        `'${STAGING}'!A1:${lastColumn}${staging.lastRow}`,
        Array.from({ length: staging.lastRow }, () => Array<string>(staging.lastColumn).fill('')),
      );
    },
  ],
  [
    'edited',
    (harness: AddonHarness) => {
      harness.emulator.workbooks.get(harness.spreadsheetId)!.typeValues(`'${STAGING}'!A2`, [['U-edited']]);
    },
  ],
])('a staging tab %s between executions', (_how, tamper) => {
  test('restarts the import from page 1, says so, and ends with every record', async () => {
    const harness = await slowHarness(62);
    expect(harness.callServer('startCompletionsImport', {}).done).toBe(false);
    tamper(harness);

    const summaries = finishImport(harness);

    expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
    expect(summaries[0]).toMatch(
      /^The hidden "Safety Sync staging" tab no longer held the records the unfinished import had read \(it was deleted, cleared or edited\), so the import started again from page 1\./,
    );
    const log = syncLog(harness);
    expect(log[0]![7]).toBe('Success');
    expect(log.some((line) => /started again from page 1/.test(line[10]!))).toBe(true);
    await harness.done();
  });
});

/** A pause of the first pass names the page it reached; a pause of a later (confirming) pass does not. */
const FIRST_PASS = /^Read [\d,]+ records \(page \d+ of \d+\)/;

const RESTARTED =
  /^The hidden "Safety Sync staging" tab no longer held the records the unfinished import had read \(it was deleted, cleared or edited\), so the import started again from page 1\./;

/** The staging tab's cells, top to bottom, as a user who unhides it sees them. */
function stagedCells(harness: AddonHarness): string[] {
  return harness.emulator.workbooks
    .get(harness.spreadsheetId)!
    .sheet(STAGING)
    .displayValues()
    .map((row) => row[0]!);
}

/**
 * Starts an import over a slow network, with twins among the records, and runs it until it pauses
 * in the pass asked for: the first, or a later one checking what the first read.
 */
async function pausedIn(pass: 'first' | 'later', seed: number): Promise<AddonHarness> {
  const harness = await slowHarness(seed);
  // Twins in the pages the first execution stages and in those it leaves to the next.
  await harness.dataset.mutate({ duplicateCompletionsAt: [2, 2, 450, 5_500] });
  let step = harness.callServer('startCompletionsImport', {});
  if (pass === 'first') {
    expect(step.summary).toMatch(FIRST_PASS);
  } else {
    for (let executions = 1; FIRST_PASS.test(step.summary); executions++) {
      expect(executions).toBeLessThan(10);
      step = harness.callServer('continueCompletionsImport');
    }
  }
  expect(step.done).toBe(false);
  return harness;
}

describe.each([
  [
    'sorted (every row still a record)',
    async (harness: AddonHarness) => {
      const before = stagedCells(harness);
      harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(STAGING).sortSheet(1, true);
      const after = stagedCells(harness);
      // The same cells, in another order.
      expect(after).not.toEqual(before);
      expect([...after].sort()).toEqual([...before].sort());
    },
  ],
  [
    "with one record's cell replaced by another well-formed record",
    async (harness: AddonHarness) => {
      const served = (await harness.dataset.data()).completions;
      const other = stagedCellOf(served[served.length - 1]!);
      expect(stagedCells(harness)[1]).not.toBe(other);
      harness.emulator.workbooks.get(harness.spreadsheetId)!.typeValues(`'${STAGING}'!A2`, [[other]]);
      expect(stagedCells(harness)[1]).toBe(other);
    },
  ],
])('a staging tab %s between executions', (_how, tamper) => {
  test.each(['first', 'later'] as const)(
    'paused in the %s pass: restarts from page 1, says why, and ends with the service list exactly',
    async (pass) => {
      const harness = await pausedIn(pass, pass === 'first' ? 66 : 67);
      const staged = stagedCells(harness).length;
      await tamper(harness);
      expect(stagedCells(harness)).toHaveLength(staged);

      const summaries = finishImport(harness);

      expect(summaries[0]).toMatch(RESTARTED);
      expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
      const log = syncLog(harness);
      expect(log[0]![7]).toBe('Success');
      expect(log.some((line) => /started again from page 1/.test(line[10]!))).toBe(true);
      await harness.done();
    },
  );
});

test('a run left unfinished for a day starts again from page 1 and says so', async () => {
  const harness = await slowHarness(63);
  expect(harness.callServer('startCompletionsImport', {}).done).toBe(false);
  await harness.dataset.mutate({ removeCompletions: 40, addCompletions: 40 });
  harness.emulator.clock.advance(25 * 3_600_000);

  const summaries = finishImport(harness);

  expect(summaries[0]).toMatch(
    /^The unfinished import started 25 hours ago was begun again from page 1, so that nothing it had read is out of date\./,
  );
  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
  await harness.done();
});

test('records inserted on top while a first import pauses after its read, for its names: each ends up exactly once', async () => {
  // Three pages read and confirmed in three rounds of a minute each; the name look-ups are left to
  // the next execution, which reads page 1 again for what arrived on top meanwhile.
  const harness = await createAddonHarness({
    dataset: { seed: 64, completions: 3_000, users: 20 },
    emulator: { urlFetchRoundTripMs: 60_000 },
  });
  harness.connect();
  harness.useBatchSize(2);

  const first = harness.callServer('startCompletionsImport', {});
  expect(first.done).toBe(false);
  expect(first.summary).toMatch(
    /^Read all 3,000 records; the user names and the checks of the rows to remove continue in the next run\./,
  );
  await harness.dataset.mutate({ addCompletions: 7 });
  finishImport(harness);

  const served = await servedRowKeys(harness);
  expect(served).toHaveLength(3_007);
  expect([...shownRowKeys(harness)].sort()).toEqual([...served].sort());

  harness.clickMenu('Refresh all');
  expect(shownRowKeys(harness)).toEqual(served);
  await harness.done();
});

test('records deleted, backdated and twinned in pages already staged: the tab ends with the service list exactly', async () => {
  const harness = await slowHarness(64);
  expect(harness.callServer('startCompletionsImport', {}).done).toBe(false);
  // Between executions, in the pages the first execution staged and in those it has not read.
  await harness.dataset.mutate({
    removeCompletionsAt: [10, 1_200, 2_500, 3_999, 5_000],
    insertCompletionsAt: [
      { position: 1_500, fields: { user_id: '  u 7 ', groupTraining_id: '' } },
      { position: 2_222 },
    ],
    duplicateCompletionsAt: [700, 4_100],
  });

  finishImport(harness);

  const served: Completion[] = (await harness.dataset.data()).completions;
  expect(served).toHaveLength(6_000 - 5 + 2 + 2);
  expect(shownRowKeys(harness)).toEqual(rowKeysOf(served));
  expect(syncLog(harness)[0]![7]).toBe('Success');
  await harness.done();
});

test('records deleted, backdated and twinned while one execution pages: the tab is the service list exactly', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 65, completions: 6_000, users: 20 } });
  harness.connect();
  harness.useBatchSize(2);
  // After page 1 and the first round of pages: changes in pages already read and still to read.
  await harness.dataset.setFaults({
    mutateAfterRequests: [
      {
        afterRequests: 4,
        mutations: { removeCompletionsAt: [5, 1_500, 4_500], insertCompletionsAt: [{ position: 800 }] },
      },
      { afterRequests: 9, mutations: { duplicateCompletionsAt: [1_999], removeCompletionsAt: [3] } },
    ],
  });

  const step = harness.callServer('startCompletionsImport', {});

  expect(step.done).toBe(true);
  const served: Completion[] = (await harness.dataset.data()).completions;
  expect(shownRowKeys(harness)).toEqual(rowKeysOf(served));
  expect(syncLog(harness)[0]![7]).toBe('Success');
  await harness.done();
});

test('a record deleted and another backdated between two executions of the confirming pass, in pages it had read: those pages are read again, and the import says what it could not confirm', async () => {
  const harness = await slowHarness(68);
  // On until the confirming pass has read page 3 or further, and goes on in the next execution.
  let step = harness.callServer('startCompletionsImport', {});
  const confirmingFrom = () =>
    /, pass 2 of at most 3\)/.test(step.summary) && !/\(page [12] of/.test(step.summary);
  for (let executions = 1; !confirmingFrom(); executions++) {
    expect(step.done).toBe(false);
    expect(executions).toBeLessThan(10);
    step = harness.callServer('continueCompletionsImport');
  }
  // Pages 1 and 2 change, and the pages after them stay where they were: what the pass reads on
  // agrees with the first pass.
  await harness.dataset.mutate({ removeCompletionsAt: [500], insertCompletionsAt: [{ position: 1_200 }] });

  const summaries = finishImport(harness);

  const last = summaries[summaries.length - 1]!;
  expect(last).toMatch(/\d+ records? could not be confirmed/);
  expect(syncLog(harness)[0]![10]).toMatch(/\d+ records? could not be confirmed/);
  // The next Reconcile, on a network that lets it read in one execution, settles them.
  harness.emulator.urlFetch.roundTripMs = 0;
  harness.clickMenu('Reconcile completed trainings');
  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
  await harness.done();
});
