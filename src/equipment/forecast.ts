/**
 * The "Inspection forecast" tab: the inspection workload of the year ahead, from the same rules as
 * Upcoming inspections (inspections.ts, "Due dates ahead"). A row per schedule, linking to its row
 * on the "Inspection schedules" tab, a column per calendar month in the spreadsheet's time zone
 * (the current month first, twelve in all) holding how many inspections fall due in it, the
 * twelve months' sum, and a totals row below the schedules.
 *
 * What a manager reads at a glance:
 * - every count is a number (0 included), so SUM, charts and the heat colours work on them;
 * - "Basis" says how far the counts can be trusted: "Exact" (dom and dow: their dates are fixed),
 *   "Projected from Last inspected" (rolling: each inspection assumed done on its due date), and
 *   for an overdue schedule that it is counted once in the current month, as due now;
 * - a schedule that cannot be placed (no Last inspected for a rolling one, a Last inspected to
 *   check, an unsupported schedule) keeps its row, with blank counts and "Not forecast: <why>" as
 *   its Basis, so that no schedule silently drops out of the year's workload; the totals row says
 *   how many schedules the totals cover.
 *
 * The month columns are titled by month ("Nov 2026"), so their titles change as months pass: a run
 * finds them as the twelve titles that name a month, in their order, and titles them anew before
 * writing (every count is recomputed, so a column holds whichever month it is titled). The tab's
 * other columns are found by their titles, as on every tab.
 */
import { type CalendarDate, dateFromParts, daysInMonth, toParts } from '../lib/dates';
import type { NumberBand } from '../sheets/conditional-formats';
import { type CellValue, type ColumnSpec, rowLinkFormula, type Table } from '../sheets/table';
import { TabLayoutError } from '../sheets/tab-layout';
import { dueDatesAhead } from './inspections';
import type { ScheduleEntry } from './upcoming';

export const FORECAST_SHEET = 'Inspection forecast';
export const FORECAST_MONTH_COUNT = 12;

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_TITLE = new RegExp(`^(?:${MONTH_NAMES.join('|')}) \\d{4}$`);

export const ForecastBasis = {
  exact: 'Exact',
  exactOverdue: 'Exact; overdue: counted this month',
  projected: 'Projected from Last inspected',
  projectedOverdue: 'Projected from today; overdue: counted this month',
  notForecastPrefix: 'Not forecast: ',
} as const;

export interface ForecastMonth {
  first: CalendarDate;
  last: CalendarDate;
  /** "Nov 2026": the column's title. */
  title: string;
}

/** The current month (today's, in the spreadsheet's time zone) and the eleven after it. */
export function forecastMonths(today: CalendarDate): ForecastMonth[] {
  const { year, month } = toParts(today);
  return Array.from({ length: FORECAST_MONTH_COUNT }, (_, offset) => {
    const index = year * 12 + month - 1 + offset;
    const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
    return {
      first: dateFromParts(y, m, 1)!,
      last: dateFromParts(y, m, daysInMonth(y, m))!,
      title: `${MONTH_NAMES[m - 1]!} ${y}`,
    };
  });
}

const LEADING_COLUMNS: readonly ColumnSpec[] = [
  { header: 'Equipment type ID', kind: 'text', width: 130 },
  { header: 'Equipment type', kind: 'text', width: 220 },
  { header: 'Schedule ID', kind: 'text', width: 110 },
  { header: 'Schedule', kind: 'formula', width: 200 },
  { header: 'Basis', kind: 'text', width: 280 },
];
const TRAILING_COLUMNS: readonly ColumnSpec[] = [
  { header: '12 months', kind: 'integer', width: 80 },
  { header: 'Schedule key', kind: 'text', width: 100, hidden: true },
];

/** The columns whose titles stay the same from month to month (the key last, as on every linked tab). */
export const FORECAST_FIXED_COLUMNS: readonly ColumnSpec[] = [...LEADING_COLUMNS, ...TRAILING_COLUMNS];

/** The table index of the Schedule column: the last of the names. */
export const SCHEDULE_NAME_COLUMN = LEADING_COLUMNS.findIndex((column) => column.header === 'Schedule');

/** The table index of the first month column; the others follow it. */
export const FIRST_MONTH_COLUMN = LEADING_COLUMNS.length;

export function forecastColumns(months: readonly ForecastMonth[]): ColumnSpec[] {
  return [
    ...LEADING_COLUMNS,
    ...months.map((month): ColumnSpec => ({ header: month.title, kind: 'integer', width: 75 })),
    ...TRAILING_COLUMNS,
  ];
}

/** The totals row's key: a schedule's key is a JSON list (partKey), so none can be this. */
const TOTALS_KEY = 'Total';

/** The number of due dates in each month. */
function countByMonth(dates: readonly CalendarDate[], months: readonly ForecastMonth[]): number[] {
  const counts = months.map(() => 0);
  for (const date of dates) {
    const index = months.findIndex((month) => date >= month.first && date <= month.last);
    if (index >= 0) counts[index]!++;
  }
  return counts;
}

function basisOf(projected: boolean, overdue: boolean): string {
  if (projected) return overdue ? ForecastBasis.projectedOverdue : ForecastBasis.projected;
  return overdue ? ForecastBasis.exactOverdue : ForecastBasis.exact;
}

export interface Forecast {
  table: Table;
  months: ForecastMonth[];
  /** Each month's total over the schedules forecast. */
  monthTotals: number[];
}

/** The tab's rows: the schedules in the schedules tab's order, then the totals. */
export function forecastTable(
  entries: readonly ScheduleEntry[],
  schedulesSheetId: number,
  today: CalendarDate,
): Forecast {
  const months = forecastMonths(today);
  const through = months[months.length - 1]!.last;
  const columns = forecastColumns(months);
  const monthTotals = months.map(() => 0);
  let forecast = 0;
  const rows = entries.map((entry): CellValue[] => {
    const ahead = dueDatesAhead(entry.inspectionInput, through);
    const leading = [
      entry.typeId,
      entry.typeTitle,
      entry.scheduleId,
      rowLinkFormula(schedulesSheetId, entry.row, entry.scheduleName),
    ];
    if (ahead === null) {
      const why = entry.inspection.reason ?? entry.inspection.status;
      return [...leading, ForecastBasis.notForecastPrefix + why, ...months.map(() => null), null, entry.key];
    }
    forecast++;
    const counts = countByMonth(ahead.dates, months);
    counts.forEach((count, index) => (monthTotals[index]! += count));
    return [...leading, basisOf(ahead.projected, ahead.overdue), ...counts, sum(counts), entry.key];
  });
  const schedules = entries.length === 1 ? 'schedule' : 'schedules';
  rows.push([
    'Total',
    '',
    '',
    '',
    `${forecast} of ${entries.length} ${schedules} forecast`,
    ...monthTotals,
    sum(monthTotals),
    TOTALS_KEY,
  ]);
  return { table: { columns, rows, keyColumn: columns.length - 1 }, months, monthTotals };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * Where the month columns are in row 1 (0-based, in order): the twelve titles that name a month.
 * An empty tab has none yet. Any other number refuses, before anything is written, as a missing
 * title refuses on every tab.
 */
export function monthColumnsOf(tabName: string, header: readonly unknown[]): number[] {
  const found = header.flatMap((cell, index) =>
    typeof cell === 'string' && MONTH_TITLE.test(cell) ? [index] : [],
  );
  // Row 1 as getValues reads it: a blank cell is ''.
  const isEmpty = header.every((cell) => cell === '');
  if (isEmpty || found.length === FORECAST_MONTH_COUNT) return found;
  throw new TabLayoutError(
    `The "${tabName}" tab has ${found.length} month columns in row 1 (titled like "Jan 2027"), not ` +
      `${FORECAST_MONTH_COUNT}, so Safety Sync cannot tell which column holds which month. Put the ` +
      'month titles back as they were (Edit > Undo), or delete the tab and use Safety Sync → Import ' +
      'equipment types to make it again. Nothing was changed.',
  );
}

/**
 * Heat colours of a schedule's month: one inspection, a few, or weekly and more often (up to daily).
 * One hue, paler to deeper blue: red and amber mean Expired and Expiring on every other tab, and a
 * busy month is neither.
 */
export const SCHEDULE_HEAT: readonly NumberBand[] = [
  { from: 1, to: 1, background: '#deebf7', fontColor: '#000000' },
  { from: 2, to: 4, background: '#9ecae1', fontColor: '#000000' },
  { from: 5, to: 31, background: '#3182bd', fontColor: '#ffffff' },
];

/** Every colour of the heat scale: how the add-on knows its own rules from the user's. */
export const HEAT_PALETTE: readonly string[] = SCHEDULE_HEAT.map((band) => band.background);

/**
 * The colours of the heat scale before it was blue (yellow, orange, red): a tab coloured then has
 * rules in them, which are the add-on's and are replaced, not kept as the user's.
 */
export const FORMER_HEAT_PALETTE: readonly string[] = ['#fff2cc', '#f9cb9c', '#e06666'];

/**
 * Heat colours of the totals row, by where each month sits between the quietest and the busiest:
 * the top third of that span in the strongest colour, the middle third in the next, the bottom in
 * the palest (a month with none uncoloured). Relative, because the totals of a year are often close
 * to each other: what a manager looks for is the months busier than the rest.
 */
export function totalsHeat(monthTotals: readonly number[]): NumberBand[] {
  const busiest = Math.max(0, ...monthTotals);
  const quietest = Math.min(busiest, ...monthTotals);
  const span = busiest - quietest;
  const [pale, middle, strong] = SCHEDULE_HEAT as [NumberBand, NumberBand, NumberBand];
  const middleFrom = Math.max(1, quietest + Math.ceil(span / 3));
  const strongFrom = Math.max(1, quietest + Math.ceil((2 * span) / 3));
  return [
    { ...pale, from: Math.max(1, quietest), to: middleFrom - 1 },
    { ...middle, from: middleFrom, to: strongFrom - 1 },
    { ...strong, from: strongFrom, to: busiest },
  ].filter((band) => band.from <= band.to);
}
