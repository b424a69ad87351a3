/**
 * The add-on's tabs deleted and renamed by their user between runs (issue #27, point 4), through the
 * emulator's real Spreadsheet.deleteSheet and Sheet.setName, called by a user script as the tab's
 * Delete and Rename would:
 * - the hidden staging tab of an import that needs several executions, deleted between two of them:
 *   the next one says so, starts again from page 1, and the tab ends exactly the service's list;
 * - an equipment tab deleted: Refresh all refuses, naming it and what to do, and leaves the others as
 *   they were; Import equipment types makes it again, linked to the others;
 * - every tab the add-on makes renamed (Completed trainings, the staging tab of an import going on,
 *   the Sync log, the training tabs, the equipment tabs, the Overview): each menu action, a full
 *   import, a custom function and a scheduled refresh find them under their new names, the links
 *   between tabs lead to tabs that are there, the Sync log's lines go to the renamed log, and no tab
 *   is made again under an old name;
 * - a tab renamed into the name the add-on gives another: neither is written as the other;
 * - Completed trainings, training tabs and the Sync log deleted: made again, and said once in the
 *   Sync log; a tab of the user's that took the usual name meanwhile is left alone.
 */
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { IMPORT, METAFIELDS_TAB, rows, syncLog, tab, workbook } from '../support/equipment-tabs';
import { servedRowKeys, shownRowKeys } from '../support/completion-rows';
import { brokenLinks, deleteTab, gidLinks, insertTab, renameTab, TAB_EDITS_SCRIPT } from './tab-edits';

const COMPLETIONS_TAB = 'Completed trainings';
const STAGING_TAB = 'Safety Sync staging';

/** The alerts since the `from`th that say a menu action failed (a tab it did not find, say). */
function failureAlerts(harness: AddonHarness, from: number): string[] {
  return workbook(harness)
    .ui.alerts.slice(from)
    .flatMap((alert) => (/failed$/.test(alert.title ?? '') ? [alert.message] : []));
}

/**
 * 6,000 records over a slow network (60 s of emulated time a round trip, one page a round): the
 * import's first execution stages some pages and pauses (as test/trainings/completions/import-staging.test.ts).
 */
async function importPausedWithStaging(seed: number): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed, completions: 6_000, users: 20 },
    emulator: { urlFetchRoundTripMs: 60_000 },
    userScript: TAB_EDITS_SCRIPT,
  });
  harness.connect();
  harness.useBatchSize(1);
  expect(harness.callServer('startCompletionsImport', {}).done).toBe(false);
  return harness;
}

describe('the staging tab of an unfinished import, deleted between executions', () => {
  test('the next execution says so, starts again from page 1, and the tab ends exactly the service’s list', async () => {
    const harness = await importPausedWithStaging(81);
    expect(workbook(harness).sheetNames).toContain(STAGING_TAB);
    // Nothing half-written: the visible tab gets the records only when the import ends.
    const shownBefore = workbook(harness).sheetNames.includes(COMPLETIONS_TAB)
      ? harness.displayed(COMPLETIONS_TAB).length
      : 0;
    expect(shownBefore).toBeLessThanOrEqual(1);

    deleteTab(harness, STAGING_TAB);

    const summaries: string[] = [];
    for (let step = harness.callServer('continueCompletionsImport'); ;) {
      summaries.push(step.summary);
      if (step.done) break;
      expect(summaries.length).toBeLessThan(15);
      step = harness.callServer('continueCompletionsImport');
    }

    expect(summaries[0]).toMatch(
      /^The hidden "Safety Sync staging" tab no longer held the records the unfinished import had read \(it was deleted, cleared or edited\), so the import started again from page 1\./,
    );
    expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
    const log = harness.displayed('Sync log').slice(1);
    expect(log[0]![7]).toBe('Success');
    expect(log.some((line) => /started again from page 1/.test(line[10]!))).toBe(true);
    // One staging tab at most, holding nothing once the import is done.
    expect(workbook(harness).sheetNames.filter((name) => name === STAGING_TAB).length).toBeLessThanOrEqual(1);
    if (workbook(harness).sheetNames.includes(STAGING_TAB))
      expect(workbook(harness).sheet(STAGING_TAB).lastRow).toBe(0);
    await harness.done();
  });
});

describe('an equipment tab deleted by its user', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { equipmentTypes: 12, completions: 50, seed: 82 },
      userScript: TAB_EDITS_SCRIPT,
    });
    harness.connect();
    harness.clickMenu(IMPORT);
    deleteTab(harness, METAFIELDS_TAB);
  });
  afterAll(() => harness.done());

  test('Refresh all refuses the equipment refresh, naming the tab and what to do, and changes no other tab', async () => {
    const types = (await harness.dataset.data()).equipmenttypes;
    await harness.dataset.mutate({ renameEquipmentTypes: [{ id: types[0]!.id, title: 'Renamed upstream' }] });
    const others = ['Equipment types', 'Inspection schedules', 'Upcoming inspections', 'Inspection forecast'];
    const valuesBefore = others.map((name) => [name, harness.displayed(name)]);

    harness.clickMenu('Refresh all');

    const line = syncLog(harness).find(([action]) => action === 'Refresh equipment types')!;
    expect(line[5]).not.toBe('Success');
    expect(line.join(' ')).toContain(
      'The "Equipment metafields" tab was deleted, so equipment types were not refreshed. ' +
        'Use Safety Sync → Import equipment types to make the equipment tabs again.',
    );
    expect(workbook(harness).sheetNames).not.toContain(METAFIELDS_TAB);
    // Upstream changed, yet the other tabs are as they were: linked tabs change together or not at all.
    expect(others.map((name) => [name, harness.displayed(name)])).toEqual(valuesBefore);
  });

  test('Import equipment types makes it again, linked to the others, and says so', () => {
    const namesBefore = workbook(harness).sheetNames;

    harness.clickMenu(IMPORT);

    expect(workbook(harness).sheetNames).toEqual([...namesBefore, METAFIELDS_TAB]);
    const line = syncLog(harness)[0]!;
    expect([line[0], line[5]]).toEqual(['Import equipment types', 'Success']);
    expect(line.join(' ')).toContain('The "Equipment metafields" tab was deleted and made again.');
    expect(harness.displayed('Equipment types')).toContainEqual(expect.arrayContaining(['Renamed upstream']));
    // Every link between the tabs leads to a tab that is there, the new one's included.
    const metafieldsGid = workbook(harness).sheet(METAFIELDS_TAB).gid;
    expect(gidLinks(harness).some(([, gid]) => gid === metafieldsGid)).toBe(true);
    expect(gidLinks(harness).some(([on]) => on === METAFIELDS_TAB)).toBe(true);
    expect(brokenLinks(harness)).toEqual([]);
  });
});

const MINE = ' (mine)';
const SYNC_LOG = 'Sync log';

/** The Sync log's lines, newest first, from Action (C) to Details (K), under whatever name it has. */
function logLines(harness: AddonHarness, name = SYNC_LOG): string[][] {
  return rows(tab(harness, name), 'C', 'K');
}

/** A spreadsheet with every import done once, and the training tabs and the Overview written. */
async function everyTabWritten(seed: number, options: Partial<HarnessOptions> = {}): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { equipmentTypes: 12, completions: 50, seed },
    userScript: TAB_EDITS_SCRIPT,
    ...options,
  });
  harness.connect();
  harness.clickMenu(IMPORT);
  harness.clickMenu('Refresh all');
  return harness;
}

/** Every tab the add-on made (all but the workbook's own first tab), renamed "… (mine)". */
function renameEveryAddonTab(harness: AddonHarness): string[] {
  const names = workbook(harness).sheetNames.filter((name) => name !== 'Sheet1');
  for (const name of names) renameTab(harness, name, `${name}${MINE}`);
  return names;
}

/** A full import, from its dialog's Import to its last execution. */
function fullImport(harness: AddonHarness): string {
  for (let step = harness.callServer('startCompletionsImport', {}), executions = 1; ; executions++) {
    if (step.done) return step.summary;
    expect(executions).toBeLessThan(15);
    step = harness.callServer('continueCompletionsImport');
  }
}

/** The next run of an hourly schedule, fired as Google fires its trigger. */
function scheduledRefresh(harness: AddonHarness): void {
  harness.emulator.clock.advance(3_600_000);
  for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
}

describe('every tab the add-on makes, renamed by its user', () => {
  let harness: AddonHarness;
  let renamed: string[];
  /** SAFETY_TRAINING_STATUS's arguments (three people, a training) and its answer before the renaming. */
  let statusArgs: unknown[];
  let statusBefore: unknown;

  beforeAll(async () => {
    harness = await everyTabWritten(83);
    expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
    const people = harness
      .displayed('Completed trainings')
      .slice(1, 4)
      .map((row) => [row[0]]);
    const training = harness.displayed('Completed trainings')[1]![2];
    statusArgs = [people, training];
    statusBefore = harness.emulator.customFunction(
      harness.spreadsheetId,
      'SAFETY_TRAINING_STATUS',
      statusArgs,
    );
    renamed = renameEveryAddonTab(harness);
  });
  afterAll(() => harness.done());

  test('every tab the add-on writes is renamed: Completed trainings, the Sync log, the training and equipment tabs, the Overview', () => {
    expect(renamed).toEqual(
      expect.arrayContaining([
        'Completed trainings',
        SYNC_LOG,
        'Trainings',
        'Training matrix',
        'Expiring trainings',
        'Equipment types',
        METAFIELDS_TAB,
        'Inspection schedules',
        'Upcoming inspections',
        'Inspection forecast',
        'Overview',
      ]),
    );
  });

  test.each<[string, (harness: AddonHarness) => void, boolean]>([
    ['Import equipment types', (h) => h.clickMenu(IMPORT), true],
    ['Refresh all', (h) => h.clickMenu('Refresh all'), true],
    ['Reconcile completed trainings', (h) => h.clickMenu('Reconcile completed trainings'), true],
    ['a full import', (h) => fullImport(h), true],
    ['Show upcoming inspections', (h) => h.clickMenu('Show upcoming inspections'), false],
    ['Show training status', (h) => h.clickMenu('Show training status'), false],
    ['a scheduled refresh', scheduledRefresh, true],
  ])(
    '%s finds every tab under its new name, makes none again, and logs in the renamed Sync log',
    (_, act, logs) => {
      const namesBefore = workbook(harness).sheetNames;
      const logBefore = logLines(harness, SYNC_LOG + MINE).length;
      const shownBefore = shownRowKeys(harness, 'Completed trainings' + MINE);
      const alertsBefore = workbook(harness).ui.alerts.length;

      act(harness);

      expect(failureAlerts(harness, alertsBefore)).toEqual([]);
      expect(workbook(harness).sheetNames).toEqual(namesBefore);
      const added = logLines(harness, SYNC_LOG + MINE).slice(
        0,
        logLines(harness, SYNC_LOG + MINE).length - logBefore,
      );
      if (logs) {
        expect(added.length).toBeGreaterThan(0);
        expect(added.map((line) => line[5])).toEqual(added.map(() => 'Success'));
      }
      // The renamed tab still holds the service's list, once: nothing was written beside it.
      expect(shownRowKeys(harness, 'Completed trainings' + MINE)).toEqual(shownBefore);
      expect(gidLinks(harness).length).toBeGreaterThan(0);
      expect(brokenLinks(harness)).toEqual([]);
    },
  );

  test('a custom function reads the renamed Completed trainings and Trainings tabs', () => {
    expect(statusBefore).toMatchObject({ value: expect.any(Array) });
    expect(
      harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_TRAINING_STATUS', statusArgs),
    ).toEqual(statusBefore);
    expect(workbook(harness).sheetNames.filter((name) => renamed.includes(name))).toEqual([]);
  });
});

describe('the staging tab of an unfinished import, renamed by its user between executions', () => {
  test('the import goes on from what it staged, under the new name, and makes no second staging tab', async () => {
    const harness = await importPausedWithStaging(84);
    renameTab(harness, STAGING_TAB, STAGING_TAB + MINE);

    const summary = fullImportGoingOn(harness);

    expect(summary).not.toMatch(/started again from page 1/);
    expect(logLines(harness).some((line) => /started again from page 1/.test(line[10]!))).toBe(false);
    expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
    expect(workbook(harness).sheetNames).not.toContain(STAGING_TAB);
    expect(workbook(harness).sheet(STAGING_TAB + MINE).lastRow).toBe(0);
    await harness.done();
  });
});

/** The executions of an import going on, to its end; the last one's summary. */
function fullImportGoingOn(harness: AddonHarness): string {
  for (let executions = 1; ; executions++) {
    const step = harness.callServer('continueCompletionsImport');
    if (step.done) return step.summary;
    expect(executions).toBeLessThan(15);
  }
}

describe('a tab renamed into the name the add-on gives another', () => {
  test('Show training status writes each training tab where it is, and no tab as another', async () => {
    const harness = await everyTabWritten(85);
    renameTab(harness, 'Trainings', 'Trainings' + MINE);
    renameTab(harness, 'Training matrix', 'Trainings');
    const namesBefore = workbook(harness).sheetNames;
    const alertsBefore = workbook(harness).ui.alerts.length;

    harness.clickMenu('Show training status');

    expect(failureAlerts(harness, alertsBefore)).toEqual([]);
    expect(workbook(harness).sheetNames).toEqual(namesBefore);
    // The catalogue's titles on the catalogue, the matrix's frozen rows and columns on the matrix.
    expect(harness.displayed('Trainings' + MINE)[0]!.slice(0, 3)).toEqual([
      'Training ID',
      'People',
      'Last completed',
    ]);
    expect(harness.displayed('Trainings')[0]).not.toContain('Last completed');
    expect(brokenLinks(harness)).toEqual([]);
    await harness.done();
  });
});

describe('Completed trainings, training tabs and the Sync log deleted by their user', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await everyTabWritten(86);
  });
  afterAll(() => harness.done());

  test('Refresh all makes Completed trainings again, whole, and says so once', async () => {
    deleteTab(harness, 'Completed trainings');

    harness.clickMenu('Refresh all');

    expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
    const saying = (text: string) => logLines(harness).filter((line) => line.join(' ').includes(text));
    expect(saying('The "Completed trainings" tab was deleted and made again.')).toHaveLength(1);
    expect(brokenLinks(harness)).toEqual([]);

    harness.clickMenu('Refresh all');
    expect(saying('The "Completed trainings" tab was deleted and made again.')).toHaveLength(1);
  });

  test('Refresh all makes deleted training tabs again, linked, and says so once', () => {
    deleteTab(harness, 'Training matrix');
    deleteTab(harness, 'Expiring trainings');
    const sentence = 'The tabs "Training matrix", "Expiring trainings" were deleted and made again.';
    const saying = () => logLines(harness).filter((line) => line.join(' ').includes(sentence));

    harness.clickMenu('Refresh all');

    expect(workbook(harness).sheetNames).toEqual(
      expect.arrayContaining(['Training matrix', 'Expiring trainings']),
    );
    expect(saying()).toHaveLength(1);
    const matrixGid = workbook(harness).sheet('Training matrix').gid;
    expect(gidLinks(harness)).toContainEqual(['Expiring trainings', matrixGid]);
    expect(brokenLinks(harness)).toEqual([]);

    harness.clickMenu('Refresh all');
    expect(saying()).toHaveLength(1);
  });

  test('the next run makes the Sync log again, says so in its first line, and only there', () => {
    deleteTab(harness, SYNC_LOG);

    harness.clickMenu('Reconcile completed trainings');

    expect(logLines(harness)).toHaveLength(1);
    expect(logLines(harness)[0]!.join(' ')).toContain('The "Sync log" tab was deleted and made again.');
    harness.clickMenu('Reconcile completed trainings');
    expect(logLines(harness)).toHaveLength(2);
    expect(logLines(harness)[0]!.join(' ')).not.toContain('deleted and made again');
  });

  test('a tab of the user’s that took the usual name is left alone: the Sync log is made under another', () => {
    deleteTab(harness, SYNC_LOG);
    insertTab(harness, SYNC_LOG);

    harness.clickMenu('Reconcile completed trainings');

    expect(harness.displayed(SYNC_LOG)).toEqual([['mine']]);
    const made = logLines(harness, 'Safety Sync sync log');
    expect(made).toHaveLength(1);
    expect(made[0]!.join(' ')).toContain('The "Sync log" tab was deleted and made again.');
  });
});
