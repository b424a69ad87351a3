/**
 * Every path that sends requests stays inside the 6 minutes of one execution, however slow the
 * network: it stops cleanly with a Continuing line in the Sync log, and a failed request is retried
 * only while the retry can end in time.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { servedRowKeys, shownRowKeys } from '../support/completion-rows';

const TAB = 'Completed trainings';

async function slowHarness(roundTripMs: number, completions: number, users: number): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed: 101, completions, users },
    emulator: { urlFetchRoundTripMs: roundTripMs },
  });
  harness.connect();
  return harness;
}

function outcomes(harness: AddonHarness): string[][] {
  return harness
    .displayed('Sync log')
    .slice(1)
    .map((line) => [line[2]!, line[7]!]);
}

test('with 60 s round trips and a rate limit, an import stops in time, fails clearly, and goes on when retried', async () => {
  const harness = await slowHarness(60_000, 6_000, 10);
  harness.useBatchSize(1);
  // Ten requests go through (page 1, then pages 1–2, 2–3 and 3–4: each round asks again for the
  // page before it, and one user's name rides in it); every one after them is refused as over the
  // rate limit.
  await harness.dataset.setFaults({ requestBudget: 10 });

  const first = harness.callServer('startCompletionsImport', {});
  expect(first.done).toBe(false);
  expect(() => harness.callServer('continueCompletionsImport')).toThrow(/rate_limit_exceeded/);
  await harness.dataset.setFaults({});
  const steps = [harness.callServer('continueCompletionsImport')];
  while (!steps[steps.length - 1]!.done) {
    expect(steps.length).toBeLessThan(12);
    steps.push(harness.callServer('continueCompletionsImport'));
  }

  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
  const log = outcomes(harness).map(([, outcome]) => outcome);
  expect(log[0]).toBe('Success');
  expect(log).toContain('Failed');
  expect(log[log.length - 1]).toBe('Continuing');
  await harness.done();
});

test('one slow round among fast ones: the import pauses before a round as slow as it could overrun the 6 minutes', async () => {
  // 1,000 records in pages of 100, one page a round. The network stalls on the first round (125 s)
  // and on the eighth; the rounds between take 20 s. After the fourth round (185 s) a round as slow
  // as the first would end after 5 minutes: the import pauses there. Going on because the last
  // round was fast would start the eighth at 245 s, which Apps Script stops at 6 minutes.
  const harness = await slowHarness(0, 1_000, 10);
  await harness.dataset.setQuirks({ pageSizeCap: 100 });
  harness.useBatchSize(1);
  const SLOW_MS = 125_000;
  const FAST_MS = 20_000;
  const fetch = harness.emulator.urlFetch;
  let rounds = 0;
  fetch.roundTripMs = SLOW_MS;
  fetch.whileWaiting = () => {
    rounds++;
    fetch.roundTripMs = rounds === 7 ? SLOW_MS : FAST_MS;
  };

  const first = harness.callServer('startCompletionsImport', {});

  expect(first.done).toBe(false);
  expect(first.summary).toMatch(/before the time limit of one run; the import continues in the next run/);
  expect(rounds).toBeLessThan(7);
  expect(outcomes(harness)[0]![1]).toBe('Continuing');

  fetch.whileWaiting = null;
  fetch.roundTripMs = FAST_MS;
  for (let step = first, executions = 1; !step.done; executions++) {
    expect(executions).toBeLessThan(10);
    step = harness.callServer('continueCompletionsImport');
  }
  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
  expect(outcomes(harness)[0]![1]).toBe('Success');
  await harness.done();
});

test('Refresh all leaves the equipment import to the next run when too little time is left', async () => {
  // Few people: their names ride in one wave with three pages (Google runs ten requests at once).
  const harness = await slowHarness(84_000, 3_000, 4);
  harness.clickMenu('Import equipment types');
  const typesBefore = harness.displayed('Equipment types');
  await harness.dataset.mutate({ renameEquipmentTypes: [{ id: typesBefore[1]![0]!, title: 'Renamed' }] });

  // No full import yet: Refresh all reads every page and confirms them, the names riding with the
  // pages (three rounds of 84 s: page 1, pages 1–3 with the names page 1 shows, pages 1–3 again):
  // 4.2 minutes, and another round would end after 5.
  harness.clickMenu('Refresh all');

  expect(harness.displayed(TAB)).toHaveLength(3_001);
  const [equipment, completions] = outcomes(harness);
  expect(completions).toEqual(['Refresh completed trainings', 'Success']);
  expect(equipment).toEqual(['Refresh equipment types', 'Continuing']);
  expect(harness.displayed('Sync log')[1]![10]).toMatch(
    /^Refresh equipment types: not started in this run, too little of its time was left; the next refresh does it\.$/,
  );
  expect(harness.displayed('Equipment types')).toEqual(typesBefore);

  harness.clickMenu('Refresh all');
  expect(outcomes(harness)[0]).toEqual(['Refresh equipment types', 'Success']);
  expect(harness.displayed('Equipment types').flat()).toContain('Renamed');
  await harness.done();
});

test('a Retry-After wait is honoured while it fits in the time left, and not beyond it', async () => {
  const harness = await slowHarness(0, 1_500, 10);
  harness.clickMenu('Reconcile completed trainings');
  const before = harness.displayed(TAB);
  const rateLimitOnce = {
    queue: [{ fault: 'rate_limit_exceeded' as const, method: 'completedtrainings.list' as const, times: 1 }],
  };

  await harness.dataset.setQuirks({ rateLimitRetryAfterSeconds: 40 });
  await harness.dataset.setFaults(rateLimitOnce);
  harness.clickMenu('Reconcile completed trainings');
  let [line] = harness.displayed('Sync log').slice(1);
  expect(line![7]).toBe('Success');
  // Emulated time: the retry waited the 40 s asked for, not the client's own 1 s backoff.
  expect(Number(line![6])).toBeGreaterThanOrEqual(40);

  await harness.dataset.setQuirks({ rateLimitRetryAfterSeconds: 600 });
  await harness.dataset.setFaults(rateLimitOnce);
  harness.clickMenu('Reconcile completed trainings');
  [line] = harness.displayed('Sync log').slice(1);
  expect(line!.slice(7, 9)).toEqual(['Failed', 'rate_limit_exceeded']);
  expect(Number(line![6])).toBeLessThan(40);
  expect(harness.displayed(TAB)).toEqual(before);
  await harness.done();
});
