/**
 * The scheduled refresh of a spreadsheet a user put in the Drive trash. Google does not document
 * whether `SpreadsheetApp.openById` opens it (the emulator's switch trashedSpreadsheetOpens): under
 * the stricter reading the runs find it missing, keep the trigger for the 30 days Drive keeps it, and
 * resume by themselves once it is restored; under the looser reading it is simply refreshed. The
 * built add-on in the emulator against the sample service; time moves only on the emulated clock.
 */
import type { GoogleReadings } from '../../dev/emulator';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const COMPLETIONS_TAB = 'Completed trainings';
const NOT_OPENED = /could not open this spreadsheet/;

let harness: AddonHarness;

afterEach(() => harness.done());

/** Connected, the completed trainings imported, and an hourly schedule that has run once. */
async function scheduledHourly(readings: Partial<GoogleReadings>): Promise<string> {
  harness = await createAddonHarness({
    dataset: { seed: 72, completions: 40, users: 5 },
    emulator: { readings },
  });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  const [trigger] = harness.emulator.triggers();
  fireAfter(HOUR, trigger!.uid);
  return trigger!.uid;
}

function fireAfter(ms: number, triggerUid: string): void {
  harness.emulator.clock.advance(ms);
  expect(harness.emulator.fireTrigger(triggerUid)).toBeUndefined();
}

/** The Sync log's lines, newest first: [outcome, details]. */
function syncLog(): string[][] {
  return harness
    .displayed('Sync log')
    .slice(1)
    .map((line) => [line[7]!, line[10]!]);
}

function completionRows(): number {
  return harness.displayed(COMPLETIONS_TAB).length - 1;
}

function triggerRecordKept(triggerUid: string): boolean {
  const owner = harness.emulator.users.owner;
  return `safetySync.scheduleTrigger.${triggerUid}` in harness.emulator.properties.user(owner).all();
}

describe('under the stricter reading (a trashed spreadsheet is missing until restored)', () => {
  const STRICTER = { trashedSpreadsheetOpens: false };

  test('its runs fetch nothing and keep the trigger; restored, the next run refreshes and says once since when it could not open it', async () => {
    const triggerUid = await scheduledHourly(STRICTER);
    const rowsBefore = completionRows();
    const linesBefore = syncLog().length;
    harness.emulator.workbooks.trash(harness.spreadsheetId);
    harness.emulator.urlFetch.requests.length = 0;
    for (let run = 0; run < 3; run++) fireAfter(HOUR, triggerUid);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    expect(harness.emulator.triggers().map((trigger) => trigger.uid)).toEqual([triggerUid]);
    expect(syncLog()).toHaveLength(linesBefore);

    harness.emulator.workbooks.restore(harness.spreadsheetId);
    await harness.dataset.mutate({ addCompletions: 2 });
    fireAfter(HOUR, triggerUid);
    expect(completionRows()).toBe(rowsBefore + 2);
    // The runs missed and the reason in one line, on top of the run's own: not the daily trigger
    // time's note as well.
    expect(syncLog().filter(([outcome]) => outcome === 'Skipped')).toEqual([
      [
        'Skipped',
        expect.stringMatching(
          /^The scheduled refresh did not run from 1 Mar 2024, 1[34]:\d\d to 1 Mar 2024, 1[78]:\d\d: it could not open this spreadsheet from 1 Mar 2024, 1[45]:\d\d to 1 Mar 2024, 1[78]:\d\d \(it was in the Drive trash, or not shared with owner@example\.com\)\. It has resumed\. It continues where the last run stopped\.$/,
        ),
      ],
    ]);
    expect(syncLog()[1]![0]).toBe('Success');

    fireAfter(HOUR, triggerUid);
    expect(syncLog().filter(([, details]) => NOT_OPENED.test(details!))).toHaveLength(1);
    expect(harness.emulator.triggers()).toHaveLength(1);
  });

  test('missing for 30 days, the trigger deletes itself and forgets its spreadsheet', async () => {
    const triggerUid = await scheduledHourly(STRICTER);
    harness.emulator.workbooks.trash(harness.spreadsheetId);
    fireAfter(HOUR, triggerUid);
    fireAfter(30 * DAY - 2 * HOUR, triggerUid);
    expect(harness.emulator.triggers()).toHaveLength(1);
    expect(triggerRecordKept(triggerUid)).toBe(true);

    harness.emulator.urlFetch.requests.length = 0;
    fireAfter(2 * HOUR, triggerUid);
    expect(harness.emulator.triggers()).toEqual([]);
    expect(triggerRecordKept(triggerUid)).toBe(false);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
  });
});

test('under the looser reading, a trashed spreadsheet keeps being refreshed', async () => {
  const triggerUid = await scheduledHourly({ trashedSpreadsheetOpens: true });
  const rowsBefore = completionRows();
  harness.emulator.workbooks.trash(harness.spreadsheetId);
  await harness.dataset.mutate({ addCompletions: 2 });
  fireAfter(HOUR, triggerUid);
  expect(completionRows()).toBe(rowsBefore + 2);
  expect(syncLog()[0]![0]).toBe('Success');
  expect(syncLog().filter(([, details]) => NOT_OPENED.test(details!))).toEqual([]);
  expect(harness.emulator.triggers()).toHaveLength(1);
});
