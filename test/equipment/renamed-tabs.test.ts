/**
 * The equipment tabs renamed by their user: found by their sheet ids, refreshed under the user's
 * names by Refresh all and Show upcoming inspections, linked to each other as before, and "Last
 * refreshed" stamped only because they really were refreshed.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import { IMPORT, rows, SHOW_UPCOMING, syncLog, tab, workbook } from '../support/equipment-tabs';

/** What a user does from the tab's context menu, as a script can (Sheet.setName). */
const RENAME_SCRIPT = `
function renameTab_(from, to) {
  SpreadsheetApp.getActiveSpreadsheet().getSheetByName(from).setName(to);
}`;

const lastRefreshed = (harness: AddonHarness) =>
  workbook(harness)
    .developerMetadata()
    .find((item) => item.key === 'safetySync.lastRefreshed')?.value ?? null;

describe('equipment tabs under names their user gave them', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { equipmentTypes: 12, completions: 50, seed: 1 },
      userScript: RENAME_SCRIPT,
    });
    harness.connect();
    harness.clickMenu(IMPORT);
    for (const [from, to] of [
      ['Equipment types', 'Kit'],
      ['Inspection schedules', 'Checks'],
      ['Upcoming inspections', 'Due soon'],
    ]) {
      harness.emulator.run('renameTab_', [from, to], { spreadsheetId: harness.spreadsheetId });
    }
  });
  afterAll(() => harness.done());

  test('Refresh all refreshes them under those names and stamps "Last refreshed"', async () => {
    const types = (await harness.dataset.data()).equipmenttypes;
    await harness.dataset.mutate({ renameEquipmentTypes: [{ id: types[2]!.id, title: 'Renamed upstream' }] });
    const namesBefore = workbook(harness).sheetNames;
    expect(lastRefreshed(harness)).toBeNull();

    harness.clickMenu('Refresh all');

    expect(
      syncLog(harness)
        .slice(0, 2)
        .map((line) => [line[0], line[5]]),
    ).toEqual([
      ['Refresh equipment types', 'Success'],
      ['Refresh completed trainings', 'Success'],
    ]);
    // Completed trainings and the training tabs are new (its first import); no equipment tab was made again.
    expect(workbook(harness).sheetNames).toEqual([
      ...namesBefore,
      'Completed trainings',
      'Trainings',
      'People',
      'Requirements',
      'Exemptions',
      'Training matrix',
      'Expiring trainings',
      'Compliance history',
    ]);
    expect(tab(harness, 'Kit').displayValues('B4')).toEqual([['Renamed upstream']]);
    // The schedules of the renamed type link back to its row on the renamed types tab.
    const checks = rows(tab(harness, 'Checks'), 'A', 'B').filter(([typeId]) => typeId === types[2]!.id);
    expect(checks.length).toBe(types[2]!.schedules.length);
    expect(checks.every(([, title]) => title === 'Renamed upstream')).toBe(true);
    expect(lastRefreshed(harness)).not.toBeNull();
  });

  test('Show upcoming inspections recomputes them under those names, making no tab of its own', () => {
    const namesBefore = workbook(harness).sheetNames;
    harness.clickMenu(SHOW_UPCOMING);
    expect(workbook(harness).sheetNames).toEqual(namesBefore);
    // It ends on the Overview, whose counts link to the renamed tab it recomputed.
    expect(workbook(harness).activeSheetName).toBe('Overview');
    const { gid } = workbook(harness).sheet('Due soon');
    expect(workbook(harness).sheet('Overview').formulas('D3')[0]![0]).toContain(`#gid=${gid}&`);
  });
});
