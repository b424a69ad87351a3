/**
 * The "Overview" tab: what a manager reads first. Two sections side by side, each written by the
 * runs that compute its figures and each with its chart beside it:
 * - Trainings (columns A–B): when completions were last imported or refreshed, how many person ×
 *   training pairs are Expired and Expiring (as on Expiring trainings) out of those completed, the
 *   compliance of the required trainings (and, in its label, the overall one the matrix shows and how
 *   many pairs the Exemptions tab excuses), and
 *   completions per month over the last 24 months, which the first chart reads;
 * - Inspections (columns D–E): when equipment types were last imported or refreshed, how many
 *   schedules are Expired and Expiring (as on Upcoming inspections) and never inspected, out of all
 *   of them, and the inspections due per month of the Inspection forecast's Total row, which the
 *   second chart reads.
 * Each section's title row says when its figures were computed ("as of", in the spreadsheet's time
 * zone); each count's label links to the tab that lists its items; the current month reads as
 * partial ("to date", "rest of month").
 * Below the Trainings section, from row 32, the roll-ups by site and by department (roll-up-block.ts);
 * right of the charts, in N1:P30, the compliance per month and its chart (compliance-trend.ts).
 * Every position is fixed, so that a chart keeps reading its table without being touched: the
 * tab is Safety Sync's own, and its cells A1:E30 and N1:P30, and the roll-ups' rows, are rewritten
 * by every run that computes them.
 * Like the Sync log, it is platform's: each capability writes its own section within its run's
 * writes (their Spreadsheet calls are counted), so both capabilities reach it and it reaches neither.
 */
import { formatCount } from '../../lib/numbers';
import { type CalendarDate, dateFromParts, daysInMonth, toParts, toSheetSerial } from '../../lib/dates';
import { gridA1 } from '../../sheets/a1-notation';
import { type CellValue, cellLinkFormula, numberFormatOf } from '../../sheets/table';

export const OVERVIEW_SHEET = 'Overview';

export type OverviewSection = 'trainings' | 'inspections';

export interface SectionLayout {
  /** The section's first column; its values are in the next one. */
  column: number;
  title: string;
  /** What its Expired and Expiring figures count, said with their denominator. */
  unit: string;
  /**
   * Row 5's figure: work never started (out of the same denominator), or the compliance of the
   * required trainings.
   */
  fifthRow: 'neverDone' | 'compliance';
  /** The label of the never-started figure. */
  neverDoneLabel?: string;
  /** How its month table's current month reads: partial, the days before today or after it. */
  currentMonth: { row: 'first' | 'last'; label: string };
  countTitle: string;
  /** How many months its table holds. */
  months: number;
  chartTitle: string;
  /** The chart's top left cell when Safety Sync makes it (the user may move it). */
  chartAnchor: { row: number; column: number };
}

export const SECTION_LAYOUTS: Readonly<Record<OverviewSection, SectionLayout>> = {
  trainings: {
    column: 1,
    title: 'Trainings (people × trainings)',
    unit: 'completed person × training pairs',
    fifthRow: 'compliance',
    currentMonth: { row: 'last', label: 'to date' },
    countTitle: 'Completions',
    months: 24,
    chartTitle: 'Completed trainings per month, last 24 months',
    chartAnchor: { row: 1, column: 7 },
  },
  inspections: {
    column: 4,
    title: 'Inspections (schedules)',
    unit: 'schedules',
    fifthRow: 'neverDone',
    neverDoneLabel: 'Never inspected: enter Last inspected',
    currentMonth: { row: 'first', label: 'rest of month' },
    countTitle: 'Inspections due',
    months: 12,
    chartTitle: 'Inspections due per month, next 12 months (forecast)',
    chartAnchor: { row: 21, column: 7 },
  },
};

export const OVERVIEW_SECTIONS = Object.keys(SECTION_LAYOUTS) as OverviewSection[];

/**
 * Rows above each section's month table: title (and "as of"), last refreshed, expired, expiring,
 * never done or compliance, its header.
 */
export const HEADER_ROW = 6;
/** Row 2's label. */
export const LAST_REFRESHED = 'Last refreshed';
const EXPIRED_LABEL = 'Expired';
const EXPIRING_LABEL = 'Expiring';
/** The rows of the Expired and Expiring figures, coloured like the Status columns when not zero. */
export const EXPIRED_ROW = 3;
export const EXPIRING_ROW = 4;
/** The row of the figure of work never started, coloured as Expired, or of the compliance. */
export const FIFTH_ROW = 5;

export const MONTH_FORMAT = 'mmm yyyy';
/** When the figures were computed, beside the section's title. */
const AS_OF_FORMAT = '"as of "yyyy-mm-dd hh:mm';
const PERCENT_FORMAT = '0%';
/** A label that may be a link: a formula in a cell of the automatic format. */
const LABEL_FORMAT = 'General';

/** The cells of a section's month table, its header row included: what its chart reads. */
export function chartRangeA1(section: OverviewSection): string {
  const layout = SECTION_LAYOUTS[section];
  return gridA1(HEADER_ROW, layout.column, layout.months + 1, 2);
}

/** The whole block a section's writes cover, header rows first. */
export function sectionRows(section: OverviewSection): number {
  return HEADER_ROW + SECTION_LAYOUTS[section].months;
}

export interface MonthCount {
  /** The month's first day. */
  first: CalendarDate;
  count: number;
}

/** Compliant pairs out of those counted. */
export interface ComplianceFigure {
  compliant: number;
  counted: number;
}

export interface SectionFigures {
  expired: number;
  expiring: number;
  /** What the counts are out of: the completed pairs, or the schedules. */
  of: number;
  /** The sheet id of the tab listing the expired and expiring items, which the labels link to. */
  listSheetId: number | null;
  /** Row 5's figure of a section whose fifth row is work never started. */
  neverDone?: number;
  /** Row 5's figure of a section whose fifth row is compliance (required trainings only). */
  requiredCompliance?: ComplianceFigure;
  /** In row 5's label: every counted pair, optional trainings taken included (as on the matrix). */
  overallCompliance?: ComplianceFigure;
  /** In row 5's label when any: the pairs the Exemptions tab excuses, left out of the compliance. */
  exempted?: number;
  /** Oldest first, as many as the section's layout says. */
  months: readonly MonthCount[];
}

/** The first day of `count` consecutive months, the first of them `offset` months from `today`'s. */
export function monthStarts(today: CalendarDate, offset: number, count: number): CalendarDate[] {
  const { year, month } = toParts(today);
  return Array.from({ length: count }, (_, index) => {
    const monthIndex = year * 12 + month - 1 + offset + index;
    return dateFromParts(Math.floor(monthIndex / 12), (monthIndex % 12) + 1, 1)!;
  });
}

/**
 * How many completions fall in each of the last 24 calendar months (today's month the last, in the
 * spreadsheet's time zone), oldest first; completions before or after them are not counted.
 */
export function completionsPerMonth(dates: Iterable<CalendarDate>, today: CalendarDate): MonthCount[] {
  const { months } = SECTION_LAYOUTS.trainings;
  const firsts = monthStarts(today, 1 - months, months);
  const counts = firsts.map(() => 0);
  const start = firsts[0]!;
  const { year, month } = toParts(today);
  const end = dateFromParts(year, month, daysInMonth(year, month))!;
  for (const date of dates) {
    if (date < start || date > end) continue;
    const { year: y, month: m } = toParts(date);
    const { year: startYear, month: startMonth } = toParts(start);
    counts[(y - startYear) * 12 + (m - startMonth)]!++;
  }
  return firsts.map((first, index) => ({ first, count: counts[index]! }));
}

function percentOf(figure: ComplianceFigure | undefined): string {
  return figure && figure.counted > 0
    ? `${Math.round((100 * figure.compliant) / figure.counted)}%`
    : 'none counted';
}

/** Row 5 of a section: its never-started count, or the required trainings' compliance. */
function fifthRow(layout: SectionLayout, figures: SectionFigures, outOf: string): [string, CellValue] {
  if (layout.fifthRow === 'neverDone') return [`${layout.neverDoneLabel!} ${outOf}`, figures.neverDone ?? 0];
  const required = figures.requiredCompliance;
  const exempted = figures.exempted ? `; ${formatCount(figures.exempted)} exempted` : '';
  return [
    `Compliance, required trainings (overall: ${percentOf(figures.overallCompliance)}${exempted})`,
    required && required.counted > 0 ? required.compliant / required.counted : 'none required',
  ];
}

/**
 * A section's cells, two columns from row 1 to its month table's end. `asOfSerial`: when the figures
 * were computed; `refreshedSerial` null: blank.
 */
export function sectionValues(
  section: OverviewSection,
  figures: SectionFigures,
  times: { asOfSerial: number; refreshedSerial: number | null },
): CellValue[][] {
  const layout = SECTION_LAYOUTS[section];
  if (figures.months.length !== layout.months) {
    throw new Error(`The ${section} section of the Overview needs ${layout.months} months.`);
  }
  const { listSheetId } = figures;
  const linked = (label: string): string =>
    listSheetId === null ? label : cellLinkFormula(listSheetId, 'A1', label);
  const outOf = `(of ${formatCount(figures.of)} ${layout.unit})`;
  const [fifthLabel, fifthFigure] = fifthRow(layout, figures, outOf);
  return [
    [layout.title, times.asOfSerial],
    [LAST_REFRESHED, times.refreshedSerial ?? ''],
    [linked(`${EXPIRED_LABEL} ${outOf}`), figures.expired],
    [linked(`${EXPIRING_LABEL} ${outOf}`), figures.expiring],
    [layout.fifthRow === 'neverDone' ? linked(fifthLabel) : fifthLabel, fifthFigure],
    ['Month', layout.countTitle],
    ...figures.months.map((month): CellValue[] => [toSheetSerial(month.first), month.count]),
  ];
}

/** Number formats of a section's block (written when the tab is made: then they are the user's). */
export function sectionFormats(section: OverviewSection): string[][] {
  const layout = SECTION_LAYOUTS[section];
  const text = numberFormatOf('text');
  const count = numberFormatOf('integer');
  const partialMonth = `${MONTH_FORMAT}" (${layout.currentMonth.label})"`;
  const months = Array.from({ length: layout.months }, (_, index) => {
    const current = layout.currentMonth.row === 'first' ? index === 0 : index === layout.months - 1;
    return [current ? partialMonth : MONTH_FORMAT, count];
  });
  return [
    [text, AS_OF_FORMAT],
    [text, numberFormatOf('datetime')],
    [LABEL_FORMAT, count],
    [LABEL_FORMAT, count],
    [LABEL_FORMAT, layout.fifthRow === 'neverDone' ? count : PERCENT_FORMAT],
    [text, text],
    ...months,
  ];
}

/** The rows in bold: each section's title and its table's header. */
export const BOLD_ROWS = [1, HEADER_ROW];
