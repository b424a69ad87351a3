/**
 * Upcoming inspections as a site safety manager works from it, in the built add-on in the emulator:
 * the schedules never inspected listed first with what to do, each row's link landing on the
 * "Last inspected" cell to fill in (wherever the manager moved that column), and a tab the previous
 * layout made getting the new columns inserted, the manager's own column kept beside its rows.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  syncLog,
  tab,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';

const NEVER_INSPECTED = 'No inspection recorded';

async function importedHarness(): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { equipmentTypes: 12, seed: 31 } });
  harness.connect();
  harness.clickMenu(IMPORT);
  return harness;
}

/** A tab's rows as maps from title to what is shown. */
function titledRows(harness: AddonHarness, name: string): Map<string, string>[] {
  const [titles, ...rows] = harness.displayed(name);
  return rows.map((row) => new Map(titles!.map((title, index) => [title, row[index]!])));
}

const columnOf = (harness: AddonHarness, name: string, title: string) =>
  harness.displayed(name)[0]!.indexOf(title) + 1;

/** Where an Upcoming row's Schedule link lands on the schedules tab: the column's title and the row. */
function landing(harness: AddonHarness, upcomingRow: number): { title: string; row: number } {
  const schedule = columnOf(harness, UPCOMING_TAB, 'Schedule');
  const [cell] = tab(harness, UPCOMING_TAB).cells(`D${upcomingRow}`)[0]!;
  const match = /^#gid=(\d+)&range=([A-Z]+)(\d+)$/.exec(cell!.link ?? '');
  expect(schedule).toBe(4);
  expect(Number(match?.[1])).toBe(tab(harness, SCHEDULES_TAB).gid);
  const column = match![2]!.charCodeAt(0) - 64;
  return { title: harness.displayed(SCHEDULES_TAB)[0]![column - 1]!, row: Number(match![3]) };
}

describe('schedules never inspected', () => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await importedHarness();
  });
  afterAll(() => harness.done());

  test('are listed first, each saying to enter Last inspected and linking to the cell to fill in', () => {
    const never = titledRows(harness, SCHEDULES_TAB).filter((row) => row.get('Status') === NEVER_INSPECTED);
    expect(never.length).toBeGreaterThan(0);
    const upcoming = titledRows(harness, UPCOMING_TAB);
    expect(upcoming.slice(0, never.length).map((row) => [row.get('Schedule ID'), row.get('Status')])).toEqual(
      never.map((row) => [row.get('Schedule ID'), NEVER_INSPECTED]),
    );
    expect(upcoming.slice(never.length).map((row) => row.get('Status'))).not.toContain(NEVER_INSPECTED);
    for (const row of upcoming.slice(0, never.length)) {
      expect([row.get('Due date'), row.get('Days left'), row.get('Last inspected')]).toEqual(['', '', '']);
      expect(row.get('What to do')).toBe('No inspection recorded: enter Last inspected');
      expect(row.get('Repeats')).toMatch(/^\d+ days? after the last inspection$/);
    }
    const target = landing(harness, 2);
    expect(target.title).toBe('Last inspected');
    expect(titledRows(harness, SCHEDULES_TAB)[target.row - 2]!.get('Schedule ID')).toBe(
      upcoming[0]!.get('Schedule ID'),
    );
  });

  test('are counted as listed, and leave the list once a date is entered', () => {
    const listed = titledRows(harness, UPCOMING_TAB).length;
    expect(syncLog(harness)[0]!.join(' ')).toContain(`${listed} listed as upcoming`);

    const first = titledRows(harness, UPCOMING_TAB)[0]!.get('Schedule ID')!;
    const { row } = landing(harness, 2);
    userActions(harness).type(SCHEDULES_TAB, row, columnOf(harness, SCHEDULES_TAB, 'Last inspected'), [
      ['2020-01-01'],
    ]);
    harness.clickMenu(SHOW_UPCOMING);

    const entered = titledRows(harness, UPCOMING_TAB).find(
      (candidate) => candidate.get('Schedule ID') === first,
    )!;
    expect(entered.get('Status')).toBe('Expired');
    expect(entered.get('Last inspected')).toBe('2020-01-01');
    expect(entered.get('Days left')).toMatch(/^\d+ days overdue$/);
    expect(entered.get('What to do')).toBe('Overdue: inspect now, then enter the date in Last inspected');
    expect(workbook(harness).ui.toasts.at(-1)!.message).toContain(`${listed} listed as upcoming`);
  });

  test('link to Last inspected wherever the manager moved it', () => {
    const lastInspected = columnOf(harness, SCHEDULES_TAB, 'Last inspected');
    userActions(harness).moveColumns(SCHEDULES_TAB, lastInspected, 1, 1);
    harness.clickMenu(SHOW_UPCOMING);
    expect(landing(harness, 2).title).toBe('Last inspected');
    expect(columnOf(harness, SCHEDULES_TAB, 'Last inspected')).toBe(1);
  });
});

test('an Upcoming inspections tab of the previous layout gets the new columns, the manager’s own column kept beside its rows, and may be rearranged after', async () => {
  const harness = await importedHarness();
  try {
    const user = userActions(harness);
    const added = ['Repeats', 'Last inspected', 'Expiring period (days)', 'What to do'];
    // The previous layout: none of the added columns (deleted right to left, so each number holds).
    for (const title of [...added].reverse())
      user.deleteColumns(UPCOMING_TAB, columnOf(harness, UPCOMING_TAB, title), 1);
    const previous = harness.displayed(UPCOMING_TAB)[0]!;
    expect(previous).toEqual([
      'Equipment type ID',
      'Equipment type',
      'Schedule ID',
      'Schedule',
      'Due date',
      'Days left',
      'Status',
      'Schedule key',
    ]);
    // The manager's own column, after the table, with a value and a note on one schedule's row.
    const ownColumn = previous.length + 1;
    const scheduleKey = titledRows(harness, UPCOMING_TAB)[1]!.get('Schedule key')!;
    user.type(UPCOMING_TAB, 1, ownColumn, [['Assigned to'], [''], ['Dana']]);
    user.note(UPCOMING_TAB, 3, ownColumn, 'Booked with the supplier');

    harness.clickMenu(IMPORT);

    expect(harness.displayed(UPCOMING_TAB)[0]).toEqual([
      'Equipment type ID',
      'Equipment type',
      'Schedule ID',
      'Schedule',
      'Repeats',
      'Last inspected',
      'Due date',
      'Days left',
      'Expiring period (days)',
      'Status',
      'What to do',
      'Schedule key',
      'Assigned to',
    ]);
    const rows = titledRows(harness, UPCOMING_TAB);
    const mine = rows.findIndex((row) => row.get('Assigned to') === 'Dana');
    expect(rows[mine]!.get('Schedule key')).toBe(scheduleKey);
    expect(rows.filter((row) => row.get('Assigned to') !== '')).toHaveLength(1);
    expect(tab(harness, UPCOMING_TAB).notes(`M${mine + 2}`)).toEqual([['Booked with the supplier']]);
    expect(rows.every((row) => row.get('What to do') !== '')).toBe(true);

    // Rearranged by the manager afterwards, every column is still found by its title.
    user.moveColumns(UPCOMING_TAB, columnOf(harness, UPCOMING_TAB, 'What to do'), 1, 1);
    user.moveColumns(UPCOMING_TAB, columnOf(harness, UPCOMING_TAB, 'Schedule'), 1, 1);
    const alerts = workbook(harness).ui.alerts.length;
    harness.clickMenu(SHOW_UPCOMING);
    expect(harness.displayed(UPCOMING_TAB)[0]!.slice(0, 2)).toEqual(['Schedule', 'What to do']);
    expect(titledRows(harness, UPCOMING_TAB).map((row) => row.get('Schedule key'))).toEqual(
      rows.map((row) => row.get('Schedule key')),
    );
    expect(workbook(harness).ui.alerts).toHaveLength(alerts);
  } finally {
    await harness.done();
  }
});
