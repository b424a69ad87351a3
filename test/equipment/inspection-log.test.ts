/**
 * The Inspection log, end to end: the built add-on in the emulator against the sample service, in
 * a zone far ahead of UTC. Every "Last inspected" date a run sees is added once, at the bottom, and
 * no row is ever changed by the add-on, whatever the manager does to the tab (sorting, renaming,
 * inserting a column of their own); a title the log needs, gone, stops the run before it writes.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import { LOG_TAB, LOG_TITLES, type LoggedSchedule, schedulesOnTab } from '../support/inspection-log';
import {
  IMPORT,
  rows,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  syncLog,
  tab,
  typeLastInspected,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';

const TIME_ZONE = 'Pacific/Kiritimati';

/** The log's rows as displayed (titles left out). */
function logRows(harness: AddonHarness, name = LOG_TAB): string[][] {
  return harness.displayed(name).slice(1);
}

/** Today in the spreadsheet's zone, as the log shows a date. */
function today(harness: AddonHarness): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(
    new Date(harness.emulator.clock.now()),
  );
}

describe('the Inspection log', () => {
  let harness: AddonHarness;
  /** Each schedule: its type's id and title, its id and name, from the schedules tab. */
  let schedules: LoggedSchedule[];
  /** What the log held after each run, to check no row ever changes. */
  const logged: string[][] = [];

  function expectNothingLoggedChanged(current: string[][]): void {
    const key = (row: string[]) => JSON.stringify(row);
    const now = new Map<string, number>();
    for (const row of current) now.set(key(row), (now.get(key(row)) ?? 0) + 1);
    for (const row of logged) {
      const left = now.get(key(row)) ?? 0;
      expect(left).toBeGreaterThan(0);
      now.set(key(row), left - 1);
    }
  }

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 6, seed: 31 }, timeZone: TIME_ZONE });
    harness.connect();
    harness.clickMenu(IMPORT);
    schedules = schedulesOnTab(harness);
    expect(schedules.length).toBeGreaterThan(4);
  });
  afterAll(() => harness.done());

  test('an import that sees no date makes no log', () => {
    expect(
      workbook(harness)
        .sheets()
        .map((sheet) => sheet.name),
    ).not.toContain(LOG_TAB);
  });

  test('dates typed, then Show upcoming inspections: each logged once, with when, by whom and in which run', () => {
    typeLastInspected(harness, { [schedules[0]!.id]: '2024-01-15', [schedules[2]!.id]: '2023-12-31' });
    harness.clickMenu(SHOW_UPCOMING);

    const shown = harness.displayed(LOG_TAB);
    expect(shown[0]).toEqual(LOG_TITLES);
    // Who ran the import the Sync log names (the emulator's user).
    const user = rows(tab(harness, 'Sync log'), 'B', 'B')[0]![0]!;
    expect(user).toMatch(/@/);
    expect(logRows(harness)).toEqual(
      [
        [schedules[0]!, '2024-01-15'],
        [schedules[2]!, '2023-12-31'],
      ].map(([schedule, date]) => {
        const { typeTitle, typeId, name, id } = schedule as (typeof schedules)[number];
        return [
          typeTitle,
          typeId,
          name,
          id,
          date,
          expect.stringMatching(new RegExp(`^${today(harness)} `)),
          user,
          SHOW_UPCOMING,
        ];
      }),
    );
    expect(workbook(harness).ui.toasts.at(-1)!.message).toContain(
      '2 inspection dates added to "Inspection log".',
    );
    expect(tab(harness, LOG_TAB).notes('E1')[0]![0]).toBe(
      'Every date Safety Sync saw in "Last inspected" on the schedules tab, once, added by the first run ' +
        'that saw it (an import, a refresh, Show upcoming inspections). A date typed and replaced before ' +
        'the next run is not here: the log holds what the runs saw. Safety Sync only adds rows, at the ' +
        'bottom, and never changes one.',
    );
    // Anyone may still edit it, after a warning.
    expect(tab(harness, LOG_TAB).protections()).toEqual([
      expect.objectContaining({
        type: 'SHEET',
        description: 'Safety Sync: Inspection log (rows are only added)',
        warningOnly: true,
      }),
    ]);
    logged.splice(0, logged.length, ...logRows(harness));
  });

  test('the next inspection typed over the last: the import adds it below, and the one before stays', () => {
    typeLastInspected(harness, { [schedules[0]!.id]: '2024-02-20' });
    harness.clickMenu(IMPORT);

    const now = logRows(harness);
    expect(now).toHaveLength(3);
    expect(now.slice(0, 2)).toEqual(logged);
    expect(now[2]!.slice(0, 5)).toEqual([
      schedules[0]!.typeTitle,
      schedules[0]!.typeId,
      schedules[0]!.name,
      schedules[0]!.id,
      '2024-02-20',
    ]);
    expect(now[2]![7]).toBe(IMPORT);
    expect(syncLog(harness)[0]![8]).toContain('1 inspection date added to "Inspection log".');
    logged.splice(0, logged.length, ...now);
  });

  test('runs that see nothing new add nothing and say nothing of the log', () => {
    const alerts = workbook(harness).ui.alerts.length;
    harness.clickMenu('Refresh all');
    harness.clickMenu(SHOW_UPCOMING);
    expect(workbook(harness).ui.alerts).toHaveLength(alerts);
    expect(logRows(harness)).toEqual(logged);
    expect(workbook(harness).ui.toasts.at(-1)!.message).toMatch(/^Inspections: /);
    expect(workbook(harness).ui.toasts.at(-1)!.message).not.toContain('Inspection log');
  });

  test('a log with no spare rows below (deleted by the manager) grows for the new dates', () => {
    const log = tab(harness, LOG_TAB);
    log.deleteRows(log.lastRow + 1, log.maxRows - log.lastRow);
    expect(log.maxRows).toBe(log.lastRow);
    typeLastInspected(harness, { [schedules[1]!.id]: '2024-02-01' });

    harness.clickMenu(SHOW_UPCOMING);

    const now = logRows(harness);
    expect(now.slice(0, logged.length)).toEqual(logged);
    expect(now.slice(logged.length).map((row) => [row[3], row[4]])).toEqual([
      [schedules[1]!.id, '2024-02-01'],
    ]);
    // By the rows it needed, no more.
    expect(log.maxRows).toBe(log.lastRow);
    logged.splice(0, logged.length, ...now);
  });

  test('sorted, renamed, with a column of the manager’s own inserted: new dates go below, nothing logged twice or changed', () => {
    const log = tab(harness, LOG_TAB);
    log.sortSheet(5, false);
    log.rename('Evidence');
    log.insertColumnsBefore(2);
    workbook(harness).typeValues("'Evidence'!B1:B2", [['Checked by'], ['J. Smith']]);
    const sorted = logRows(harness, 'Evidence');

    typeLastInspected(harness, { [schedules[2]!.id]: '2024-03-01', [schedules[3]!.id]: '2024-02-29' });
    harness.clickMenu(SHOW_UPCOMING);

    const now = logRows(harness, 'Evidence');
    expect(now.slice(0, sorted.length)).toEqual(sorted);
    expect(now.slice(sorted.length).map((row) => [row[0], row[1], row[5]])).toEqual([
      [schedules[2]!.typeTitle, '', '2024-03-01'],
      [schedules[3]!.typeTitle, '', '2024-02-29'],
    ]);
    expect(
      workbook(harness)
        .sheets()
        .map((sheet) => sheet.name),
    ).not.toContain(LOG_TAB);
    expectNothingLoggedChanged(now.map((row) => [row[0]!, ...row.slice(2)]));
  });

  test('a title the log finds its rows by, gone: the run stops before it writes anything, and says what to put back', () => {
    const log = tab(harness, 'Evidence');
    const before = harness.displayed('Evidence');
    const upcomingBefore = harness.displayed(UPCOMING_TAB);
    workbook(harness).typeValues("'Evidence'!E1", [['Sched.']]);
    typeLastInspected(harness, { [schedules[1]!.id]: '2024-03-02' });

    harness.clickMenu(SHOW_UPCOMING);

    const alert = workbook(harness).ui.alerts.at(-1)!;
    expect(alert.message).toBe(
      'The "Evidence" tab has no "Schedule ID" column: Safety Sync finds the inspections it logged by their ' +
        'titles, and adds to them. Put the title back (or undo the change), then run it again. Nothing was changed.',
    );
    workbook(harness).typeValues("'Evidence'!C1", [['Type']]);
    harness.clickMenu(SHOW_UPCOMING);
    expect(workbook(harness).ui.alerts.at(-1)!.message).toMatch(
      /^The "Evidence" tab has no "Type ID", "Schedule ID" columns: /,
    );
    workbook(harness).typeValues("'Evidence'!C1", [['Type ID']]);
    expect(harness.displayed('Evidence').slice(1)).toEqual(before.slice(1));
    expect(harness.displayed(UPCOMING_TAB)).toEqual(upcomingBefore);
    expect(log.lastRow).toBe(before.length);

    workbook(harness).typeValues("'Evidence'!E1", [['Schedule ID']]);
    harness.clickMenu(SHOW_UPCOMING);
    expect(logRows(harness, 'Evidence')).toHaveLength(before.length);
  });

  test('the log deleted: the next run starts a new one with the dates it sees, and says so', () => {
    workbook(harness).deleteSheet('Evidence');
    // A run that sees no date makes no log, and still knows it was deleted.
    const dates = rows(tab(harness, SCHEDULES_TAB), 'G', 'G');
    workbook(harness).typeValues(
      `'${SCHEDULES_TAB}'!G2:G${dates.length + 1}`,
      dates.map(() => ['']),
    );
    harness.clickMenu(SHOW_UPCOMING);
    expect(
      workbook(harness)
        .sheets()
        .map((sheet) => sheet.name),
    ).not.toContain(LOG_TAB);
    workbook(harness).typeValues(`'${SCHEDULES_TAB}'!G2:G${dates.length + 1}`, dates);
    harness.clickMenu(SHOW_UPCOMING);

    const dated = rows(tab(harness, SCHEDULES_TAB), 'G', 'G').filter(([date]) => date !== '').length;
    expect(logRows(harness)).toHaveLength(dated);
    expect(workbook(harness).ui.toasts.at(-1)!.message).toContain(
      `${dated} inspection dates added to "Inspection log" (the "Inspection log" tab was deleted: a new log was started).`,
    );
  });

  test('a log cleared of everything, titles too: the next run writes its titles and every date it sees', () => {
    const log = tab(harness, LOG_TAB);
    workbook(harness).typeValues(
      `'${LOG_TAB}'!A1:H${log.lastRow}`,
      Array.from({ length: log.lastRow }, () => Array<string>(8).fill('')),
    );
    expect(log.lastRow).toBe(0);

    harness.clickMenu(SHOW_UPCOMING);

    const dated = rows(tab(harness, SCHEDULES_TAB), 'G', 'G').filter(([date]) => date !== '').length;
    expect(harness.displayed(LOG_TAB)[0]).toEqual(LOG_TITLES);
    expect(logRows(harness)).toHaveLength(dated);
  });

  test('every row deleted but the titles: the next run logs the dates it sees below them', () => {
    const log = tab(harness, LOG_TAB);
    log.deleteRows(2, log.lastRow - 1);
    expect(log.lastRow).toBe(1);

    harness.clickMenu(SHOW_UPCOMING);

    const dated = rows(tab(harness, SCHEDULES_TAB), 'G', 'G').filter(([date]) => date !== '').length;
    expect(logRows(harness)).toHaveLength(dated);
  });
});
