/**
 * Any editor can type any top-level function into a cell. There it runs anonymously, yet reads the
 * owner's user properties and the spreadsheet's saved state, so a function that hands back what is
 * stored shows it to every editor. Once the owner has saved a connection, notification recipients,
 * a completions filter and a schedule, no entry point typed into a cell returns or shows any of it:
 * not the token nor its last four characters, the service address, a recipient, the filter's IDs or
 * the schedule owner's e-mail. The owner's own dialogs still read all of it (google.script.run).
 */
import { ScriptError } from '../../dev/emulator';
import { cellA1 } from '../../dev/emulator/spreadsheet/a1-notation';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { callableGlobalNames } from '../support/entry-points';
import { sampleServiceUrl } from '../support/sample-service';

const EDITOR = 'editor@example.com';
/** Who saves everything, and so whose schedule it is: an address no service data contains. */
const OWNER = 'schedule-owner@cell-readers.example';
const RECIPIENTS = ['safety-lead@cell-readers.example', 'site-office@cell-readers.example'];
/** IDs the service does not have, so that no completion a formula may list contains them. */
const FILTER = { user_id: 'cell-readers-user-7341', training_id: 'cell-readers-training-5082' };
/** What a formula can pass: nothing, text, a number, a checkbox's value (as typed, and as the script gets it). */
const CELL_ARGUMENTS: { typed: string; values: unknown[] }[] = [
  { typed: '', values: [] },
  { typed: '"x"', values: ['x'] },
  { typed: '1', values: [1] },
  { typed: 'TRUE', values: [true] },
];

let harness: AddonHarness;
/** What must stay the owner's, by what it is. */
let secrets: Record<string, string>;

beforeAll(async () => {
  // A small dataset: formulas may list its records, and none of them may happen to hold a secret.
  harness = await createAddonHarness({
    dataset: { seed: 27, completions: 8, equipmentTypes: 2 },
    emulator: { owner: OWNER },
  });
  const token = harness.dataset.tokens.valid;
  const saved = harness.callServer('saveSettings', {
    baseUrl: sampleServiceUrl(),
    token,
    userId: FILTER.user_id,
    trainingId: FILTER.training_id,
    notifyRecipients: RECIPIENTS.join(', '),
    notifyFrequency: 'daily',
    notifyAllowOutside: true,
  });
  expect(saved).toMatchObject({ ok: true });
  // Formulas may use the owner's token: the custom functions then read the service with it.
  harness.callServer('setFormulaAccess', true);
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  // The spreadsheet is shared with an editor, who types the formulas below.
  harness.emulator.asUser(EDITOR);
  secrets = {
    'the token': token,
    'the token’s last 4 characters': token.slice(-4),
    'the service address': sampleServiceUrl(),
    'the service’s host': new URL(sampleServiceUrl()).host,
    'the filter’s user ID': FILTER.user_id,
    'the filter’s training ID': FILTER.training_id,
    'the schedule owner’s e-mail': OWNER,
    ...Object.fromEntries(RECIPIENTS.map((recipient, index) => [`recipient ${index + 1}`, recipient])),
  };
});
afterAll(() => harness.done());

/** The names of the secrets that `text` holds (case aside, as Sheets may show text either way). */
function secretsIn(text: string): string[] {
  const lower = text.toLowerCase();
  return Object.entries(secrets)
    .filter(([, secret]) => lower.includes(secret.toLowerCase()))
    .map(([what]) => what);
}

/** What the function hands back to Sheets when a cell calls it: its value, or the error it throws. */
function returned(name: string, values: unknown[]): string {
  try {
    const value = harness.emulator
      .asUser(EDITOR)
      .run(name, values, { kind: 'custom-function', spreadsheetId: harness.spreadsheetId });
    return JSON.stringify(value) ?? 'undefined';
  } catch (error) {
    if (error instanceof ScriptError) return error.message;
    throw error;
  }
}

/** What the editor sees after typing the formula into A1 of a new tab: every cell it fills, with notes and errors. */
function shown(tabName: string, formula: string): string {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const tab = workbook.addSheet(tabName, { rows: 500, columns: 40 });
  workbook.typeValues(`'${tabName}'!A1`, [[formula]]);
  const cells = tab.cells(`A1:${cellA1(Math.max(tab.lastRow, 1), Math.max(tab.lastColumn, 1))}`);
  // A result too large for the tab would show as #REF! and hide what it holds.
  expect(cells.flat().filter((cell) => cell.error?.code === '#REF!')).toEqual([]);
  return JSON.stringify(cells);
}

test('the owner’s dialogs read back everything the cells must not show', () => {
  const settings = JSON.stringify(harness.callServer('getSettings'));
  const schedule = JSON.stringify(harness.callServer('getSchedule'));
  const filter = JSON.stringify(harness.callServer('getCompletionsFilter'));
  expect(secretsIn(settings + schedule + filter).sort()).toEqual(
    Object.keys(secrets)
      .filter((what) => what !== 'the token')
      .sort(),
  );
});

test.each(callableGlobalNames())(
  '%s, typed into a cell by an editor, returns and shows none of the owner’s settings',
  (name) => {
    const leaks: string[] = [];
    CELL_ARGUMENTS.forEach(({ typed, values }, index) => {
      const formula = `=${name}(${typed})`;
      const outcomes = { returns: returned(name, values), shows: shown(`${name} ${index + 1}`, formula) };
      for (const [how, text] of Object.entries(outcomes)) {
        for (const what of secretsIn(text)) leaks.push(`${formula} ${how} ${what}: ${text.slice(0, 200)}`);
      }
    });
    expect(leaks).toEqual([]);
  },
);
