/**
 * A run its user may not finish refuses before it writes anything: a protection (not warning-only)
 * over the add-on's tabs that leaves the user out, or a spreadsheet shared with them to view only.
 * End to end: the built add-on in the emulator, which enforces protections and sharing as Google
 * does; the owner protects a column for themselves, as Data → Protect sheets and ranges does.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { syncLog } from '../support/equipment-tabs';

const EDITOR = 'editor@example.com';
const VIEWER = 'viewer@example.com';
const COMPLETIONS_TAB = 'Completed trainings';
const AUDIT = 'Audit: owner only';

const USER_SCRIPT = `
  function protectTabForMe(tabName, description) {
    var protection = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(tabName).protect()
      .setDescription(description);
    protection.removeEditors(protection.getEditors());
  }
  function removeEveryProtection(tabName) {
    var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(tabName);
    sheet.getProtections(SpreadsheetApp.ProtectionType.RANGE).forEach(function (p) { p.remove(); });
  }
  function protectForMe(tabName, a1, description) {
    var protection = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(tabName).getRange(a1)
      .protect().setDescription(description);
    protection.removeEditors(protection.getEditors());
  }
`;

let harness: AddonHarness;

beforeEach(async () => {
  harness = await createAddonHarness({
    dataset: { seed: 27, completions: 40, equipmentTypes: 2 },
    userScript: USER_SCRIPT,
  });
  harness.connect();
  harness.clickMenu('Refresh all');
});

/** The owner protects a column of Completed trainings for themselves only. */
function protectColumn(): void {
  harness.emulator.run('protectForMe', [COMPLETIONS_TAB, 'C1:C1000', AUDIT], {
    spreadsheetId: harness.spreadsheetId,
  });
}
afterEach(() => harness.done());

/** Every tab's displayed values but the Sync log's, which records each run. */
function tabs(): Record<string, string[][]> {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const names = workbook.sheetNames.filter((name) => name !== 'Sync log');
  return Object.fromEntries(names.map((name) => [name, harness.displayed(name)]));
}

function lastAlert(): string {
  const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
  return alerts[alerts.length - 1]?.message ?? '';
}

/** `email` saves their own connection (the dataset's valid token) through Settings. */
function connectAs(email: string): void {
  const { baseUrl } = harness.callServer('getSettings');
  harness.asUser(email).callServer('saveSettings', { baseUrl, token: harness.dataset.tokens.valid });
}

function clickAs(email: string, caption: string): void {
  harness.emulator.asUser(email).clickMenu(harness.spreadsheetId, 'Safety Sync', caption);
}

const REFUSAL = new RegExp(
  `the range ${COMPLETIONS_TAB}!C1:C1000 is protected \\("${AUDIT}"\\).*` +
    'Ask whoever protected it to add you as an editor of that protection, or remove the protection',
);

it("refuses an editor's Reconcile and Refresh all, naming the range, and changes no tab", () => {
  protectColumn();
  connectAs(EDITOR);
  harness.emulator.clock.advance(3_600_000);
  const before = tabs();
  for (const caption of ['Reconcile completed trainings', 'Refresh all']) {
    clickAs(EDITOR, caption);
    expect(lastAlert()).toMatch(REFUSAL);
    expect(tabs()).toEqual(before);
  }
});

it("refuses an editor's equipment import when the owner protected a linked tab, and changes none of them", () => {
  harness.clickMenu('Import equipment types');
  harness.emulator.run('protectTabForMe', ['Inspection forecast', 'Forecast: owner only'], {
    spreadsheetId: harness.spreadsheetId,
  });
  connectAs(EDITOR);
  const before = tabs();
  clickAs(EDITOR, 'Import equipment types');
  expect(lastAlert()).toMatch(
    /the tab "Inspection forecast" is protected \("Forecast: owner only"\).*add you as an editor of that protection/,
  );
  expect(tabs()).toEqual(before);
});

it("lets the owner's own run go through", () => {
  protectColumn();
  harness.emulator.clock.advance(3_600_000);
  harness.clickMenu('Refresh all');
  expect(lastAlert()).not.toMatch(/changed nothing/);
  expect(syncLog(harness)[0]!.join(' ')).toMatch(/Success/);
});

it("refuses a viewer's run: they can only view the spreadsheet", () => {
  protectColumn();
  connectAs(VIEWER);
  harness.emulator.share(harness.spreadsheetId, VIEWER, 'viewer');
  const before = tabs();
  clickAs(VIEWER, 'Reconcile completed trainings');
  expect(lastAlert()).toMatch(/you can only view this spreadsheet/);
  expect(tabs()).toEqual(before);
  // Refresh all too: the refusal, and not even the status notes on the tabs.
  clickAs(VIEWER, 'Refresh all');
  expect(lastAlert()).toMatch(/you can only view this spreadsheet/);
  expect(tabs()).toEqual(before);
});

it("refuses a viewer's Refresh all with nothing new, after the owner removed the add-on's own protections", () => {
  harness.emulator.run('removeEveryProtection', [COMPLETIONS_TAB], { spreadsheetId: harness.spreadsheetId });
  connectAs(VIEWER);
  harness.emulator.share(harness.spreadsheetId, VIEWER, 'viewer');
  harness.emulator.clock.advance(3_600_000);
  const before = tabs();
  clickAs(VIEWER, 'Refresh all');
  expect(lastAlert()).toMatch(/you can only view this spreadsheet/);
  expect(tabs()).toEqual(before);
});

it('pauses a schedule owned by the editor after two refused runs', () => {
  protectColumn();
  connectAs(EDITOR);
  expect(harness.asUser(EDITOR).callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  const before = tabs();
  for (let run = 0; run < 2; run++) {
    harness.emulator.clock.advance(3_600_000);
    for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
  }
  expect(tabs()).toEqual(before);
  expect(harness.emulator.triggers()).toEqual([]);
  const log = syncLog(harness).map((row) => row.join(' '));
  expect(log.filter((line) => REFUSAL.test(line)).length).toBeGreaterThanOrEqual(2);
  expect(
    log.filter((line) => /paused itself: 2 runs in a row failed with protected/.test(line)),
  ).toHaveLength(1);
});
