/**
 * Every top-level function of the add-on can be typed into a cell by any editor and called from
 * google.script.run: none of them may hand back the API token, in a value or an error, and no log
 * line, cell, note, dialog, request URL or piece of document state may hold it either.
 */
import { ScriptError } from '../../dev/emulator';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { callableGlobalNames } from '../support/entry-points';
import { sampleServiceUrl } from '../support/sample-service';

/** Every function the built script leaves global, as a load of it finds them. */
const ENTRY_POINTS = callableGlobalNames();

let harness: AddonHarness;
let tokens: string[];
let triggerUid: string;

beforeAll(async () => {
  harness = await createAddonHarness({
    dataset: { seed: 81, completions: 150, equipmentTypes: 4 },
    // Where Google lets formulas read the token lent to them, so that they can carry it (readings.ts).
    emulator: { readings: { documentStoresInCustomFunction: true } },
  });
  tokens = Object.values(harness.dataset.tokens);
  harness.connect();
  harness.callServer('setFormulaAccess', true);
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Import equipment types');
  harness.callServer('saveSchedule', { every: '1' });
  triggerUid = harness.emulator.triggers()[0]!.uid;
});
afterAll(() => harness.done());

/** Plausible arguments of every shape the functions take, and some they do not. */
function argumentSets(): unknown[][] {
  return [
    [],
    ['x'],
    [{ baseUrl: sampleServiceUrl(), token: '' }],
    [{ baseUrl: sampleServiceUrl(), token: harness.dataset.tokens.inactive }],
    [{ every: '1' }],
    [true],
    [{ triggerUid }],
  ];
}

function outcomeOf(call: () => unknown): string {
  try {
    return JSON.stringify(call()) ?? 'undefined';
  } catch (error) {
    if (error instanceof ScriptError) return error.message;
    throw error;
  }
}

function expectNoToken(text: string, where: string): void {
  for (const token of tokens) {
    if (text.includes(token)) throw new Error(`${where} contains a token: ${text.slice(0, 300)}`);
  }
}

test('the functions found are the add-on’s entry points', () => {
  expect(ENTRY_POINTS).toEqual(
    expect.arrayContaining(['getSettings', 'testConnection', 'runScheduledRefresh']),
  );
  expect(ENTRY_POINTS.length).toBeGreaterThan(25);
});

test.each(ENTRY_POINTS)('%s returns no token, from a cell or from google.script.run', (name) => {
  for (const args of argumentSets()) {
    harness.connect();
    expectNoToken(
      outcomeOf(() => harness.emulator.customFunction(harness.spreadsheetId, name, args)),
      `=${name}(${JSON.stringify(args)})`,
    );
    harness.connect();
    expectNoToken(
      outcomeOf(() => harness.callServerUntyped(name, ...args)),
      `google.script.run.${name}(${JSON.stringify(args)})`,
    );
  }
});

test('a service whose errors quote the token again and again: no message that reaches a user has any copy', async () => {
  const { emulator, spreadsheetId } = harness;
  harness.connect();
  await harness.dataset.setQuirks({ quoteTokenInErrors: true });
  await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
  try {
    const seen: Record<string, string> = {};
    harness.clickMenu('Reconcile completed trainings');
    const alerts = emulator.workbooks.get(spreadsheetId)!.ui.alerts;
    seen['the alert'] = JSON.stringify(alerts[alerts.length - 1]);
    seen['the Sync log'] = JSON.stringify(harness.displayed('Sync log')[1]);
    // A filter no formula asked for before: nothing cached answers it.
    seen['a cell'] = outcomeOf(() =>
      emulator.customFunction(spreadsheetId, 'SAFETY_COMPLETIONS', ['token-exposure-user']),
    );
    seen['Test connection'] = outcomeOf(() =>
      harness.callServer('testConnection', { baseUrl: sampleServiceUrl(), token: '' }),
    );
    for (const [where, text] of Object.entries(seen)) {
      expectNoToken(text, where);
      // The service did quote it: the add-on took every copy out.
      expect([where, text]).toEqual([
        where,
        expect.stringMatching(
          /Token \\?"\[redacted\]\\?" \(sent as token=\[redacted\]; again:\[redacted\]\)/,
        ),
      ]);
    }
  } finally {
    await harness.dataset.setFaults({});
    await harness.dataset.setQuirks({});
  }
});

test('no log line, cell, note, dialog, request URL or document state holds a token', () => {
  const { emulator, spreadsheetId } = harness;
  // The calls above replaced the schedule: its run is what logs the most.
  harness.connect();
  harness.callServer('saveSchedule', { every: '1' });
  harness.emulator.fireTrigger(harness.emulator.triggers()[0]!.uid);
  for (const entry of emulator.logs) expectNoToken(entry.text, 'a log line');
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  for (const sheet of workbook.sheets()) {
    expectNoToken(JSON.stringify([sheet.values(), sheet.formulas(), sheet.notes()]), `the tab ${sheet.name}`);
  }
  for (const dialog of workbook.ui.dialogs) {
    expectNoToken((dialog.output as { getContent(): string }).getContent(), `the dialog ${dialog.title}`);
  }
  expectNoToken(JSON.stringify([workbook.ui.alerts, workbook.ui.toasts]), 'an alert or toast');
  expectNoToken(JSON.stringify(workbook.developerMetadata()), 'the document state');
  for (const request of emulator.urlFetch.requests) expectNoToken(request.url, 'a request URL');
  expect(emulator.logs.length).toBeGreaterThan(0);
});
