/**
 * The scheduled refresh when its owner's daily trigger time is spent (90 minutes on a consumer
 * account): Google starts none of its runs until the time renews, 24 hours after the first trigger
 * run, so no add-on code can say so then. The next run Google allows says so once in the Sync log
 * and goes on with the import where the last run stopped, until the tabs are complete.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import { servedRowKeys, shownRowKeys } from '../support/completion-rows';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_SPENT = 'Service using too much computer time for one day.';

let harness: AddonHarness;

afterEach(() => harness.done());

/** The Sync log's lines, newest first: [action, outcome, details]. */
function syncLog(): string[][] {
  return harness
    .displayed('Sync log')
    .slice(1)
    .map((line) => [line[2]!, line[7]!, line[10]!]);
}

test('runs Google does not start leave a gap the next allowed run reports once, and the import completes', async () => {
  // 60 s round trips and one page a round: an import of 6,000 records takes several runs.
  harness = await createAddonHarness({
    dataset: { seed: 27, completions: 6_000, users: 10 },
    emulator: { urlFetchRoundTripMs: 60_000 },
  });
  harness.connect();
  harness.useBatchSize(1);
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  const [trigger] = harness.emulator.triggers();
  const owner = trigger!.owner;
  const fire = () => harness.emulator.fireTrigger(trigger!.uid);

  const firstRunAt = harness.emulator.clock.now();
  fire();
  expect(syncLog()[0]).toEqual([
    expect.stringContaining('Scheduled refresh'),
    'Continuing',
    expect.any(String),
  ]);
  // Other triggers of the owner's spend the rest of the day's trigger time.
  const { triggerRuntime } = harness.emulator;
  triggerRuntime.spend(
    owner,
    triggerRuntime.remainingMs(owner, harness.emulator.clock.now()),
    harness.emulator.clock.now(),
  );

  const linesBefore = syncLog().length;
  let refused = 0;
  while (harness.emulator.clock.now() + HOUR < firstRunAt + DAY) {
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toBeUndefined();
    refused++;
  }
  expect(refused).toBe(23);
  expect(syncLog()).toHaveLength(linesBefore);
  expect(triggerRuntime.failures).toHaveLength(refused);
  expect(triggerRuntime.failures.every((failure) => failure.message === TIME_SPENT && !failure.started)).toBe(
    true,
  );

  // The first run Google starts again, 24 hours after the first: the gap is in the Sync log.
  harness.emulator.clock.set(firstRunAt + DAY + MINUTE);
  fire();
  const gap = (line: string[]) =>
    line[1] === 'Skipped' && line[2]!.startsWith('The scheduled refresh did not run');
  expect(syncLog().filter(gap)).toEqual([
    [
      'Scheduled refresh',
      'Skipped',
      expect.stringMatching(
        /^The scheduled refresh did not run from 1 Mar 2024, 12:\d\d to 2 Mar 2024, 12:\d\d: Google stops time-driven triggers once a user's daily trigger time \(90 minutes on a consumer account, 6 hours on Workspace\) is spent\. It continues where the last run stopped\.$/,
      ),
    ],
  ]);

  // The next runs carry on, hourly, until the import is complete: the gap is said once.
  for (let runs = 0; syncLog()[0]![1] === 'Continuing' || syncLog()[0]![1] === 'Skipped'; runs++) {
    expect(runs).toBeLessThan(12);
    harness.emulator.clock.advance(HOUR);
    fire();
  }
  expect(syncLog().filter(gap)).toHaveLength(1);
  expect(syncLog()[0]![1]).toBe('Success');
  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
});
