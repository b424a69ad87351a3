/**
 * The Inspection schedules tab as a manager works in it, in the built add-on in the emulator: on a
 * tab the add-on creates, Last inspected sits beside Next due, the timing reads in words and the
 * long texts and the raw trigger fields come after; a tab an earlier version made keeps its own
 * arrangement, gains the Repeats column beside Name, and keeps every date typed, through Show
 * upcoming inspections and through an import.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, SCHEDULES_TAB, SHOW_UPCOMING, tab } from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';
import { SCHEDULE_TITLES } from '../support/table-guards';

/** The titles as an earlier version laid the tab out (Last inspected far right, after a long note). */
const EARLIER_TITLES = [
  'Equipment type ID',
  'Equipment type',
  'Schedule ID',
  'Name',
  'Form ID',
  'Instructions',
  'Attachments required',
  'Trigger type',
  'Timing',
  'Timing date',
  'Frequency (days)',
  'Expiring period (days)',
  'Next due',
  'Status',
  'Status note',
  'Last inspected',
  'Trigger as sent',
  'Schedule key',
];

async function importedHarness(): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { equipmentTypes: 10, seed: 17 } });
  harness.connect();
  harness.clickMenu(IMPORT);
  return harness;
}

const titles = (harness: AddonHarness) => harness.displayed(SCHEDULES_TAB)[0]!;

/** A tab's rows as maps from title to what is shown. */
function titledRows(harness: AddonHarness): Map<string, string>[] {
  const [header, ...rows] = harness.displayed(SCHEDULES_TAB);
  return rows.map((row) => new Map(header!.map((title, index) => [title, row[index]!])));
}

test('a tab the add-on creates: what a manager reads and types side by side, the timing in words, the raw fields last and narrow', async () => {
  const harness = await importedHarness();
  try {
    expect(titles(harness)).toEqual([...SCHEDULE_TITLES]);
    const sheet = tab(harness, SCHEDULES_TAB);
    // Last inspected starts within a laptop's screen: the columns before it add up to under 1,100 px.
    const before = titles(harness).indexOf('Last inspected');
    const left = Array.from({ length: before }, (_, index) => sheet.columnWidth(index + 1));
    expect(left.reduce((sum, width) => sum + width, 0)).toBeLessThan(1_100);
    for (const raw of ['Trigger type', 'Timing', 'Timing date', 'Frequency (days)'])
      expect(sheet.columnWidth(titles(harness).indexOf(raw) + 1)).toBeLessThanOrEqual(90);
    const repeats = titledRows(harness).map((row) => [row.get('Timing'), row.get('Repeats')]);
    expect(repeats.find(([timing]) => timing === 'rolling')![1]).toMatch(
      /^\d+ days? after the last inspection$/,
    );
    expect(repeats.find(([timing]) => timing === 'dow')![1]).toMatch(
      /^every (\d+ )?(weeks?|days?) (on|from) (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day/,
    );
    expect(repeats.find(([timing]) => timing === 'dom')![1]).toMatch(
      /^every (\d+ )?months? on the \d+(st|nd|rd|th)/,
    );
  } finally {
    await harness.done();
  }
});

test('a tab an earlier version made keeps its arrangement, gains Repeats beside Name, and keeps every date typed', async () => {
  const harness = await importedHarness();
  try {
    const sheet = tab(harness, SCHEDULES_TAB);
    // The earlier layout: no Repeats, the other columns in the earlier order, a column of the user's after.
    sheet.deleteColumns(titles(harness).indexOf('Repeats') + 1, 1);
    EARLIER_TITLES.forEach((title, index) => {
      const at = titles(harness).indexOf(title) + 1;
      if (at !== index + 1) sheet.moveColumns(at, 1, index + 1);
    });
    expect(titles(harness)).toEqual(EARLIER_TITLES);
    const [first, second] = titledRows(harness)
      .filter((row) => row.get('Timing') === 'rolling')
      .map((row) => row.get('Schedule ID')!);
    userActions(harness).type(
      SCHEDULES_TAB,
      rowOf(harness, first!),
      EARLIER_TITLES.indexOf('Last inspected') + 1,
      [['2020-01-01']],
    );

    // Show upcoming inspections reads and writes the earlier tab as it is.
    harness.clickMenu(SHOW_UPCOMING);
    expect(titles(harness)).toEqual(EARLIER_TITLES);
    expect(statusOf(harness, first!)).toBe('Expired');

    harness.clickMenu(IMPORT);

    expect(titles(harness)).toEqual([...EARLIER_TITLES.slice(0, 4), 'Repeats', ...EARLIER_TITLES.slice(4)]);
    expect(
      titledRows(harness).every(
        (row) => row.get('Repeats') !== '' || row.get('Status') === 'Unsupported schedule',
      ),
    ).toBe(true);
    expect(statusOf(harness, first!)).toBe('Expired');
    expect(
      titledRows(harness)
        .find((row) => row.get('Schedule ID') === first)!
        .get('Last inspected'),
    ).toBe('2020-01-01');
    expect(statusOf(harness, second!)).toBe('No inspection recorded');

    // Moved by the manager afterwards, Repeats is still found by its title.
    sheet.moveColumns(titles(harness).indexOf('Repeats') + 1, 1, 1);
    harness.clickMenu(IMPORT);
    expect(titles(harness)[0]).toBe('Repeats');
    expect(statusOf(harness, first!)).toBe('Expired');
  } finally {
    await harness.done();
  }
});

function rowOf(harness: AddonHarness, scheduleId: string): number {
  return titledRows(harness).findIndex((row) => row.get('Schedule ID') === scheduleId) + 2;
}

function statusOf(harness: AddonHarness, scheduleId: string): string | undefined {
  return titledRows(harness)
    .find((row) => row.get('Schedule ID') === scheduleId)!
    .get('Status');
}
