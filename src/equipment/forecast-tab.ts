/**
 * Writing the Inspection forecast tab (forecast.ts builds it), in the run that writes Upcoming
 * inspections: the month columns titled for this month, the table, the totals row in bold, and
 * the heat colours. A fixed number of Spreadsheet calls, whatever the number of schedules.
 */
import type { CalendarDate } from '../lib/dates';
import { applyNumberBands, type BandedRanges, type NumberBand } from '../sheets/conditional-formats';
import { columnRuns } from '../sheets/column-runs';
import { layoutOfHeader, type TabLayout } from '../sheets/tab-layout';
import { writeTable } from '../sheets/table-writer';
import {
  FIRST_MONTH_COLUMN,
  FORECAST_MONTH_COUNT,
  type Forecast,
  FORMER_HEAT_PALETTE,
  forecastTable,
  HEAT_PALETTE,
  monthColumnsOf,
  SCHEDULE_HEAT,
  SCHEDULE_NAME_COLUMN,
  totalsHeat,
} from './forecast';
import { readHeader } from './key-columns';
import type { InspectionCounts, ScheduleEntry } from './upcoming';
import type { SectionFigures } from '../platform/overview/overview';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * Titles the month columns found in row 1 for the months of this run, in their order (one write
 * per run of adjacent columns, only when a title changes), and returns row 1 as it then is.
 */
function retitleMonthColumns(sheet: Sheet, header: readonly unknown[], titles: readonly string[]): unknown[] {
  const found = monthColumnsOf(sheet.getName(), header);
  const retitled = [...header];
  found.forEach((index, month) => (retitled[index] = titles[month]!));
  if (found.every((index) => retitled[index] === header[index])) return retitled;
  let month = 0;
  for (const run of columnRuns(found.map((index) => index + 1))) {
    const cells = titles.slice(month, month + run.width);
    month += run.width;
    sheet.getRange(1, run.first, 1, run.width).setValues([cells]);
  }
  return retitled;
}

/** Month cells of rows `first` to `first + count − 1`, one range per run of adjacent month columns. */
function monthRanges(sheet: Sheet, layout: TabLayout, months: number, first: number, count: number) {
  if (count <= 0) return [];
  const columns = layout.tableColumns.slice(FIRST_MONTH_COLUMN, FIRST_MONTH_COLUMN + months);
  return columnRuns(columns).map((run) => sheet.getRange(first, run.first, count, run.width));
}

/**
 * Keeps the names (type and schedule, up to the Schedule column) in view while the months scroll:
 * frozen through the Schedule column, wherever it is, as long as it is left of every month (else
 * freezing would hold months still too, and the tab's freeze is left as the user set it).
 */
function freezeNames(sheet: Sheet, layout: TabLayout, frozenColumns: number): void {
  const schedule = layout.tableColumns[SCHEDULE_NAME_COLUMN]!;
  const firstMonth = Math.min(
    ...layout.tableColumns.slice(FIRST_MONTH_COLUMN, FIRST_MONTH_COLUMN + FORECAST_MONTH_COUNT),
  );
  if (schedule < firstMonth && frozenColumns !== schedule) sheet.setFrozenColumns(schedule);
}

export interface ForecastWrite {
  /** See WriteResult.slowerWrite. */
  slowerWrite: string | null;
  /** The Total row's months, for the Overview. */
  totals: Pick<Forecast, 'months' | 'monthTotals'>;
}

/** Writes the tab (in place, like every table). */
export function writeForecastTab(
  sheet: Sheet,
  entries: readonly ScheduleEntry[],
  schedulesSheetId: number,
  today: CalendarDate,
): ForecastWrite {
  const { table, months, monthTotals } = forecastTable(entries, schedulesSheetId, today);
  // Everything read before the first write: a read after a write costs a commit.
  const hasRows = sheet.getLastRow() > 1;
  const rules = sheet.getConditionalFormatRules();
  const frozenColumns = sheet.getFrozenColumns();
  const header = retitleMonthColumns(
    sheet,
    readHeader(sheet),
    months.map((month) => month.title),
  );
  const layout = layoutOfHeader(sheet.getName(), header, table.columns, hasRows);
  const { slowerWrite } = writeTable(sheet, table);
  freezeNames(sheet, layout, frozenColumns);

  // Rows move as schedules come and go: the totals row is bold wherever it is now, and only there.
  const totalsRow = entries.length + 2;
  if (entries.length > 0) sheet.getRange(2, 1, entries.length, layout.width).setFontWeight('normal');
  sheet.getRange(totalsRow, 1, 1, layout.width).setFontWeight('bold');

  const heat = (rows: number, first: number, bands: readonly NumberBand[]): BandedRanges => ({
    ranges: monthRanges(sheet, layout, months.length, first, rows),
    bands,
  });
  applyNumberBands(
    sheet,
    [heat(entries.length, 2, SCHEDULE_HEAT), heat(1, totalsRow, totalsHeat(monthTotals))],
    [...HEAT_PALETTE, ...FORMER_HEAT_PALETTE],
    rules,
  );
  return { slowerWrite, totals: { months, monthTotals } };
}

/**
 * The Overview's Inspections section: the counts of Upcoming inspections (its labels link to the
 * tab, `upcomingSheetId`, which lists them) and of schedules never inspected, out of all
 * `schedules`, and the forecast's Total row. Never inspected: "No inspection recorded", a schedule
 * that waits for a first Last inspected to be due at all, as Upcoming inspections and the digest
 * list it (a calendar schedule is due by the calendar, recorded or not).
 */
export function inspectionFigures(
  counts: InspectionCounts,
  schedules: readonly ScheduleEntry[],
  { months, monthTotals }: ForecastWrite['totals'],
  upcomingSheetId: number,
): SectionFigures {
  return {
    expired: counts.expired,
    expiring: counts.expiring,
    of: schedules.length,
    listSheetId: upcomingSheetId,
    neverDone: counts.noInspectionRecorded,
    months: months.map((month, index) => ({ first: month.first, count: monthTotals[index]! })),
  };
}
