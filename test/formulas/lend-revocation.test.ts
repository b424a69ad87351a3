/**
 * A token lent to formulas can be taken back from everywhere: its lender removes or replaces it in
 * one spreadsheet, and the formulas of every other spreadsheet they lent it to stop before sending
 * anything. Through the built add-on in the emulator, with two spreadsheets and a second user.
 */
import { type AddonHarness, createAddonHarness, type ServerCaller, serverOf } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';
import type { SettingsView } from '../../src/settings/settings-dialog';

const EDITOR = 'editor@example.com';
const FIRST = 'Safety';
const SECOND = 'Second site';
const WITHDRAWN =
  'SAFETY_USER: Formulas in this spreadsheet may not call the safety service: the person who lent them a token ' +
  'has withdrawn it, so nothing was requested. Someone with an API token can allow it: Safety Sync → Settings… → ' +
  'tick "Formulas in this spreadsheet may use my token".';

let harness: AddonHarness;
let secondId: string;
/** The owner in the second spreadsheet. */
let second: ServerCaller;
let userId: string;
let userName: string;

beforeEach(async () => {
  // Lending reaches formulas only where Google lets them read the document properties.
  harness = await createAddonHarness({
    dataset: { completions: 20, users: 5, seed: 26 },
    emulator: { readings: { documentStoresInCustomFunction: true } },
  });
  secondId = harness.emulator.createSpreadsheet({ name: SECOND, timeZone: 'Europe/London' });
  harness.emulator.onOpen(secondId, { authMode: 'LIMITED' });
  second = serverOf(harness.emulator, secondId);
  harness.connect();
  const [user] = (await harness.dataset.data()).users;
  userId = user!.id;
  userName = user!.name;
});

afterEach(() => harness.done());

/** =SAFETY_USER(userId) in that spreadsheet; the requests it sent, and every token they carried. */
function formulaIn(spreadsheetId: string): { value?: unknown; error?: string; tokens: string[] } {
  const before = harness.emulator.urlFetch.requests.length;
  const result = harness.emulator.customFunction(spreadsheetId, 'SAFETY_USER', [userId]);
  const sent = harness.emulator.urlFetch.requests.slice(before);
  return {
    ...result,
    tokens: sent.map((request) => (JSON.parse(String(request.payload)) as { token: string }).token),
  };
}

/** Safety Sync → Settings… in that spreadsheet: the menu item, then the dialog's first call. */
function openSettings(spreadsheetId: string, as: ServerCaller): SettingsView {
  harness.emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Settings…');
  return as.callServer('getSettings');
}

function lentCopyKeys(spreadsheetId: string): string[] {
  return harness.emulator.properties
    .document(spreadsheetId)
    .keys()
    .filter((key) => key.startsWith('safetySync.formula'));
}

function lentNames(as: ServerCaller): string[] {
  return as.callServer('getSettings').formulaLends.map((lend) => lend.spreadsheetName);
}

test('Remove token in another spreadsheet: formulas in the first send nothing and say it was withdrawn; Settings there drops the copy', () => {
  const { valid } = harness.dataset.tokens;
  harness.callServer('setFormulaAccess', true);
  second.callServer('setFormulaAccess', true);
  expect(lentNames(second)).toEqual([FIRST, SECOND]);
  expect(formulaIn(harness.spreadsheetId)).toEqual({ value: userName, tokens: [valid] });

  expect(second.callServer('removeToken').formulaLends).toEqual([]);

  // Cached answers included: nothing is read, nothing is sent.
  expect(formulaIn(harness.spreadsheetId)).toEqual({ error: WITHDRAWN, tokens: [] });
  expect(formulaIn(secondId).tokens).toEqual([]);
  // A custom function may not write properties: the copy waits for a user in that spreadsheet.
  expect(lentCopyKeys(harness.spreadsheetId).length).toBeGreaterThan(0);
  expect(openSettings(harness.spreadsheetId, harness)).toMatchObject({
    formulaAccess: false,
    formulaLends: [],
  });
  expect(lentCopyKeys(harness.spreadsheetId)).toEqual([]);
  expect(formulaIn(harness.spreadsheetId).error).toMatch(
    /may not call the safety service yet, so nothing was requested/,
  );
});

test('a different token saved in another spreadsheet revokes the lend in the first; formulas where it was saved follow it', () => {
  const { valid, noPermission } = harness.dataset.tokens;
  harness.callServer('setFormulaAccess', true);
  second.callServer('setFormulaAccess', true);
  expect(formulaIn(harness.spreadsheetId).tokens).toEqual([valid]);

  const saved = second.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: noPermission });
  expect(saved).toMatchObject({ ok: true, settings: { formulaAccess: true } });

  expect(formulaIn(harness.spreadsheetId)).toEqual({ error: WITHDRAWN, tokens: [] });
  expect(formulaIn(secondId).tokens).toEqual([noPermission]);
  expect(lentNames(second)).toEqual([SECOND]);
  // The next import started in the first spreadsheet deletes the revoked copy there.
  harness.clickMenu('Refresh all');
  expect(lentCopyKeys(harness.spreadsheetId)).toEqual([]);
  expect(harness.callServer('getSettings').formulaAccess).toBe(false);
});

test('saving the same token again revokes nothing', () => {
  harness.callServer('setFormulaAccess', true);
  second.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: '' });
  harness.connect();
  expect(formulaIn(harness.spreadsheetId).value).toBe(userName);
  expect(lentNames(second)).toEqual([FIRST]);
  expect(harness.emulator.properties.script.keys().filter((key) => key.includes('revoked'))).toEqual([]);
});

test("any editor may turn it off; the lender's list then leaves that spreadsheet out", () => {
  const editor = harness.asUser(EDITOR);
  harness.callServer('setFormulaAccess', true);
  second.callServer('setFormulaAccess', true);
  expect(editor.callServer('setFormulaAccess', false).formulaAccess).toBe(false);
  expect(formulaIn(harness.spreadsheetId).tokens).toEqual([]);
  expect(lentNames(second)).toEqual([SECOND]);
  // Turned off by the lender: gone from their list at once.
  expect(second.callServer('setFormulaAccess', false).formulaLends).toEqual([]);
  const owner = harness.emulator.users.owner;
  const listed = harness.emulator.properties
    .user(owner)
    .keys()
    .filter((key) => key.includes('Lend'));
  expect(listed.some((key) => key.endsWith(secondId))).toBe(false);
});

test("another user's lend replaces the owner's, and the owner's Remove token leaves it working", () => {
  const { valid, noPermission } = harness.dataset.tokens;
  harness.callServer('setFormulaAccess', true);
  const editorInSecond = serverOf(harness.emulator.asUser(EDITOR), secondId);
  editorInSecond.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: valid });
  editorInSecond.callServer('setFormulaAccess', true);
  const editor = harness.asUser(EDITOR);
  editor.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: noPermission });
  // Saving a new token revoked the editor's lend in the second spreadsheet (they were not there).
  expect(formulaIn(secondId).tokens).toEqual([]);
  editorInSecond.callServer('setFormulaAccess', true);
  editor.callServer('setFormulaAccess', true);
  expect(lentNames(harness)).toEqual([]);
  expect(lentNames(editor)).toEqual([SECOND, FIRST]);

  harness.callServer('removeToken');
  expect(formulaIn(harness.spreadsheetId).tokens).toEqual([noPermission]);
  expect(formulaIn(secondId).tokens).toEqual([noPermission]);
});

test('no token in script properties, in the lend lists, in any cell or in what Settings returns', () => {
  const tokens = Object.values(harness.dataset.tokens);
  const editor = harness.asUser(EDITOR);
  editor.callServer('saveSettings', {
    baseUrl: sampleServiceUrl(),
    token: harness.dataset.tokens.noPermission,
  });
  editor.callServer('setFormulaAccess', true);
  harness.callServer('setFormulaAccess', true);
  second.callServer('setFormulaAccess', true);
  const seen: Record<string, unknown> = {
    'Settings, first spreadsheet': harness.callServer('getSettings'),
    'Settings, second spreadsheet': second.callServer('getSettings'),
    "the editor's Settings": editor.callServer('getSettings'),
  };
  for (const [id, name] of [
    [harness.spreadsheetId, FIRST],
    [secondId, SECOND],
  ] as const) {
    const workbook = harness.emulator.workbooks.get(id)!;
    workbook.addSheet('Formulas', { rows: 5, columns: 2 });
    workbook.typeValues('Formulas!A1:A2', [[`=SAFETY_USER("${userId}")`], ['=SAFETY_COMPLETIONS(, , 2)']]);
    workbook.recalculate();
    seen[`cells before, ${name}`] = workbook.sheets().map((sheet) => sheet.cells());
  }
  second.callServer('removeToken');
  harness.emulator.workbooks.get(harness.spreadsheetId)!.recalculate();
  seen['cells after'] = harness.emulator.workbooks
    .get(harness.spreadsheetId)!
    .sheets()
    .map((sheet) => sheet.cells());
  seen['Settings after'] = openSettings(harness.spreadsheetId, harness);
  seen['script properties'] = harness.emulator.properties.script.all();
  for (const user of [harness.emulator.users.owner, EDITOR]) {
    const properties = harness.emulator.properties.user(user).all();
    seen[`lend list of ${user}`] = Object.entries(properties).filter(([key]) => key.includes('Lend'));
  }
  expect(JSON.stringify(seen[`cells before, ${FIRST}`])).toContain(userName);
  expect(JSON.stringify(seen['cells after'])).toContain('has withdrawn it');
  expect(Object.keys(seen['script properties'] as object).some((key) => key.includes('revoked'))).toBe(true);
  expect((seen[`lend list of ${EDITOR}`] as unknown[]).length).toBe(1);
  for (const [where, value] of Object.entries(seen)) {
    const text = JSON.stringify(value);
    for (const token of tokens) expect([where, text.includes(token)]).toEqual([where, false]);
  }
});
