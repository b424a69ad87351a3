/**
 * A "Last inspected" date typed while an equipment import runs: the emulator lets the user act in
 * the middle of the run (Emulator.beforeNextCall), as people keep working in a spreadsheet while a
 * run writes it. What the user owns on the schedules tab is read just before that tab is written,
 * so a date typed while the service answered, or while the run wrote its first tab, is kept, on
 * the row of its schedule after rows moved.
 */
import { type CalendarDate, fromIsoDate, toIsoDate } from '../../src/lib/dates';
import { nextInspection } from '../../src/equipment/inspections';
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import { IMPORT, LAST_INSPECTED, SCHEDULES_TAB, scheduleRow, tab, workbook } from '../support/equipment-tabs';
import type { EquipmentType } from '../support/sample-service';

describe('a date typed while the equipment import runs', () => {
  let harness: AddonHarness;

  beforeEach(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 15, seed: 11 } });
    harness.connect();
    harness.clickMenu(IMPORT);
  });
  afterEach(() => harness.done());

  /** A rolling schedule of a type after the first, whose row moves up when the first type goes. */
  async function rollingScheduleBelowFirstType(): Promise<{ type: EquipmentType; scheduleId: string }> {
    const types = (await harness.dataset.data()).equipmenttypes;
    const type = types
      .slice(1)
      .find((candidate) => candidate.schedules.some((schedule) => schedule.trigger.timing === 'rolling'))!;
    await harness.dataset.mutate({ removeEquipmentTypes: [types[0]!.id] });
    return { type, scheduleId: type.schedules.find((schedule) => schedule.trigger.timing === 'rolling')!.id };
  }

  function typeDateBefore(serviceCall: string, cell: string, date: string): void {
    harness.emulator.beforeNextCall(serviceCall, () =>
      workbook(harness).typeValues(`'${SCHEDULES_TAB}'!${cell}`, [[date]]),
    );
  }

  /** The spreadsheet's day `days` from today. */
  function daysFromToday(days: number): string {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
      new Date(harness.emulator.clock.now()),
    );
    return toIsoDate((fromIsoDate(today)! + days) as CalendarDate);
  }

  function expectDateAndStatus(type: EquipmentType, scheduleId: string, date: string): void {
    const row = scheduleRow(harness, scheduleId, type.id);
    const schedule = type.schedules.find((candidate) => candidate.id === scheduleId)!;
    const inspection = nextInspection({
      trigger: schedule.trigger,
      lastInspected: { kind: 'date', date: fromIsoDate(date)! },
      today: fromIsoDate(daysFromToday(0))!,
    });
    // F Next due, G Last inspected, H Status, I Expiring period, J Status note.
    const [nextDue, lastInspected, status, , statusNote] = tab(harness, SCHEDULES_TAB).displayValues(
      `F${row}:J${row}`,
    )[0]!;
    expect([nextDue, status, statusNote, lastInspected]).toEqual([
      inspection.dueDate === null ? '' : toIsoDate(inspection.dueDate),
      inspection.status,
      inspection.reason ?? '',
      date,
    ]);
  }

  test("while the run writes its first tab: kept on its schedule's row, and the status computed from it", async () => {
    const { type, scheduleId } = await rollingScheduleBelowFirstType();
    const rowBefore = scheduleRow(harness, scheduleId, type.id);
    expect(harness.emulator.pendingOverlaps()).toBe(0);
    const date = daysFromToday(-20);
    typeDateBefore('Range.setValues', `${LAST_INSPECTED}${rowBefore}`, date);

    harness.clickMenu(IMPORT);

    expect(harness.emulator.pendingOverlaps()).toBe(0);
    expect(scheduleRow(harness, scheduleId, type.id)).toBeLessThan(rowBefore);
    expectDateAndStatus(type, scheduleId, date);
  });

  test("while the service answers: kept on its schedule's row", async () => {
    const { type, scheduleId } = await rollingScheduleBelowFirstType();
    const date = daysFromToday(-3);
    typeDateBefore(
      'UrlFetchApp.fetch',
      `${LAST_INSPECTED}${scheduleRow(harness, scheduleId, type.id)}`,
      date,
    );

    harness.clickMenu(IMPORT);

    expect(harness.emulator.pendingOverlaps()).toBe(0);
    expectDateAndStatus(type, scheduleId, date);
  });
});
