import { STATUS_COLOURS } from '../../src/sheets/status-words';
/**
 * The Inspection forecast's rows against an oracle that steps through the calendar day by day
 * (forecast-oracle.ts), over seeded sets of schedules of every timing around awkward days (month
 * ends, leap days, year ends). A failure names its seed; FORECAST_SEED=n replays one, and
 * FORECAST_SEQUENCES=n runs the first n.
 */
import type { CalendarDate } from '../../src/lib/dates';
import { dueDatesAhead, type InspectionInput, nextInspection } from '../../src/equipment/inspections';
import {
  FIRST_MONTH_COLUMN,
  FORECAST_SHEET,
  FORECAST_FIXED_COLUMNS,
  ForecastBasis,
  forecastColumns,
  forecastMonths,
  forecastTable,
  HEAT_PALETTE,
  monthColumnsOf,
  SCHEDULE_HEAT,
  totalsHeat,
} from '../../src/equipment/forecast';
import type { ScheduleEntry } from '../../src/equipment/upcoming';
import { sequenceSeeds } from '../support/seeded-random';
import { dayOfIso, generateCase, isoOf, monthTitles, oracleForecast } from './forecast-oracle';

const SCHEDULES_SHEET_ID = 42;
const CASES = 300;
const { seeds: SEEDS } = sequenceSeeds('FORECAST', CASES);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

/** The schedules tab's row `index` (from 0): a schedule with its Last inspected, if any. */
function scheduleEntry(
  index: number,
  trigger: unknown,
  lastInspected: CalendarDate | null,
  today: CalendarDate,
): ScheduleEntry {
  const inspectionInput: InspectionInput = {
    trigger,
    today,
    ...(lastInspected === null ? {} : { lastInspected: { kind: 'date', date: lastInspected } }),
  };
  return {
    typeId: `t${index % 5}`,
    typeTitle: `Type ${index % 5}`,
    scheduleId: `s${index}`,
    scheduleName: `Schedule ${index}`,
    key: JSON.stringify([`t${index % 5}`, `s${index}`]),
    row: index + 2,
    inspection: nextInspection(inspectionInput),
    inspectionInput,
  };
}

function entriesOf(seed: number): { entries: ScheduleEntry[]; today: CalendarDate } {
  const generated = generateCase(seed);
  const today = generated.today as CalendarDate;
  const entries = generated.schedules.map((schedule, index) =>
    scheduleEntry(index, schedule.trigger, schedule.lastInspected as CalendarDate | null, today),
  );
  return { entries, today };
}

function describeSchedule(entry: ScheduleEntry): string {
  const last = entry.inspectionInput.lastInspected;
  return `${JSON.stringify(entry.inspectionInput.trigger)}, Last inspected ${
    last?.kind === 'date' ? isoOf(last.date) : 'none'
  }`;
}

test.each(SEEDS)('seed %i: every schedule counted month by month as the calendar says', (seed) => {
  const { entries, today } = entriesOf(seed);
  try {
    const { table, months, monthTotals } = forecastTable(entries, SCHEDULES_SHEET_ID, today);
    expect(months.map((month) => month.title)).toEqual(monthTitles(today));
    expect(table.columns.map((column) => column.header)).toEqual(
      forecastColumns(months).map((c) => c.header),
    );
    expect(table.rows).toHaveLength(entries.length + 1);
    const totals = new Array<number>(12).fill(0);
    entries.forEach((entry, index) => {
      const row = table.rows[index]!;
      const counts = row.slice(FIRST_MONTH_COLUMN, FIRST_MONTH_COLUMN + 12);
      const expected = oracleForecast(
        {
          trigger: entry.inspectionInput.trigger as object,
          lastInspected:
            entry.inspectionInput.lastInspected?.kind === 'date'
              ? entry.inspectionInput.lastInspected.date
              : null,
        },
        today,
      );
      const where = `today ${isoOf(today)}, schedule ${describeSchedule(entry)}`;
      expect({ where, key: row[row.length - 1], link: row[3] }).toEqual({
        where,
        key: entry.key,
        link: `=HYPERLINK("#gid=42&range=A${entry.row}", "${entry.scheduleName}")`,
      });
      if (!expected.forecast) {
        expect({ where, counts, total: row[FIRST_MONTH_COLUMN + 12] }).toEqual({
          where,
          counts: new Array(12).fill(null),
          total: null,
        });
        expect(row[FIRST_MONTH_COLUMN - 1]).toBe(
          ForecastBasis.notForecastPrefix + (entry.inspection.reason ?? ''),
        );
        return;
      }
      const basis = expected.projected
        ? expected.overdue
          ? ForecastBasis.projectedOverdue
          : ForecastBasis.projected
        : expected.overdue
          ? ForecastBasis.exactOverdue
          : ForecastBasis.exact;
      expect({ where, counts, basis: row[FIRST_MONTH_COLUMN - 1] }).toEqual({
        where,
        counts: expected.counts,
        basis,
      });
      expect(row[FIRST_MONTH_COLUMN + 12]).toBe(expected.counts.reduce((sum, count) => sum + count, 0));
      expected.counts.forEach((count, month) => (totals[month]! += count));
    });
    const totalsRow = table.rows[entries.length]!;
    expect(totalsRow.slice(FIRST_MONTH_COLUMN, FIRST_MONTH_COLUMN + 12)).toEqual(totals);
    expect(monthTotals).toEqual(totals);
    expect(totalsRow[FIRST_MONTH_COLUMN + 12]).toBe(totals.reduce((sum, count) => sum + count, 0));
    const forecastCount = entries.filter((entry) => entry.inspection.dueDate !== null).length;
    expect(totalsRow.slice(0, FIRST_MONTH_COLUMN)).toEqual([
      'Total',
      '',
      '',
      '',
      `${forecastCount} of ${entries.length} schedules forecast`,
    ]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`FORECAST_SEED=${seed} (today ${isoOf(today)}): ${message}`);
  }
});

test('the generated schedules cover every timing, month-end and leap-day anchors, and overdue ones', () => {
  const seen = new Set<string>();
  // The generator and the oracle only: the rules under test are not run here.
  for (const seed of range(1, CASES)) {
    const { schedules, today } = generateCase(seed);
    if (isoOf(today).endsWith('-02-29')) seen.add('today a leap day');
    for (const { trigger, lastInspected } of schedules) {
      const expected = oracleForecast({ trigger, lastInspected }, today);
      if (!expected.forecast) {
        seen.add('not forecast');
        continue;
      }
      const { timing, timingDateNumber } = trigger as { timing: string; timingDateNumber?: number };
      seen.add(`${timing}${expected.overdue ? ' overdue' : ''}`);
      const day = (timingDateNumber ?? 0) % 100;
      if (timing === 'dom' && day >= 29) seen.add(`dom on the ${day}th`);
      if (timingDateNumber && timingDateNumber % 10_000 === 229) seen.add('anchor on Feb 29');
      if (expected.counts.some((count) => count >= 28)) seen.add('daily');
    }
  }
  expect([...seen].sort()).toEqual(
    [
      'anchor on Feb 29',
      'daily',
      'dom',
      'dom on the 29th',
      'dom on the 30th',
      'dom on the 31th',
      'dom overdue',
      'dow',
      'dow overdue',
      'not forecast',
      'rolling',
      'rolling overdue',
      'today a leap day',
    ].sort(),
  );
});

test('the months: the current one in the spreadsheet’s calendar and the eleven after it, across a year end', () => {
  const months = forecastMonths(dayOfIso('2024-12-31') as CalendarDate);
  expect(months.map((month) => month.title)).toEqual([
    'Dec 2024',
    'Jan 2025',
    'Feb 2025',
    'Mar 2025',
    'Apr 2025',
    'May 2025',
    'Jun 2025',
    'Jul 2025',
    'Aug 2025',
    'Sep 2025',
    'Oct 2025',
    'Nov 2025',
  ]);
  expect([isoOf(months[2]!.first), isoOf(months[2]!.last)]).toEqual(['2025-02-01', '2025-02-28']);
});

test('the month columns are found by their titles wherever they are; any count but twelve refuses', () => {
  const titles = forecastColumns(forecastMonths(dayOfIso('2026-11-23') as CalendarDate)).map(
    (column) => column.header,
  );
  expect(monthColumnsOf('Inspection forecast', titles)).toEqual(range(5, 16));
  expect(monthColumnsOf('Inspection forecast', [])).toEqual([]);
  const userColumnBetween = [...titles.slice(0, 8), 'My notes', ...titles.slice(8)];
  expect(monthColumnsOf('Inspection forecast', userColumnBetween)).toEqual([...range(5, 7), ...range(9, 17)]);
  expect(() =>
    monthColumnsOf(
      'Forecast',
      titles.filter((title) => title !== 'Mar 2027'),
    ),
  ).toThrow('The "Forecast" tab has 11 month columns in row 1 (titled like "Jan 2027"), not 12');
  expect(() => monthColumnsOf('Forecast', [...titles, 'Dec 2030'])).toThrow(
    /has 13 month columns .*Nothing was changed\.$/,
  );
  expect(FORECAST_FIXED_COLUMNS.map((column) => column.header)).toEqual(
    titles.filter((title) => !/^[A-Z][a-z]{2} \d{4}$/.test(title)),
  );
});

test('heat: a schedule’s month by how many, the totals by where they sit between the quietest and busiest month', () => {
  expect(SCHEDULE_HEAT.map((band) => [band.from, band.to])).toEqual([
    [1, 1],
    [2, 4],
    [5, 31],
  ]);
  const bands = (totals: number[]) => totalsHeat(totals).map((band) => [band.from, band.to, band.background]);
  const [pale, middle, strong] = SCHEDULE_HEAT.map((band) => band.background);
  expect(bands([0, 9, 3, 6, 2, 1, 0, 0, 0, 0, 0, 0])).toEqual([
    [1, 2, pale],
    [3, 5, middle],
    [6, 9, strong],
  ]);
  // Close totals still tell the busier months apart.
  expect(bands([40, 52, 44, 47, 48, 41, 40, 43, 50, 45, 46, 42])).toEqual([
    [40, 43, pale],
    [44, 47, middle],
    [48, 52, strong],
  ]);
  expect(bands(new Array(12).fill(7))).toEqual([[7, 7, strong]]);
  expect(bands([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual([[1, 1, strong]]);
  expect(bands(new Array(12).fill(0))).toEqual([]);
});

const TODAY_23_NOV_2026 = dayOfIso('2026-11-23') as CalendarDate;

test('the tab, its columns as a manager sees them: titles, formats, the months, the hidden key last', () => {
  expect(FORECAST_SHEET).toBe('Inspection forecast');
  const { table } = forecastTable([], SCHEDULES_SHEET_ID, TODAY_23_NOV_2026);
  const monthColumn = (title: string) => ({ header: title, kind: 'integer', hidden: undefined });
  expect(table.columns.map(({ header, kind, hidden }) => ({ header, kind, hidden }))).toEqual([
    { header: 'Equipment type ID', kind: 'text', hidden: undefined },
    { header: 'Equipment type', kind: 'text', hidden: undefined },
    { header: 'Schedule ID', kind: 'text', hidden: undefined },
    { header: 'Schedule', kind: 'formula', hidden: undefined },
    { header: 'Basis', kind: 'text', hidden: undefined },
    ...monthTitles(TODAY_23_NOV_2026).map(monthColumn),
    { header: '12 months', kind: 'integer', hidden: undefined },
    { header: 'Schedule key', kind: 'text', hidden: true },
  ]);
  expect(table.columns[table.keyColumn]!.header).toBe('Schedule key');
});

test('one schedule: its row, then the totals row, keyed apart from every schedule', () => {
  const weekly = {
    type: 'time',
    timing: 'dow',
    timingDateNumber: 20261102,
    frequencyInDays: 7,
    expiringPeriodInDays: 3,
  };
  const entry = scheduleEntry(0, weekly, null, TODAY_23_NOV_2026);
  const { table } = forecastTable([entry], SCHEDULES_SHEET_ID, TODAY_23_NOV_2026);
  expect(table.rows.map((row) => row[table.keyColumn])).toEqual([entry.key, 'Total']);
  // Mondays from 23 Nov 2026 through Oct 2027: 2 in November, then each month's Mondays.
  expect(table.rows[1]).toEqual([
    'Total',
    '',
    '',
    '',
    '1 of 1 schedule forecast',
    2,
    4,
    4,
    4,
    5,
    4,
    5,
    4,
    4,
    5,
    4,
    4,
    49,
    'Total',
  ]);
});

test('the due dates ahead of a schedule, as Upcoming inspections and the forecast list them', () => {
  const weekly = {
    type: 'time',
    timing: 'dow',
    timingDateNumber: 20261102,
    frequencyInDays: 7,
    expiringPeriodInDays: 3,
  };
  const ahead = dueDatesAhead(
    { trigger: weekly, today: TODAY_23_NOV_2026 },
    dayOfIso('2026-12-14') as CalendarDate,
  );
  expect({ ...ahead, dates: ahead?.dates.map(isoOf) }).toEqual({
    dates: ['2026-11-23', '2026-11-30', '2026-12-07', '2026-12-14'],
    projected: false,
    overdue: false,
  });
});

test('a first row left blank is an empty tab: no month columns yet, and no refusal', () => {
  expect(monthColumnsOf('Inspection forecast', ['', '', ''])).toEqual([]);
  expect(() => monthColumnsOf('Inspection forecast', ['', 'Dec 2026', ''])).toThrow('has 1 month columns');
});

test('the refusal of month columns that are not twelve says how to put them back', () => {
  expect(() => monthColumnsOf('Inspection forecast', ['Basis', 'Nov 2026'])).toThrow(
    'The "Inspection forecast" tab has 1 month columns in row 1 (titled like "Jan 2027"), not 12, so ' +
      'Safety Sync cannot tell which column holds which month. Put the month titles back as they were ' +
      '(Edit > Undo), or delete the tab and use Safety Sync → Import equipment types to make it again. ' +
      'Nothing was changed.',
  );
});

test('the heat colours: pale to deep blue, white text on the deepest; none of them a status colour', () => {
  expect(SCHEDULE_HEAT.map(({ background, fontColor }) => [background, fontColor])).toEqual([
    ['#deebf7', '#000000'],
    ['#9ecae1', '#000000'],
    ['#3182bd', '#ffffff'],
  ]);
  expect(HEAT_PALETTE).toEqual(['#deebf7', '#9ecae1', '#3182bd']);
  const statusColours = STATUS_COLOURS.flatMap((colour) => [colour.background, colour.fontColor]);
  expect(HEAT_PALETTE.filter((colour) => statusColours.includes(colour))).toEqual([]);
});
