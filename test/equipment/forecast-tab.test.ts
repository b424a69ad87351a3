/**
 * The Inspection forecast tab end to end: the built add-on in the emulator, against the sample
 * service's schedules (month-end anchors among them), in a spreadsheet whose day is a month ahead
 * of UTC's. Every count is checked against the day-by-day oracle (forecast-oracle.ts), after an
 * import, after "Last inspected" dates are typed and Show upcoming inspections recomputes, and a
 * month later.
 */
import type { SheetView } from '../../dev/emulator/spreadsheet/workbook-store';
import { conditionalFormatsOf } from '../../dev/emulator/spreadsheet/conditional-display';
import { spreadsheetServiceCalls } from '../../dev/emulator/spreadsheet';
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  syncLog,
  tab,
  typeLastInspected,
  workbook,
} from '../support/equipment-tabs';
import type { EquipmentType } from '../support/sample-service';
import { type Day, dayOfIso, isoOf, monthTitles, oracleForecast } from './forecast-oracle';

const FORECAST_TAB = 'Inspection forecast';
const ZONE = 'Pacific/Auckland';
/** 09:00 on 1 February 2028 in Auckland, while UTC is still on 31 January: a leap February ahead. */
const START = Date.parse('2028-01-31T20:00:00Z');
const DAY_MS = 86_400_000;
/** Columns: A type id, B type, C schedule id, D schedule (link), E basis, F–Q months, R total. */
const FIRST_MONTH = 5;
/** One hue, paler to deeper blue: none of the status colours (Expired red, Expiring amber). */
const HEAT = ['#deebf7', '#9ecae1', '#3182bd'];
/** The heat colours of the add-on's previous versions, whose rules an older tab still holds. */
const FORMER_HEAT = ['#fff2cc', '#f9cb9c', '#e06666'];
/** A user's own rule on the tab: months with more than 3 inspections of a schedule, in blue. */
const USER_RULE_SCRIPT = `
function addUserRule_() {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Inspection forecast');
  const rule = SpreadsheetApp.newConditionalFormatRule()
    .whenNumberBetween(4, 1000)
    .setBackground('#cfe2f3')
    .setRanges([sheet.getRange('F2:Q4')])
    .build();
  sheet.setConditionalFormatRules(sheet.getConditionalFormatRules().concat([rule]));
}
function addFormerHeatRule_() {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Inspection forecast');
  const rule = SpreadsheetApp.newConditionalFormatRule()
    .whenNumberBetween(5, 31)
    .setBackground('#e06666')
    .setFontColor('#ffffff')
    .setRanges([sheet.getRange('F2:Q9')])
    .build();
  sheet.setConditionalFormatRules(sheet.getConditionalFormatRules().concat([rule]));
}`;

interface Placed {
  type: EquipmentType;
  schedule: EquipmentType['schedules'][number];
}

function todayOf(harness: AddonHarness): Day {
  return dayOfIso(new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(harness.emulator.clock.now()));
}

function schedulesOf(types: readonly EquipmentType[]): Placed[] {
  return types.flatMap((type) => type.schedules.map((schedule) => ({ type, schedule })));
}

/** The background a cell shows from the tab's conditional format rules (the first that holds), if any. */
function conditionalBackground(sheet: SheetView, row: number, column: number): string | null {
  const [cell] = sheet.cells(a1(row, column))[0]!;
  return conditionalFormatsOf(sheet)(row, column, cell!)?.background ?? null;
}

function a1(row: number, column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return `${letters}${row}`;
}

describe('the Inspection forecast tab', () => {
  let harness: AddonHarness;
  let types: EquipmentType[];
  /** "Last inspected" typed so far, by schedule id. */
  const typed = new Map<string, Day>();

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { equipmentTypes: 30, seed: 17 },
      timeZone: ZONE,
      emulator: { startTime: START },
      userScript: USER_RULE_SCRIPT,
    });
    harness.connect();
    harness.clickMenu(IMPORT);
    types = (await harness.dataset.data()).equipmenttypes;
  });
  afterAll(() => harness.done());

  /**
   * The tab as the oracle says it should be today, row by row: a row per schedule in the schedules
   * tab's order, then the totals. Returns the month totals.
   */
  function expectForecast(monthColumns: readonly number[]): number[] {
    const today = todayOf(harness);
    const sheet = tab(harness, FORECAST_TAB);
    const values = sheet.values();
    const placed = schedulesOf(types);
    expect(monthColumns.map((column) => values[0]![column - 1])).toEqual(monthTitles(today));
    expect(sheet.lastRow).toBe(placed.length + 2);
    const totals = new Array<number>(12).fill(0);
    placed.forEach(({ type, schedule }, index) => {
      const row = values[index + 1]!;
      const expected = oracleForecast(
        { trigger: schedule.trigger, lastInspected: typed.get(schedule.id) ?? null },
        today,
      );
      const where = `${schedule.id} ${JSON.stringify(schedule.trigger)} last ${
        typed.has(schedule.id) ? isoOf(typed.get(schedule.id)!) : 'none'
      }, today ${isoOf(today)}`;
      const counts = monthColumns.map((column) => row[column - 1]);
      expect({ where, ids: [row[0], row[2]] }).toEqual({ where, ids: [type.id, schedule.id] });
      if (!expected.forecast) {
        expect({ where, counts, basis: String(row[4]).startsWith('Not forecast: ') }).toEqual({
          where,
          counts: new Array(12).fill(''),
          basis: true,
        });
        return;
      }
      expect({ where, counts }).toEqual({ where, counts: expected.counts });
      expect(row[4]).toMatch(expected.projected ? /^Projected from/ : /^Exact/);
      expect(String(row[4]).endsWith('overdue: counted this month')).toBe(expected.overdue);
      expected.counts.forEach((count, month) => (totals[month]! += count));
    });
    const totalsRow = values[placed.length + 1]!;
    expect(totalsRow[0]).toBe('Total');
    expect(monthColumns.map((column) => totalsRow[column - 1])).toEqual(totals);
    return totals;
  }

  const contiguousMonths = Array.from({ length: 12 }, (_, month) => FIRST_MONTH + 1 + month);

  test('after an import: a column per month from the spreadsheet’s own month, each schedule counted as the calendar says', () => {
    expect(isoOf(todayOf(harness))).toBe('2028-02-01');
    const totals = expectForecast(contiguousMonths);
    expect(tab(harness, FORECAST_TAB).displayValues('F1:Q1')[0]).toEqual(monthTitles(dayOfIso('2028-02-01')));
    expect(totals.some((total) => total > 0)).toBe(true);
    // The sample's schedules include what the months make awkward: dom anchored on the 29th to 31st.
    const monthEnds = schedulesOf(types).filter(
      ({ schedule }) =>
        schedule.trigger.timing === 'dom' && (schedule.trigger.timingDateNumber ?? 0) % 100 >= 29,
    );
    expect(monthEnds.length).toBeGreaterThan(2);
    // Rolling schedules have no Last inspected yet: their rows say so.
    const rolling = schedulesOf(types).findIndex(({ schedule }) => schedule.trigger.timing === 'rolling');
    expect(tab(harness, FORECAST_TAB).displayValues(`E${rolling + 2}`)[0]![0]).toBe(
      'Not forecast: A rolling schedule is due frequencyInDays after the last inspection: enter it in "Last inspected"',
    );
  });

  test('each row links to its schedule’s row; the totals row is bold, and the key column hidden', () => {
    const sheet = tab(harness, FORECAST_TAB);
    const schedulesTab = tab(harness, SCHEDULES_TAB);
    const placed = schedulesOf(types);
    const cells = sheet.cells(`D2:D${placed.length + 1}`);
    cells.forEach(([cell], index) => {
      const match = /^#gid=(\d+)&range=A(\d+)$/.exec(cell!.link ?? '');
      expect(Number(match?.[1])).toBe(schedulesTab.gid);
      expect(schedulesTab.displayValues(`C${match![2]}`)[0]![0]).toBe(placed[index]!.schedule.id);
      expect(cell!.display).toBe(placed[index]!.schedule.name);
    });
    const totalsRow = placed.length + 2;
    expect(new Set(sheet.fontWeights(`A${totalsRow}:R${totalsRow}`)[0])).toEqual(new Set(['bold']));
    expect(new Set(sheet.fontWeights(`A2:R${totalsRow - 1}`).flat())).toEqual(new Set(['normal']));
    expect(sheet.hiddenColumns).toEqual([19]);
    expect(sheet.displayValues('S1:S2')).toEqual([
      ['Schedule key'],
      [JSON.stringify([placed[0]!.type.id, placed[0]!.schedule.id])],
    ]);
  });

  test('heat: a schedule’s month coloured by its count, the totals by where they sit between the quietest and busiest month', () => {
    const sheet = tab(harness, FORECAST_TAB);
    const placed = schedulesOf(types);
    const values = sheet.values();
    const scheduleBand = (count: unknown) =>
      typeof count !== 'number' || count === 0 ? null : HEAT[count === 1 ? 0 : count <= 4 ? 1 : 2]!;
    const seen = new Set<string | null>();
    for (let row = 2; row <= placed.length + 1; row++) {
      for (const column of contiguousMonths) {
        const expected = scheduleBand(values[row - 1]![column - 1]);
        seen.add(expected);
        expect([row, column, conditionalBackground(sheet, row, column)]).toEqual([row, column, expected]);
      }
    }
    expect(seen).toEqual(new Set([null, ...HEAT]));
    const totalsRow = placed.length + 2;
    const totals = contiguousMonths.map((column) => values[totalsRow - 1]![column - 1] as number);
    const [quietest, busiest] = [Math.min(...totals), Math.max(...totals)];
    // The totals are not coloured as a schedule's month: thirds of the span from quietest to busiest.
    const totalBand = (total: number) => {
      const third = (total - quietest) / (busiest - quietest);
      if (total === 0) return null;
      return third >= 2 / 3 || total === busiest ? HEAT[2] : third >= 1 / 3 ? HEAT[1] : HEAT[0];
    };
    contiguousMonths.forEach((column, month) => {
      expect([month, conditionalBackground(sheet, totalsRow, column)]).toEqual([
        month,
        totalBand(totals[month]!),
      ]);
    });
    expect(busiest).toBeGreaterThan(4);
    expect(new Set(totals.map(totalBand)).size).toBeGreaterThan(1);
  });

  test('recomputed with Show upcoming inspections once "Last inspected" is typed: rolling ones projected, no request', async () => {
    const today = todayOf(harness);
    const placed = schedulesOf(types);
    const rolling = placed.filter(({ schedule }) => schedule.trigger.timing === 'rolling');
    const fixed = placed.filter(({ schedule }) => schedule.trigger.timing !== 'rolling');
    expect(rolling.length).toBeGreaterThan(5);
    // Varied: long overdue, just overdue, due today, recently done; and a few fixed-date ones done.
    const agoFor = (frequency: number, index: number) =>
      [frequency + 40, frequency + 1, frequency, 3, 0, Math.floor(frequency / 2)][index % 6]!;
    rolling.forEach(({ schedule }, index) =>
      typed.set(schedule.id, today - agoFor(schedule.trigger.frequencyInDays ?? 1, index)),
    );
    fixed
      .slice(0, 4)
      .forEach(({ schedule }, index) => typed.set(schedule.id, today - [400, 31, 1, 0][index]!));
    typeLastInspected(
      harness,
      Object.fromEntries([...typed].map(([scheduleId, day]) => [scheduleId, isoOf(day)])),
    );
    harness.callServer('removeToken');
    const requests = (await harness.dataset.requestLog()).requests.length;

    harness.clickMenu(SHOW_UPCOMING);

    expect((await harness.dataset.requestLog()).requests).toHaveLength(requests);
    expectForecast(contiguousMonths);
    const basis = tab(harness, FORECAST_TAB)
      .displayValues(`E2:E${placed.length + 1}`)
      .map(([text]) => text);
    expect(basis).toContain('Projected from Last inspected');
    expect(basis).toContain('Projected from today; overdue: counted this month');
    harness.connect();
  });

  test('a month later the columns are the new months, a column the user put between them stays, and the counts follow', () => {
    const sheet = tab(harness, FORECAST_TAB);
    sheet.insertColumnsAfter(FIRST_MONTH + 3); // between the third and fourth month
    workbook(harness).typeValues(`'${FORECAST_TAB}'!I1:I2`, [['Planned by'], ['Dana']]);
    const firstSchedule = sheet.displayValues('C2')[0]![0];
    harness.emulator.clock.advance(29 * DAY_MS); // 1 March 2028 in Auckland

    harness.clickMenu(SHOW_UPCOMING);

    expect(isoOf(todayOf(harness))).toBe('2028-03-01');
    const months = [6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18];
    expectForecast(months);
    expect(sheet.displayValues('F1:H1')[0]).toEqual(['Mar 2028', 'Apr 2028', 'May 2028']);
    expect(sheet.displayValues('I1:I2')).toEqual([['Planned by'], ['Dana']]);
    expect(sheet.displayValues('C2')[0]![0]).toBe(firstSchedule);
    expect(conditionalBackground(sheet, schedulesOf(types).length + 2, 9)).toBeNull();
  });

  test('a month title missing refuses before any tab changes, saying what to do; Refresh all after the fix recomputes it', () => {
    const book = workbook(harness);
    const schedulesBefore = tab(harness, SCHEDULES_TAB).values();
    book.typeValues(`'${FORECAST_TAB}'!J1`, [['']]);
    harness.emulator.clock.advance(DAY_MS);

    harness.clickMenu(SHOW_UPCOMING);

    const alert = book.ui.alerts.at(-1)!;
    expect(alert.message).toBe(
      'The "Inspection forecast" tab has 11 month columns in row 1 (titled like "Jan 2027"), not 12, so ' +
        'Safety Sync cannot tell which column holds which month. Put the month titles back as they were ' +
        '(Edit > Undo), or delete the tab and use Safety Sync → Import equipment types to make it again. ' +
        'Nothing was changed.',
    );
    expect(tab(harness, SCHEDULES_TAB).values()).toEqual(schedulesBefore);
    // Any month title will do: the run titles the columns for the months it counts.
    book.typeValues(`'${FORECAST_TAB}'!J1`, [['Jan 1999']]);
    harness.clickMenu('Refresh all');
    const [line] = syncLog(harness);
    expect([line![0], line!.includes('Success')]).toEqual(['Refresh equipment types', true]);
    expectForecast([6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  test('a conditional format of the user’s own is kept, and takes precedence; the heat rules are not doubled', () => {
    const sheet = tab(harness, FORECAST_TAB);
    const ours = () => sheet.conditionalRules().filter((rule) => HEAT.includes(rule.format.background ?? ''));
    const heatRules = ours().length;
    harness.emulator.run('addUserRule_', [], { spreadsheetId: harness.spreadsheetId });
    harness.emulator.clock.advance(DAY_MS);

    harness.clickMenu(SHOW_UPCOMING);

    const rules = sheet.conditionalRules();
    expect(rules[0]).toMatchObject({ format: { background: '#cfe2f3' }, ranges: ['F2:Q4'] });
    expect(ours()).toHaveLength(heatRules);
    expect(rules).toHaveLength(heatRules + 1);
  });

  test('the heat rules of an older version (red for five or more) are replaced by the blue ones, not kept', () => {
    const sheet = tab(harness, FORECAST_TAB);
    harness.emulator.run('addFormerHeatRule_', [], { spreadsheetId: harness.spreadsheetId });
    const former = () =>
      sheet.conditionalRules().filter((rule) => FORMER_HEAT.includes(rule.format.background ?? ''));
    expect(former()).toHaveLength(1);

    harness.clickMenu(SHOW_UPCOMING);

    expect(former()).toEqual([]);
    const colours = new Set(sheet.conditionalRules().map((rule) => rule.format.background));
    expect(colours).toEqual(new Set(['#cfe2f3', ...HEAT]));
  });

  test('the names stay in view: the columns through Schedule are frozen, wherever Schedule is', () => {
    const sheet = tab(harness, FORECAST_TAB);
    expect(sheet.frozenColumns).toBe(4);
    expect(sheet.displayValues('D1')).toEqual([['Schedule']]);
    sheet.insertColumnsAfter(2); // a column of the user's among the names

    harness.clickMenu(SHOW_UPCOMING);

    expect(sheet.displayValues('E1')).toEqual([['Schedule']]);
    expect(sheet.frozenColumns).toBe(5);
    sheet.deleteColumns(3, 1);
    harness.clickMenu(SHOW_UPCOMING);
    expect(sheet.frozenColumns).toBe(4);
  });

  test('the snapshot (npm start) shows the tab with its heat colours', () => {
    const html = renderWorkbookHtml(harness.emulator.workbooks, harness.spreadsheetId);
    expect(html).toContain(`>${FORECAST_TAB}</a>`);
    for (const colour of HEAT) expect(html).toContain(`background-color: ${colour}`);
    expect(html).not.toContain('Link not followed');
  });
});

describe('Spreadsheet service calls of the forecast do not grow with the number of schedules', () => {
  async function showUpcomingCalls(equipmentTypes: number) {
    const harness = await createAddonHarness({ dataset: { equipmentTypes, seed: 3 } });
    try {
      harness.connect();
      harness.clickMenu(IMPORT);
      harness.emulator.counter.reset();
      harness.clickMenu(SHOW_UPCOMING);
      return {
        calls: spreadsheetServiceCalls(harness.emulator.counter.snapshot()),
        rows: tab(harness, FORECAST_TAB).lastRow,
      };
    } finally {
      await harness.done();
    }
  }

  test('Show upcoming inspections makes the same calls for 8 and for 80 types', async () => {
    const small = await showUpcomingCalls(8);
    const large = await showUpcomingCalls(80);
    expect(large.rows).toBeGreaterThan(small.rows * 5);
    expect(large.calls).toEqual(small.calls);
  });
});
