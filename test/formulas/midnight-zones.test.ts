/**
 * A date a custom function gives back shows that day in the spreadsheet's zone, also on the day
 * the clocks move forward at midnight (America/Santiago on 8 September 2024: 00:00 becomes 01:00,
 * and the day has no midnight): the cell must not show 7 September. And a date cell given to one is
 * its day whichever zone Google makes its Date in, the spreadsheet's or the script's (Etc/UTC).
 */
import { createAddonHarness } from '../support/addon-harness';

test('in America/Santiago, a weekly inspection due on the day without a midnight shows that day', async () => {
  const harness = await createAddonHarness({
    dataset: { completions: 5, users: 3, seed: 4 },
    timeZone: 'America/Santiago',
  });
  harness.connect();
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  // Weekly from Sunday 1 September; today Monday 2 September: next due Sunday 8 September.
  workbook.typeValues('Sheet1!A1:B1', [['2024-09-01', '2024-09-02']]);
  workbook.typeValues('Sheet1!C1', [['=SAFETY_NEXT_INSPECTION("dow", A1, 7, "", B1)']]);
  workbook.typeValues('Sheet1!C2', [['=SAFETY_NEXT_INSPECTION("dow", A1, 7, "", "2024-09-09")']]);
  workbook.recalculate();
  const shown = workbook.sheet('Sheet1').displayValues('C1:C2').flat();
  expect(shown.map((text) => text.slice(0, 10))).toEqual(['2024-09-08', '2024-09-15']);
  await harness.done();
});

test.each([
  ['America/New_York', 'west', 'script'],
  ['America/New_York', 'west', 'spreadsheet'],
  ['Asia/Kolkata', 'east', 'script'],
  ['Asia/Kolkata', 'east', 'spreadsheet'],
] as const)(
  'in %s (%s of the script), date cells read in the %s zone are their days',
  async (timeZone, _side, customFunctionDateZone) => {
    const harness = await createAddonHarness({
      dataset: { completions: 5, users: 3, seed: 4 },
      timeZone,
      emulator: { readings: { customFunctionDateZone } },
    });
    try {
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      // Weekly from Tuesday 31 December 2024; today 1 January 2025: next due Tuesday 7 January, and
      // a due date of 31 December has passed (a day early it would be "Expiring" with 0 days).
      workbook.typeValues('Sheet1!A1:B1', [['2024-12-31', '2025-01-01']]);
      workbook.typeValues('Sheet1!C1', [['=SAFETY_NEXT_INSPECTION("dow", A1, 7, "", B1)']]);
      workbook.typeValues('Sheet1!C2', [['=SAFETY_INSPECTION_STATUS(A1, 0, B1)']]);
      workbook.recalculate();
      const shown = workbook.sheet('Sheet1').displayValues('C1:C2').flat();
      expect([shown[0]!.slice(0, 10), shown[1]]).toEqual(['2025-01-07', 'Expired']);
    } finally {
      await harness.done();
    }
  },
);
