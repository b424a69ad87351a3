/**
 * A "Last inspected" date after today (a typo in the year, day and month swapped) is flagged, not
 * taken: the built add-on in the emulator, after Show upcoming inspections and after an import.
 */
import { type CalendarDate, fromIsoDate, toIsoDate } from '../../src/lib/dates';
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  LAST_INSPECTED,
  rows,
  SCHEDULES_TAB,
  scheduleRow,
  SHOW_UPCOMING,
  syncLog,
  tab,
  typeLastInspected,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';
import type { EquipmentType } from '../support/sample-service';

const FLAG = 'Check Last inspected: in the future';

describe('a "Last inspected" date after today', () => {
  let harness: AddonHarness;
  let types: EquipmentType[];
  let today: string;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 15, seed: 12 } });
    harness.connect();
    harness.clickMenu(IMPORT);
    types = (await harness.dataset.data()).equipmenttypes;
    today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
      new Date(harness.emulator.clock.now()),
    );
  });
  afterAll(() => harness.done());

  const daysFromToday = (days: number) => toIsoDate((fromIsoDate(today)! + days) as CalendarDate);
  const schedulesOf = (timing: string) =>
    types.flatMap((type) => type.schedules).filter((schedule) => schedule.trigger.timing === timing);

  function expectFlagged(scheduleIds: readonly string[], dates: readonly string[]): void {
    const schedules = tab(harness, SCHEDULES_TAB);
    scheduleIds.forEach((id, index) => {
      const row = scheduleRow(harness, id);
      // F Next due, G Last inspected, H Status, I Expiring period, J Status note.
      const [nextDue, lastInspected, status, , statusNote] = schedules.displayValues(`F${row}:J${row}`)[0]!;
      expect([nextDue, status, statusNote, lastInspected]).toEqual([
        '',
        FLAG,
        `Last inspected ${dates[index]} is after today (${today}): enter the date of the last inspection done`,
        dates[index],
      ]);
    });
    // Listed with the schedules never inspected, before every schedule with a due date, in tab order.
    const upcoming = rows(tab(harness, UPCOMING_TAB), 'C', 'K');
    const undated = upcoming.slice(
      0,
      upcoming.findIndex(([, , , , due]) => due !== ''),
    );
    expect(
      undated
        .filter(([, , , , , , , status]) => status === FLAG)
        .map(([id, , , lastInspected, due, daysLeft, , , whatToDo]) => [
          id,
          lastInspected,
          due,
          daysLeft,
          whatToDo,
        ]),
    ).toEqual(
      scheduleIds.map((id, index) => [
        id,
        dates[index],
        '',
        '',
        'Last inspected is after today: enter the date of the last inspection done',
      ]),
    );
  }

  test('Show upcoming inspections flags it on the schedules tab and lists it first in Upcoming inspections', () => {
    const [rolling] = schedulesOf('rolling');
    const [dow] = schedulesOf('dow');
    const dates = [daysFromToday(1), daysFromToday(400)];
    typeLastInspected(harness, { [rolling!.id]: dates[0]!, [dow!.id]: dates[1]! });

    harness.clickMenu(SHOW_UPCOMING);

    const ids = [rolling!.id, dow!.id].sort((a, b) => scheduleRow(harness, a) - scheduleRow(harness, b));
    expectFlagged(ids, ids[0] === rolling!.id ? dates : [...dates].reverse());
    expect(workbook(harness).ui.toasts.at(-1)!.message).toContain(
      '2 with a "Last inspected" in the future to check',
    );
  });

  test('an import keeps the date as typed and flags it the same way; today itself is a date like any other', () => {
    const [, secondRolling] = schedulesOf('rolling');
    typeLastInspected(harness, { [secondRolling!.id]: today });

    harness.clickMenu(IMPORT);

    const flagged = rows(tab(harness, SCHEDULES_TAB), 'H', 'H').filter(([status]) => status === FLAG);
    expect(flagged).toHaveLength(2);
    const row = scheduleRow(harness, secondRolling!.id);
    const [lastInspected, status, , statusNote] = tab(harness, SCHEDULES_TAB).displayValues(
      `${LAST_INSPECTED}${row}:J${row}`,
    )[0]!;
    expect([status, statusNote, lastInspected]).toEqual(['Up to date', '', today]);
    expect(syncLog(harness)[0]![8]).toContain('2 with a "Last inspected" in the future to check');
  });
});
