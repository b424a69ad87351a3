/**
 * The Overview's compliance trend, right of its charts (columns N–P): for each of the last 24
 * months (the current one last, "so far"), the Overall and Required compliance that Compliance
 * history records, which the Overview's third chart, a line chart, reads. Its cells N1:P30 are
 * rewritten by every run that writes the Trainings section; their formats are set once, when the
 * tab is made (or gets this block), and are the user's after.
 */
import { type CalendarDate, toSheetSerial } from '../../lib/dates';
import { gridA1 } from '../../sheets/a1-notation';
import { type CellValue, numberFormatOf } from '../../sheets/table';
import { HEADER_ROW, MONTH_FORMAT, SECTION_LAYOUTS } from './overview';

export const TREND = {
  column: 14,
  title: 'Compliance per month (Compliance history)',
  chartTitle: 'Compliance per month, last 24 months',
  /** Below the two other charts. */
  chartAnchor: { row: 41, column: 7 },
} as const;

/** One month of the trend: compliant ÷ counted, null when nothing counted (or nothing recorded). */
export interface TrendMonth {
  /** The month's first day. */
  first: CalendarDate;
  overall: number | null;
  required: number | null;
}

const MONTHS = SECTION_LAYOUTS.trainings.months;
const ROWS = HEADER_ROW + MONTHS;
const PERCENT = '0%';

/** The month table the chart reads, its header row included. */
export function trendRangeA1(): string {
  return gridA1(HEADER_ROW, TREND.column, MONTHS + 1, 3);
}

/** The block's cells, rows 1 to 30: the title, then the month table from the header row. */
export function trendValues(months: readonly TrendMonth[]): CellValue[][] {
  if (months.length !== MONTHS) throw new Error(`The compliance trend needs ${MONTHS} months.`);
  const blank = (): CellValue[] => ['', '', ''];
  return [
    [TREND.title, '', ''],
    ...Array.from({ length: HEADER_ROW - 2 }, blank),
    ['Month', 'Overall', 'Required'],
    ...months.map((month): CellValue[] => [
      toSheetSerial(month.first),
      month.overall ?? '',
      month.required ?? '',
    ]),
  ];
}

/** The block's number formats, the current month marked "so far". */
export function trendFormats(): string[][] {
  const text = numberFormatOf('text');
  return [
    ...Array.from({ length: HEADER_ROW }, () => [text, text, text]),
    ...Array.from({ length: MONTHS }, (_, index) => [
      index === MONTHS - 1 ? `${MONTH_FORMAT}" (so far)"` : MONTH_FORMAT,
      PERCENT,
      PERCENT,
    ]),
  ];
}

export function setTrendFormats(sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  sheet.getRange(1, TREND.column, ROWS, 3).setNumberFormats(trendFormats());
}

export function writeTrend(sheet: GoogleAppsScript.Spreadsheet.Sheet, months: readonly TrendMonth[]): void {
  sheet.getRange(1, TREND.column, ROWS, 3).setValues(trendValues(months));
}

export function insertTrendChart(sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  sheet.insertChart(
    sheet
      .newChart()
      .addRange(sheet.getRange(trendRangeA1()))
      .setChartType(Charts.ChartType.LINE)
      .setPosition(TREND.chartAnchor.row, TREND.chartAnchor.column, 0, 0)
      .setOption('title', TREND.chartTitle)
      .build(),
  );
}
