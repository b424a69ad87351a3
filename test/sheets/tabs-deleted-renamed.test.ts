/**
 * The add-on's tabs deleted and renamed by their user between runs (issue #27, point 4), through the
 * emulator's real Spreadsheet.deleteSheet and Sheet.setName, called by a user script as the tab's
 * Delete and Rename would:
 * - the hidden staging tab of an import that needs several executions, deleted between two of them:
 *   the next one says so, starts again from page 1, and the tab ends exactly the service's list;
 * - an equipment tab deleted: Refresh all refuses, naming it and what to do, and leaves the others as
 *   they were; Import equipment types makes it again, linked to the others;
 * - every tab the add-on finds by sheet id renamed (the equipment tabs, the Overview): each menu
 *   action finds them, the links between tabs still lead to tabs that are there, the Sync log is
 *   written, and no second copy of a tab is made.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, METAFIELDS_TAB, syncLog, workbook } from '../support/equipment-tabs';
import { servedRowKeys, shownRowKeys } from '../support/completion-rows';

const COMPLETIONS_TAB = 'Completed trainings';
const STAGING_TAB = 'Safety Sync staging';

/** What a user does from a tab's menu (Delete, Rename), as a script does it. */
const USER_SCRIPT = `
function deleteTab_(name) {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  spreadsheet.deleteSheet(spreadsheet.getSheetByName(name));
}
function renameTab_(from, to) {
  SpreadsheetApp.getActiveSpreadsheet().getSheetByName(from).setName(to);
}`;

function deleteTab(harness: AddonHarness, name: string): void {
  harness.emulator.run('deleteTab_', [name], { spreadsheetId: harness.spreadsheetId });
}

function renameTab(harness: AddonHarness, from: string, to: string): void {
  harness.emulator.run('renameTab_', [from, to], { spreadsheetId: harness.spreadsheetId });
}

/** Every `#gid=` link in the workbook, with the tab it is on: [tab, target gid]. */
function gidLinks(harness: AddonHarness): [string, number][] {
  return workbook(harness)
    .sheets()
    .flatMap((sheet) =>
      sheet.lastRow === 0
        ? []
        : sheet
            .cells()
            .flat()
            .flatMap((cell) => {
              const gid = /^#gid=(\d+)/.exec(cell.link ?? '')?.[1];
              return gid === undefined ? [] : [[sheet.name, Number(gid)] as [string, number]];
            }),
    );
}

/** Whether every `#gid=` link leads to a tab of the workbook. */
function brokenLinks(harness: AddonHarness): [string, number][] {
  const gids = new Set(
    workbook(harness)
      .sheets()
      .map((sheet) => sheet.gid),
  );
  return gidLinks(harness).filter(([, gid]) => !gids.has(gid));
}

describe('the staging tab of an unfinished import, deleted between executions', () => {
  test('the next execution says so, starts again from page 1, and the tab ends exactly the service’s list', async () => {
    // 6,000 records over a slow network (60 s of emulated time a round trip, one page a round): the
    // first execution stages some pages and pauses (as test/completions/import-staging.test.ts).
    const harness = await createAddonHarness({
      dataset: { seed: 81, completions: 6_000, users: 20 },
      emulator: { urlFetchRoundTripMs: 60_000 },
      userScript: USER_SCRIPT,
    });
    harness.connect();
    harness.useBatchSize(1);

    expect(harness.callServer('startCompletionsImport', {}).done).toBe(false);
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
      userScript: USER_SCRIPT,
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

/**
 * The tabs the add-on still finds by their usual name only (src/platform/sync-log.ts,
 * src/completions/import.ts, src/trainings/training-tabs.ts): renamed, a run makes a second copy
 * under the usual name. Left for the issue that finds every tab by its sheet id (#27).
 */
const FOUND_BY_NAME = [
  'Sync log',
  'Completed trainings',
  'Trainings',
  'Training matrix',
  'Expiring trainings',
];

/** A spreadsheet with every import done once, and its tabs in `renamed` renamed "… (mine)". */
async function importedAndRenamed(seed: number, renamed: (name: string) => boolean): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { equipmentTypes: 12, completions: 50, seed },
    userScript: USER_SCRIPT,
  });
  harness.connect();
  harness.clickMenu(IMPORT);
  harness.clickMenu('Refresh all');
  for (const name of workbook(harness).sheetNames.filter(renamed)) renameTab(harness, name, `${name} (mine)`);
  return harness;
}

describe('every tab the add-on finds by sheet id, renamed by its user', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await importedAndRenamed(83, (name) => !FOUND_BY_NAME.includes(name));
  });
  afterAll(() => harness.done());

  test.each([
    ['Import equipment types', true],
    ['Refresh all', true],
    ['Show upcoming inspections', false],
    ['Show training status', false],
    ['Reconcile completed trainings', true],
  ])('%s finds its tabs under their new names and makes no second copy', (caption, logs) => {
    const namesBefore = workbook(harness).sheetNames;
    expect(namesBefore.filter((name) => name.endsWith(' (mine)')).length).toBeGreaterThanOrEqual(5);
    const logBefore = syncLog(harness).length;

    harness.clickMenu(caption);

    expect(workbook(harness).sheetNames).toEqual(namesBefore);
    if (logs) {
      // Refresh all logs a line a job; every line of this run is a success.
      const added = syncLog(harness).slice(0, syncLog(harness).length - logBefore);
      expect(added.length).toBeGreaterThan(0);
      expect(added.map((line) => line[5])).toEqual(added.map(() => 'Success'));
    }
    expect(gidLinks(harness).length).toBeGreaterThan(0);
    expect(brokenLinks(harness)).toEqual([]);
  });
});
