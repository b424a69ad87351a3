/**
 * The scheduled refresh end to end: the built add-on in the emulator, its trigger fired as Google
 * fires it (as its creator, with no active spreadsheet), against the sample service. Time moves
 * only on the emulated clock.
 */
import type { TriggerInfo } from '../../dev/emulator';
import type { ScheduleView } from '../../src/refresh/schedule-dialog';
import { MENU_ITEMS } from '../../src/menu';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';

const HOUR = 3_600_000;
const COMPLETIONS_TAB = 'Completed trainings';
const TYPES_TAB = 'Equipment types';
const EDITOR = 'editor@example.com';

let harness: AddonHarness;

/** Rewrites the stored schedule's frequency as an older version of the add-on saved it. */
const OLD_VERSION_SCRIPT = `
  function storeFrequencyAsOlderVersions(frequency) {
    var item = SpreadsheetApp.getActiveSpreadsheet().getDeveloperMetadata().filter(function (metadata) {
      return metadata.getKey() === 'safetySync.schedule';
    })[0];
    var schedule = JSON.parse(item.getValue());
    schedule.frequency = frequency;
    item.setValue(JSON.stringify(schedule));
  }
`;

async function setUp(timeZone = 'Europe/London', startTime?: number): Promise<void> {
  harness = await createAddonHarness({
    dataset: { seed: 71, completions: 300, equipmentTypes: 6 },
    timeZone,
    // The menu's status line is read in onOpen, where Google may refuse developer metadata: these
    // tests are of what the line says where it is shown.
    emulator: { readings: { developerMetadataInLimited: true }, startTime },
    userScript: OLD_VERSION_SCRIPT,
  });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Import equipment types');
}

afterEach(() => harness.done());

function schedule(
  every: string,
  atHour?: number,
  monthDay?: string,
): { ok: boolean; field?: string; message?: string } {
  return harness.callServer('saveSchedule', { every, atHour, monthDay });
}

function view(): ScheduleView {
  return harness.callServer('getSchedule');
}

function onlyTrigger(): TriggerInfo {
  const triggers = harness.emulator.triggers();
  expect(triggers).toHaveLength(1);
  return triggers[0]!;
}

function fire(trigger = onlyTrigger()): void {
  harness.emulator.fireTrigger(trigger.uid);
}

function rowCount(tab: string): number {
  return harness.displayed(tab).length - 1;
}

/** The Sync log's lines, newest first: [action, outcome, error, request ID]. */
function syncLog(): string[][] {
  return harness
    .displayed('Sync log')
    .slice(1)
    .map((line) => [line[2]!, line[7]!, line[8]!, line[9]!]);
}

function headerNote(tab: string): string {
  return harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(tab).notes('A1')[0]![0]!;
}

function menuStatus(): string | undefined {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  harness.emulator.onOpen(harness.spreadsheetId);
  const entries = workbook.ui.menus[workbook.ui.menus.length - 1]!.entries;
  const last = entries[entries.length - 1]!;
  return last.kind === 'item' &&
    last.functionName === 'showScheduleDialog' &&
    last.caption !== 'Schedule refresh…'
    ? last.caption
    : undefined;
}

describe('setting the schedule', () => {
  beforeEach(() => setUp('America/New_York'));

  test('Schedule refresh… comes before Settings… and opens its dialog', () => {
    harness.clickMenu('Schedule refresh…');
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    expect(ui.dialogs.map((dialog) => dialog.title)).toEqual(['Schedule refresh']);
    const captions = ui.menus[0]!.entries.flatMap((entry) => (entry.kind === 'item' ? [entry.caption] : []));
    expect(captions.slice(-2)).toEqual(['Schedule refresh…', 'Settings…']);
  });

  test('every 4 hours: one trigger of the user for this spreadsheet, shown as theirs', () => {
    expect(view()).toMatchObject({ every: 'off', owner: '', status: ['Not refreshed yet.'] });
    expect(schedule('4')).toMatchObject({ ok: true });
    expect(onlyTrigger()).toMatchObject({
      handler: 'runScheduledRefresh',
      owner: harness.emulator.users.owner,
      spreadsheetId: harness.spreadsheetId,
      schedule: { every: 'hours', interval: 4 },
    });
    expect(view()).toMatchObject({
      every: '4',
      owner: harness.emulator.users.owner,
      ownedByYou: true,
      paused: false,
    });
    expect(view().status).toContain('Scheduled refresh: every 4 hours.');
  });

  test("daily at an hour of the spreadsheet's time zone", () => {
    schedule('daily', 6);
    expect(onlyTrigger().schedule).toMatchObject({
      every: 'days',
      interval: 1,
      atHour: 6,
      timeZone: 'America/New_York',
    });
    expect(view()).toMatchObject({ every: 'daily', atHour: 6, timeZone: 'America/New_York' });
    expect(view().status).toContain('Scheduled refresh: daily between 06:00 and 07:00 (America/New_York).');
  });

  test('a second schedule replaces the first', () => {
    schedule('4');
    const first = onlyTrigger();
    schedule('1');
    const second = onlyTrigger();
    expect(second.uid).not.toBe(first.uid);
    expect(second.schedule).toMatchObject({ every: 'hours', interval: 1 });
  });

  test("another editor's schedule replaces the owner's, whose trigger deletes itself at its next run", () => {
    schedule('4');
    const owners = onlyTrigger();
    const editor = harness.asUser(EDITOR);
    editor.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: harness.dataset.tokens.valid });
    editor.callServer('saveSchedule', { every: '2' });
    expect(harness.emulator.triggers().map((trigger) => trigger.owner)).toEqual([
      harness.emulator.users.owner,
      EDITOR,
    ]);
    expect(view()).toMatchObject({ every: '2', owner: EDITOR, ownedByYou: false });

    harness.emulator.urlFetch.requests.length = 0;
    fire(owners);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    expect(harness.emulator.triggers().map((trigger) => trigger.owner)).toEqual([EDITOR]);
  });

  test('removing the schedule deletes its trigger; so does choosing Off', () => {
    schedule('4');
    expect(harness.callServer('removeSchedule')).toMatchObject({ every: 'off', owner: '' });
    expect(harness.emulator.triggers()).toEqual([]);
    schedule('8');
    expect(schedule('off')).toMatchObject({ ok: true });
    expect(harness.emulator.triggers()).toEqual([]);
  });

  test('a wrong choice comes back next to its field, and nothing changes', () => {
    expect(schedule('3')).toEqual({
      ok: false,
      field: 'every',
      message: expect.stringMatching(/1, 2, 4, 6, 8 or 12/),
    });
    expect(schedule('daily', 24)).toEqual({
      ok: false,
      field: 'atHour',
      message: expect.stringMatching(/hour/),
    });
    for (const day of ['29', '0', '']) {
      expect(schedule('monthly', 6, day)).toEqual({
        ok: false,
        field: 'monthDay',
        message: 'Choose a day of the month from 1 to 28, or the last day.',
      });
    }
    expect(harness.emulator.triggers()).toEqual([]);
  });

  test('the schedule runs with its creator’s token, so a user without one cannot create it', () => {
    const outcome = harness.asUser(EDITOR).callServer('saveSchedule', { every: '1' });
    expect(outcome).toMatchObject({
      ok: false,
      field: 'every',
      message: expect.stringMatching(/your API token.*Settings/),
    });
    expect(harness.emulator.triggers()).toEqual([]);
  });

  test('the functions that change the schedule refuse to run from a cell', () => {
    for (const name of ['SAVESCHEDULE', 'REMOVESCHEDULE']) {
      expect(harness.emulator.customFunction(harness.spreadsheetId, name, ['1'])).toEqual({
        error: expect.stringMatching(/only be used from the Safety Sync menu/),
      });
    }
    expect(harness.emulator.customFunction(harness.spreadsheetId, 'RUNSCHEDULEDREFRESH', [])).toEqual({
      error: expect.stringMatching(/runs only from its trigger/),
    });
    expect(harness.emulator.triggers()).toEqual([]);
  });
});

describe('the scheduled run', () => {
  beforeEach(() => setUp());

  test('fires as its creator with no active spreadsheet and refreshes every configured import', async () => {
    schedule('1');
    const before = rowCount(COMPLETIONS_TAB);
    await harness.dataset.mutate({ addCompletions: 7 });
    const data = await harness.dataset.data();
    await harness.dataset.mutate({
      renameEquipmentTypes: [{ id: data.equipmenttypes[0]!.id, title: 'Renamed by the service' }],
    });
    harness.emulator.urlFetch.requests.length = 0;
    harness.emulator.clock.advance(HOUR);

    fire();

    expect(rowCount(COMPLETIONS_TAB)).toBe(before + 7);
    expect(harness.displayed(TYPES_TAB).map((row) => row[1])).toContain('Renamed by the service');
    expect(new Set(harness.emulator.urlFetch.requests.map((request) => request.user))).toEqual(
      new Set([harness.emulator.users.owner]),
    );
    expect(syncLog().slice(0, 2)).toEqual([
      ['Scheduled refresh equipment types', 'Success', '', ''],
      ['Scheduled refresh completed trainings', 'Success', '', ''],
    ]);
    const refreshed = view();
    expect(refreshed.lastRun).toMatch(/^1 Mar 2024, 1[23]:\d\d$/);
    expect(refreshed.lastRunSummary).toMatch(/^Refreshed: Added 7 new completed trainings/);
    for (const tab of [COMPLETIONS_TAB, TYPES_TAB, 'Upcoming inspections']) {
      expect(headerNote(tab)).toMatch(/^Safety Sync\nLast refreshed 1 Mar 2024, 13:00\./);
    }
    expect(menuStatus()).toBe('Last refreshed 1 Mar 2024, 13:00');
  });

  test('reconciles fully once a day: records gone upstream leave only then', async () => {
    schedule('1');
    await harness.dataset.mutate({ removeCompletions: 4 });
    const before = rowCount(COMPLETIONS_TAB);
    harness.emulator.clock.advance(HOUR);
    fire();
    expect(rowCount(COMPLETIONS_TAB)).toBe(before);
    expect(syncLog()[1]![0]).toBe('Scheduled refresh completed trainings');

    harness.emulator.clock.advance(24 * HOUR);
    fire();
    expect(rowCount(COMPLETIONS_TAB)).toBe(before - 4);
    // A day without the hourly runs: the run says so on top of its own lines.
    expect(syncLog()[0]!.slice(0, 2)).toEqual(['Scheduled refresh', 'Skipped']);
    expect(syncLog()[2]![0]).toBe('Scheduled refresh completed trainings (full reconciliation)');
  });

  test('repeated authentication failures pause the schedule after three runs, and it says so', () => {
    schedule('1');
    const tabBefore = harness.displayed(COMPLETIONS_TAB);
    harness.connect('NotARealToken00000000000000000');
    const trigger = onlyTrigger();
    for (let run = 1; run <= 3; run++) {
      expect(harness.emulator.triggers()).toHaveLength(1);
      harness.emulator.clock.advance(HOUR);
      fire(trigger);
      expect(syncLog()[run === 3 ? 1 : 0]).toEqual([
        'Scheduled refresh completed trainings',
        'Failed',
        'token_invalid',
        expect.stringMatching(/^[A-Za-z0-9]+$/),
      ]);
    }
    expect(harness.emulator.triggers()).toEqual([]);
    expect(syncLog()[0]).toEqual(['Scheduled refresh', 'Paused', 'token_invalid', expect.any(String)]);
    expect(harness.displayed(COMPLETIONS_TAB)).toEqual(tabBefore);
    const paused = view();
    expect(paused).toMatchObject({ paused: true, stale: true, every: '1' });
    const settings = harness.callServer('getSettings');
    expect(settings.refreshStatus.join(' ')).toMatch(/paused itself .* after repeated token_invalid errors/);
    // What to do names menu items that exist.
    const advice = `${harness.displayed('Sync log')[1]![10]} ${settings.refreshStatus.join(' ')}`;
    const named = [...advice.matchAll(/Safety Sync → ([^,]+?…)/g)].map(([, caption]) => caption);
    expect(named).toEqual(expect.arrayContaining(['Settings…', 'Schedule refresh…']));
    const captions = MENU_ITEMS.flatMap((item) => (item ? [item.caption] : []));
    for (const caption of named) expect(captions).toContain(caption);
    expect(headerNote(COMPLETIONS_TAB)).toMatch(/^Safety Sync: DATA MAY BE OUT OF DATE\n.*paused itself/s);

    // A working token and the schedule saved again resume it.
    harness.connect();
    schedule('1');
    harness.emulator.clock.advance(HOUR);
    fire();
    expect(view()).toMatchObject({ paused: false, stale: false });
  });

  test('other failures leave the data as it was, log the identifier and request ID, and never pause', async () => {
    schedule('1');
    const tabBefore = harness.displayed(COMPLETIONS_TAB);
    await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
    for (let run = 1; run <= 4; run++) {
      harness.emulator.clock.advance(HOUR);
      fire();
    }
    expect(harness.displayed(COMPLETIONS_TAB)).toEqual(tabBefore);
    expect(harness.emulator.triggers()).toHaveLength(1);
    expect(syncLog()[1]).toEqual([
      'Scheduled refresh completed trainings',
      'Failed',
      'server_error',
      expect.stringMatching(/^[A-Za-z0-9]+$/),
    ]);
    const logged = harness.emulator.logs.map((entry) => entry.text).join('\n');
    expect(logged).toMatch(/scheduled refresh failed with server_error \(request ID [A-Za-z0-9]+\)/);
  });

  test('the stale-data warning appears after twice the interval without a good refresh, and clears', async () => {
    // Each run takes Google's time (a scheduled refresh about 15 s): the runs fire at set moments.
    const at = (hour: number, minute: number) =>
      harness.emulator.clock.set(Date.UTC(2024, 2, 1, hour, minute));
    schedule('1');
    at(13, 0);
    fire();
    expect(view().stale).toBe(false);

    await harness.dataset.setFaults({ queue: [{ fault: 'html502', times: 1_000 }] });
    at(14, 0);
    fire();
    expect(view().stale).toBe(false);
    expect(headerNote(COMPLETIONS_TAB)).toMatch(/^Safety Sync\n/);

    at(15, 1);
    fire();
    const stale = view();
    expect(stale.stale).toBe(true);
    expect(stale.status.join(' ')).toMatch(
      /out of date: the last refresh was more than twice the schedule's interval ago\. The last scheduled run failed: transport: http_status\./,
    );
    expect(headerNote(COMPLETIONS_TAB)).toMatch(
      /^Safety Sync: DATA MAY BE OUT OF DATE\nLast refreshed 1 Mar 2024, 13:00\./,
    );
    expect(menuStatus()).toBe('⚠ Out of date: last refreshed 1 Mar 2024, 13:00');

    await harness.dataset.setFaults({});
    at(16, 1);
    fire();
    expect(view().stale).toBe(false);
    expect(headerNote(COMPLETIONS_TAB)).toMatch(/^Safety Sync\nLast refreshed 1 Mar 2024, 16:01\./);
    expect(menuStatus()).toBe('Last refreshed 1 Mar 2024, 16:01');
  });

  test('a manual import started while the scheduled run works waits, then says an import is running', () => {
    schedule('1');
    harness.emulator.clock.advance(HOUR);
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    let manualSaw = '';
    harness.emulator.beforeNextCall('UrlFetchApp.fetch', () => {
      harness.clickMenu('Import equipment types');
      manualSaw = ui.alerts[ui.alerts.length - 1]!.message;
    });
    harness.emulator.urlFetch.requests.length = 0;
    fire();
    expect(manualSaw).toMatch(/^An import is already running in this spreadsheet/);
    expect(new Set(harness.emulator.urlFetch.requests.map((request) => request.executionId)).size).toBe(1);
    expect(
      syncLog()
        .slice(0, 2)
        .map((line) => line[1]),
    ).toEqual(['Success', 'Success']);
  });

  test('a scheduled run that finds a manual import working skips, without counting as a failure', () => {
    schedule('1');
    harness.emulator.clock.advance(HOUR);
    harness.emulator.beforeNextCall('UrlFetchApp.fetch', () => fire());
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu('Reconcile completed trainings');
    expect(new Set(harness.emulator.urlFetch.requests.map((request) => request.executionId)).size).toBe(1);
    expect(syncLog().slice(0, 2)).toEqual([
      ['Import completed trainings: all completions (full)', 'Success', '', ''],
      ['Scheduled refresh', 'Skipped', '', ''],
    ]);
    expect(view()).toMatchObject({ paused: false, stale: false });
    expect(view().lastRunSummary).toMatch(/^Skipped: another Safety Sync run/);
    expect(harness.emulator.triggers()).toHaveLength(1);
  });

  test('a trigger left behind for a deleted spreadsheet fetches nothing, and deletes itself 30 days later', () => {
    schedule('1');
    const trigger = onlyTrigger();
    const triggerRecord = `safetySync.scheduleTrigger.${trigger.uid}`;
    const ownerProperties = () =>
      Object.keys(harness.emulator.properties.user(harness.emulator.users.owner).all());
    harness.emulator.workbooks.delete(harness.spreadsheetId);
    harness.emulator.urlFetch.requests.length = 0;
    expect(() => fire(trigger)).not.toThrow();
    // Deleted or trashed, no longer shared: a run cannot tell, and the spreadsheet may come back.
    harness.emulator.clock.advance(30 * 24 * HOUR - HOUR);
    expect(() => fire(trigger)).not.toThrow();
    expect(harness.emulator.triggers()).toEqual([trigger]);
    expect(ownerProperties()).toContain(triggerRecord);

    harness.emulator.clock.advance(HOUR);
    expect(() => fire(trigger)).not.toThrow();
    expect(harness.emulator.triggers()).toEqual([]);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    expect(ownerProperties()).not.toContain(triggerRecord);
  });

  test('called with a trigger id that is not its schedule, it changes nothing', () => {
    schedule('1');
    harness.emulator.urlFetch.requests.length = 0;
    // What any page could send: not a trigger's event, only an id.
    harness.callServerUntyped('runScheduledRefresh', { triggerUid: '12345' });
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    expect(harness.emulator.triggers()).toHaveLength(1);
  });
});

describe('the monthly schedule', () => {
  // Kiritimati is UTC+14: its 06:00 is 16:00 UTC the day before, so a day told in UTC is wrong.
  const ZONE = 'Pacific/Kiritimati';
  /** 06:00 in Kiritimati on a day (months from 0, as Date.UTC counts them). */
  const sixInTheMorning = (year: number, month: number, day: number) => Date.UTC(year, month, day - 1, 16);

  /** What a run could leave behind: the tabs, the document state, the owner's properties, fetches, logs, mail. */
  function trace(): string {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    return JSON.stringify({
      tabs: workbook.sheets().map((sheet) => [sheet.name, sheet.cells()]),
      state: workbook.developerMetadata(),
      properties: harness.emulator.properties.user(harness.emulator.users.owner).all(),
      fetches: harness.emulator.urlFetch.requests.length,
      logs: harness.emulator.logs.length,
      mail: harness.emulator.mail.sent.length,
    });
  }

  test('on day 15 at 06:00: one trigger, which refreshes on the 15th of each month in the spreadsheet’s zone', async () => {
    await setUp(ZONE);
    expect(schedule('monthly', 6, '15')).toMatchObject({ ok: true });
    expect(onlyTrigger().schedule).toMatchObject({
      every: 'months',
      monthDay: 15,
      atHour: 6,
      timeZone: ZONE,
    });
    expect(view()).toMatchObject({ every: 'monthly', monthDay: '15', atHour: 6, timeZone: ZONE });
    expect(view().status).toContain(
      `Scheduled refresh: monthly on day 15 between 06:00 and 07:00 (${ZONE}).`,
    );

    const before = rowCount(COMPLETIONS_TAB);
    await harness.dataset.mutate({ addCompletions: 5 });
    const fired = harness.emulator.runClockUntil(Date.UTC(2024, 4, 1));
    expect(fired.map((firing) => firing.atMs)).toEqual([
      sixInTheMorning(2024, 2, 15),
      sixInTheMorning(2024, 3, 15),
    ]);
    expect(rowCount(COMPLETIONS_TAB)).toBe(before + 5);
    expect(headerNote(COMPLETIONS_TAB)).toMatch(/^Safety Sync\nLast refreshed 15 Apr 2024, 06:\d\d\./);
    // A month between runs is neither a missed run nor stale data.
    expect(syncLog().filter((line) => line[1] !== 'Success')).toEqual([]);
    expect(view()).toMatchObject({ stale: false, lastRunSummary: expect.stringMatching(/^Refreshed/) });
  });

  test('saved twice, it keeps one trigger: the second schedule’s', async () => {
    await setUp(ZONE);
    schedule('monthly', 6, '15');
    const first = onlyTrigger();
    schedule('monthly', 9, 'last');
    const second = onlyTrigger();
    expect(second.uid).not.toBe(first.uid);
    expect(second.schedule).toMatchObject({ every: 'days', interval: 1, atHour: 9, timeZone: ZONE });
    expect(view()).toMatchObject({ every: 'monthly', monthDay: 'last', atHour: 9 });
  });

  test.each([
    { year: 2027, lastDay: 28 },
    { year: 2028, lastDay: 29 },
  ])(
    'on the last day: refreshes on $lastDay February $year; the other days’ runs leave no trace',
    async ({ year, lastDay }) => {
      await setUp(ZONE, Date.UTC(year, 1, 20));
      schedule('monthly', 6, 'last');
      expect(view().status).toContain(
        `Scheduled refresh: monthly on the last day between 06:00 and 07:00 (${ZONE}).`,
      );
      const rowsBefore = rowCount(COMPLETIONS_TAB);
      await harness.dataset.mutate({ addCompletions: 3 });

      const refreshedOn: number[] = [];
      for (const [month, day] of [
        ...Array.from({ length: lastDay - 21 + 1 }, (_, index) => [1, 21 + index] as const),
        [2, 1] as const,
        [2, 2] as const,
      ]) {
        const traceBefore = trace();
        // Each step lets the daily trigger fire once: at 06:00 of that day in Kiritimati.
        const fired = harness.emulator.runClockUntil(sixInTheMorning(year, month, day) + 3_600_000);
        expect(fired.map((firing) => firing.atMs)).toEqual([sixInTheMorning(year, month, day)]);
        if (trace() !== traceBefore) refreshedOn.push(day);
      }
      expect(refreshedOn).toEqual([lastDay]);
      expect(rowCount(COMPLETIONS_TAB)).toBe(rowsBefore + 3);
      expect(headerNote(COMPLETIONS_TAB)).toMatch(
        new RegExp(`^Safety Sync\nLast refreshed ${lastDay} Feb ${year}, 06:\\d\\d\\.`),
      );
      expect(syncLog().filter((line) => line[1] !== 'Success')).toEqual([]);
      expect(view()).toMatchObject({ stale: false, paused: false });
    },
  );
});

describe('a schedule saved by an older version', () => {
  beforeEach(() => setUp());

  test('every 4 hours ({ everyHours: 4 }) still describes itself and runs', async () => {
    schedule('4');
    harness.emulator.run('storeFrequencyAsOlderVersions', [{ everyHours: 4 }], {
      spreadsheetId: harness.spreadsheetId,
    });
    expect(view()).toMatchObject({ every: '4', stale: false });
    expect(view().status).toContain('Scheduled refresh: every 4 hours.');

    const before = rowCount(COMPLETIONS_TAB);
    await harness.dataset.mutate({ addCompletions: 2 });
    harness.emulator.clock.advance(4 * HOUR);
    fire();
    expect(rowCount(COMPLETIONS_TAB)).toBe(before + 2);
    expect(syncLog()[1]).toEqual(['Scheduled refresh completed trainings', 'Success', '', '']);
    expect(view().status).toContain('Scheduled refresh: every 4 hours.');
  });

  test('daily at 06:00 ({ dailyAtHour: 6 }) still describes itself', () => {
    schedule('daily', 6);
    harness.emulator.run('storeFrequencyAsOlderVersions', [{ dailyAtHour: 6 }], {
      spreadsheetId: harness.spreadsheetId,
    });
    expect(view()).toMatchObject({ every: 'daily', atHour: 6 });
    expect(view().status).toContain('Scheduled refresh: daily between 06:00 and 07:00 (Europe/London).');
  });
});
