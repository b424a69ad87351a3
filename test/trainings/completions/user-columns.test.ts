/**
 * Columns a manager adds beside the imported ones are theirs: whatever a full import writes around
 * them, each cell comes back beside its record exactly as it was typed, text that looks like a
 * number, a date or a formula included, in the number format it had.
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';

const TAB = 'Completed trainings';

/** What the manager types in K (text, some of it with the apostrophe that keeps it text) and L. */
const TYPED: [string, string][] = [
  ['Badge', 'Last refresher'],
  ["'00123", '2024-01-02'],
  ["'=not a formula", '15/03/2024'],
  ["'+44 20 7946", '12:30'],
  ["'1,234", '7%'],
  ["'2024-01-02", ''],
  ["'-", ''],
  ["'TRUE", ''],
  ['plain words', '3.5'],
];

async function importedHarness(): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { seed: 91, completions: 300, users: 20 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  return harness;
}

test('cells typed beside records keep exactly what was typed, and their formats, when a full import moves the rows', async () => {
  const harness = await importedHarness();
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  workbook.typeValues(`'${TAB}'!K1:L${TYPED.length}`, TYPED);
  const before = harness.displayed(TAB);
  const besideKey = (rows: string[][]) => new Map(rows.slice(1).map((row) => [row[9], row.slice(10, 12)]));
  const shownBefore = besideKey(before);

  // Three new records on top: every row moves three down.
  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Reconcile completed trainings');

  const after = harness.displayed(TAB);
  expect(after).toHaveLength(before.length + 3);
  expect(after[0]!.slice(10, 12)).toEqual(['Badge', 'Last refresher']);
  const shownAfter = besideKey(after);
  for (const [key, cells] of shownBefore) expect(shownAfter.get(key)).toEqual(cells);
  expect(before.slice(1, TYPED.length).map((row) => row[10])).toEqual([
    '00123',
    '=not a formula',
    '+44 20 7946',
    '1,234',
    '2024-01-02',
    '-',
    'TRUE',
    'plain words',
  ]);
  // What the cells hold, not only what they show: text stays text, a date stays a date.
  const movedRow = after.findIndex((row) => row[9] === before[1]![9]) + 1;
  expect(workbook.sheet(TAB).values(`K${movedRow}:L${movedRow}`)).toEqual([['00123', expect.any(Date)]]);
  await harness.done();
});
