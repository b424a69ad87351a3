/**
 * A full import commits the spreadsheet once or twice, whatever its size: Apps Script commits buffered
 * writes before every read of the spreadsheet (0.3–0.8 s each on Google), so the import reads
 * everything first and writes after, and the run lease costs none (a script property). Into a new
 * spreadsheet its tabs are inserted through the Spreadsheet service (Google does not document whether
 * the service shows a tab the Sheets API added), committed before the rows and again at the end.
 * Again over its own tabs, a table the Sheets API writes has its tab grown by the API, and either
 * size commits once, at the end. dist/Code.js in the emulator, whose write buffer counts the commits,
 * against the sample service; with the training tabs and the user's own cells, filter criteria and
 * colours, which must come through the import as before.
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { userActions } from '../../support/user-actions';

const TAB = 'Completed trainings';
const TRAINING_TABS = ['Trainings', 'Training matrix', 'Expiring trainings'];

function importAll(harness: AddonHarness): void {
  let step = harness.callServer('startCompletionsImport', {});
  while (!step.done) step = harness.callServer('continueCompletionsImport');
  const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
  if (alerts.length > 0) throw new Error(alerts.map((alert) => alert.message).join(' | '));
}

function sheetNames(harness: AddonHarness): string[] {
  return harness.emulator.workbooks.get(harness.spreadsheetId)!.sheetNames;
}

/** The commits of one full import into the harness's spreadsheet, which must end with every record in. */
function commitsOfFullImport(harness: AddonHarness, records: number): number {
  harness.emulator.counter.reset();
  importAll(harness);
  expect(harness.displayed(TAB)).toHaveLength(records + 1);
  return harness.emulator.counter.commits();
}

describe.each([
  // Below the size written through the Sheets API, and above it.
  { records: 300, users: 12, commits: 2, againCommits: 1 },
  { records: 2_500, users: 30, commits: 2, againCommits: 1 },
])(
  'a full import of $records records, committed $commits time(s)',
  ({ records, users, commits, againCommits }) => {
    let harness: AddonHarness;
    beforeAll(async () => {
      harness = await createAddonHarness({ dataset: { seed: 71, completions: records, users } });
      harness.connect();
    });
    afterAll(() => harness.done());

    test('into a new spreadsheet makes its tabs and the training tabs', () => {
      expect(commitsOfFullImport(harness, records)).toBe(commits);
      expect(sheetNames(harness)).toEqual(expect.arrayContaining([TAB, ...TRAINING_TABS, 'Sync log']));
      expect(harness.displayed('Training matrix').length).toBeGreaterThan(1);
    });

    test('again, over the user’s column, note and filter criteria, keeping them', () => {
      const user = userActions(harness);
      const before = harness.displayed(TAB);
      const width = before[0]!.length;
      user.type(TAB, 1, width + 1, [['Checked by']]);
      user.type(TAB, 2, width + 1, [['Ann']]);
      user.note(TAB, 3, 1, 'certificate seen');
      const hiddenTraining = before[4]![2]!;
      user.hideValues(TAB, 3, [hiddenTraining]);
      const firstKey = before[1]![width - 1];

      expect(commitsOfFullImport(harness, records)).toBe(againCommits);
      const after = harness.displayed(TAB);
      const annRow = after.findIndex((row) => row[width - 1] === firstKey);
      expect(after[annRow]![width]).toBe('Ann');
      expect(after[0]![width]).toBe('Checked by');
      expect(user.hiddenValues(TAB, 3)).toEqual([hiddenTraining]);
      const sheet = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
      expect(
        sheet
          .notes()
          .flat()
          .filter((note) => note === 'certificate seen'),
      ).toHaveLength(1);
    });
  },
);
