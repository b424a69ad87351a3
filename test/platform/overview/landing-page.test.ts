/**
 * The Overview as the landing page, end to end: the built add-on in the emulator against the sample
 * service. It is made as the first tab, and a run started from the menu (or the import dialog) that
 * wrote it ends on it (the "Show …" items too: they rewrite it), and a trigger's run leaves the
 * active tab where it was (it would reach no one's open spreadsheet).
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { IMPORT, SHOW_UPCOMING, UPCOMING_TAB, workbook } from '../../support/equipment-tabs';

const HOUR = 3_600_000;

let harness: AddonHarness;

beforeAll(async () => {
  harness = await createAddonHarness({
    dataset: { seed: 31, completions: 300, users: 12, trainings: 4, equipmentTypes: 5 },
    timeZone: 'Europe/Berlin',
    emulator: { startTime: Date.UTC(2024, 8, 20, 9, 0) },
    // The user clicking a tab.
    userScript: `
      function openTab_(name) {
        SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).activate();
      }`,
  });
  harness.connect();
});

function openTab(name: string): void {
  harness.emulator.run('openTab_', [name], { spreadsheetId: harness.spreadsheetId });
  expect(workbook(harness).activeSheetName).toBe(name);
}
afterAll(() => harness.done());

function importAllFromTheDialog(): void {
  let step = harness.callServer('startCompletionsImport', {});
  while (!step.done) step = harness.callServer('continueCompletionsImport');
}

function overviewRefreshedAt(): string {
  return workbook(harness).sheet('Overview').displayValues('B2')[0]![0]!;
}

test('Refresh all makes the Overview the first tab, and ends on it', () => {
  importAllFromTheDialog();
  expect(workbook(harness).sheetNames).not.toContain('Overview');
  harness.clickMenu('Refresh all');
  expect(workbook(harness).sheetNames[0]).toBe('Overview');
  expect(workbook(harness).activeSheetName).toBe('Overview');
});

test('Import equipment types adds its tabs after the others and ends on the Overview', () => {
  openTab('Training matrix');
  harness.clickMenu(IMPORT);
  const names = workbook(harness).sheetNames;
  expect(names[0]).toBe('Overview');
  expect(names.at(-1)).toBe('Inspection forecast');
  expect(workbook(harness).activeSheetName).toBe('Overview');
});

test('the "Show" items and a reconciliation from the menu end on the Overview they rewrote', () => {
  for (const item of [SHOW_UPCOMING, 'Reconcile completed trainings', 'Show training status']) {
    openTab(UPCOMING_TAB);
    harness.clickMenu(item);
    expect(workbook(harness).activeSheetName).toBe('Overview');
  }
  openTab('Training matrix');
});

test('the scheduled refresh writes the Overview and leaves the active tab where it was', () => {
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  const before = overviewRefreshedAt();
  harness.emulator.clock.advance(2 * HOUR);
  const triggers = harness.emulator.triggers();
  expect(triggers).toHaveLength(1);
  harness.emulator.fireTrigger(triggers[0]!.uid);
  expect(overviewRefreshedAt()).not.toBe(before);
  expect(workbook(harness).activeSheetName).toBe('Training matrix');
  expect(workbook(harness).sheetNames[0]).toBe('Overview');
});
