/**
 * Writing a section of the Overview (overview.ts) in the run that computes it, in the shape of the
 * runs that write several tabs: everything is read when the plan is made, `prepare` inserts the
 * tab if it is missing, the caller commits, `readIds` remembers the new tab's id (free right after
 * a commit), and `write` writes the section and makes a missing chart.
 *
 * The tab is found by its sheet id, kept in the document state, so a user may rename it. A chart is
 * recognised by what it reads (its section's month table), never by its title, type, colours or
 * position: those are the user's, and a chart recognised is not touched at all. A chart deleted, or
 * pointed at other cells, is made again by the next run that upkeeps the tab.
 *
 * The full import of completions only writes the numbers of a tab that exists (its Spreadsheet calls
 * are counted: docs/performance.md, Benchmark): making the tab and its charts is left to the other runs.
 *
 * It is the landing page: made as the first tab, and shown at the end of every run started from the
 * menu that wrote it (the job runner takes it: takeWrittenOverview). A run of a trigger does not show
 * it: the active tab of a trigger's execution reaches no one's open spreadsheet.
 */
import { cellToSheetSerial, epochMsToSheetSerial, type UtcOffsetAt } from '../../lib/dates';
import type { DocumentState } from '../document-state';
import { addonTab, freeTabName } from '../addon-tabs';
import { NEW_SHEET_ROWS } from '../../sheets/cell-limit';
import { gridA1 } from '../../sheets/a1-notation';
import { complianceRules, ExpiryStatus, STATUS_COLOURS } from '../../sheets/status-words';
import {
  BOLD_ROWS,
  chartRangeA1,
  EXPIRED_ROW,
  EXPIRING_ROW,
  FIFTH_ROW,
  OVERVIEW_SECTIONS,
  OVERVIEW_SHEET,
  type OverviewSection,
  SECTION_LAYOUTS,
  type SectionFigures,
  type SectionLayout,
  sectionFormats,
  sectionRows,
  sectionValues,
} from './overview';
import {
  insertTrendChart,
  setTrendFormats,
  TREND,
  type TrendMonth,
  trendRangeA1,
  writeTrend,
} from './compliance-trend';
import {
  ROLL_UP_COLUMN,
  ROLL_UP_TOP,
  ROLL_UP_WIDTH,
  type RollUpFigures,
  rollUpFormats,
  rollUpRows,
} from './roll-up-block';

const STATE_KEY = 'safetySync.overview';

interface OverviewState {
  sheetId: number;
  /**
   * The layout of the tab's formats: absent on a tab made before version 2, whose count labels were
   * plain text (a link written there would stay text) and which had no "as of" or partial month.
   */
  layout?: number;
}

/**
 * The layout version of a tab made now; an older tab gets its formats once, by its next run. 3: the
 * roll-ups' colours; 4: the compliance trend's.
 */
const LAYOUT = 4;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

// Declared with the add-on's other tabs, so that none of them takes a renamed Overview for itself.
// Unlike them, it is never found by its name: a tab called "Overview" may well be the user's own.
addonTab(STATE_KEY, 'sheetId', OVERVIEW_SHEET);

/** Widths of the label and value columns, set when the tab is made. */
const LABEL_WIDTH = 340;
/** Wide enough for "as of 2026-11-27 08:00" in bold, and a date and time. */
const VALUE_WIDTH = 170;

/** The Overview written in this execution since the job runner last took it. */
let writtenOverview: Sheet | null = null;

/** The Overview a run wrote, if it wrote one, for the job runner to show at the end of a menu run. */
export function takeWrittenOverview(): Sheet | null {
  const written = writtenOverview;
  writtenOverview = null;
  return written;
}

export interface OverviewOptions {
  /**
   * Make the tab when it is missing and a chart its section lacks. False for the full import of
   * completions, which only writes the numbers of a tab that exists.
   */
  upkeep: boolean;
  /** When the section's data was imported or refreshed; null keeps the time the tab shows. */
  refreshedAtMs: number | null;
  utcOffsetAt: UtcOffsetAt;
}

export interface OverviewPlan {
  /** `prepare` inserts the tab, whose id `readIds` then reads. */
  inserts: boolean;
  prepare(): void;
  readIds(): void;
  /**
   * `rollUps`: the Trainings section's, written below it, and `trend`: its compliance per month
   * (undefined: a section without).
   */
  write(figures: SectionFigures, trainings?: { rollUps: RollUpFigures; trend: readonly TrendMonth[] }): void;
}

/** Reads what the section's write needs: the tab, and (with upkeep) whether its chart is there. */
export function planOverview(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  section: OverviewSection,
  options: OverviewOptions,
): OverviewPlan {
  const kept = state.get<OverviewState>(STATE_KEY);
  let sheet = kept ? spreadsheet.getSheetById(kept.sheetId) : null;
  const charted = sheet !== null && options.upkeep ? chartRanges(sheet) : [];
  const hasChart = charted.includes(chartRangeA1(section));
  const hasTrendChart = section !== 'trainings' || charted.includes(trendRangeA1());
  const newName = !sheet && options.upkeep ? freeTabName(spreadsheet, OVERVIEW_SHEET) : null;
  // A run that read nothing from the service keeps the time the tab shows (read now, not after a write).
  const keptRefreshed =
    sheet && options.refreshedAtMs === null
      ? cellToSheetSerial(
          sheet.getRange(2, SECTION_LAYOUTS[section].column + 1).getValues()[0]![0],
          options.utcOffsetAt,
        )
      : null;
  const layout = kept !== null && sheet !== null ? (kept.layout ?? 1) : LAYOUT;
  // Read before any write (a read after one costs a commit): the rows the roll-ups' write must cover
  // (its own and those the last one wrote), and the tab's height, which the roll-ups' colours span.
  // A tab this run makes has a new tab's.
  const grid =
    sheet && (section === 'trainings' || layout < LAYOUT)
      ? { lastRow: sheet.getLastRow(), maxRows: sheet.getMaxRows() }
      : { lastRow: 0, maxRows: NEW_SHEET_ROWS };
  let isNew = false;
  return {
    inserts: newName !== null,
    prepare() {
      if (newName === null) return;
      // First, where a manager looks: the add-on's other tabs are added after the user's.
      sheet = spreadsheet.insertSheet(newName, 0);
      isNew = true;
    },
    readIds() {
      if (isNew)
        state.set(STATE_KEY, { sheetId: sheet!.getSheetId(), layout: LAYOUT } satisfies OverviewState);
    },
    write(figures, trainings) {
      if (!sheet) return;
      if (isNew) formatNewTab(sheet, grid.maxRows);
      else if (layout < LAYOUT) {
        if (layout < 2) {
          setSectionFormats(sheet);
          addRules(sheet, complianceRules(complianceFigures(sheet)));
        }
        if (layout < 3) addRules(sheet, rollUpRules(sheet, grid.maxRows));
        setTrendFormats(sheet);
        state.set(STATE_KEY, { sheetId: sheet.getSheetId(), layout: LAYOUT } satisfies OverviewState);
      }
      const refreshed =
        options.refreshedAtMs === null
          ? keptRefreshed
          : epochMsToSheetSerial(options.refreshedAtMs, options.utcOffsetAt);
      const asOfSerial = epochMsToSheetSerial(Date.now(), options.utcOffsetAt);
      const values = sectionValues(section, figures, { asOfSerial, refreshedSerial: refreshed });
      sheet.getRange(1, SECTION_LAYOUTS[section].column, values.length, 2).setValues(values);
      if (trainings !== undefined) {
        writeRollUps(sheet, trainings.rollUps, grid);
        writeTrend(sheet, trainings.trend);
      }
      if (options.upkeep && !hasChart) insertChart(sheet, section);
      if (options.upkeep && !hasTrendChart) insertTrendChart(sheet);
      writtenOverview = sheet;
    },
  };
}

/**
 * The roll-ups below the Trainings section, over the rows the last write used too (emptied and
 * unbolded): four calls, and one more when the tab needs rows.
 */
function writeRollUps(
  sheet: Sheet,
  rollUps: RollUpFigures,
  grid: { lastRow: number; maxRows: number },
): void {
  const { values, bold } = rollUpRows(rollUps);
  const rows = Math.max(values.length, grid.lastRow - ROLL_UP_TOP + 1);
  const lastRow = ROLL_UP_TOP + rows - 1;
  if (lastRow > grid.maxRows) sheet.insertRowsAfter(grid.maxRows, lastRow - grid.maxRows);
  const blank = (): string[] => new Array<string>(ROLL_UP_WIDTH).fill('');
  const range = sheet.getRange(ROLL_UP_TOP, 1, rows, ROLL_UP_WIDTH);
  range.setNumberFormats(rollUpFormats(rows));
  range.setValues(Array.from({ length: rows }, (_, index) => values[index] ?? blank()));
  range.setFontWeight('normal');
  const boldRows = bold.flatMap((isBold, index) =>
    isBold ? [gridA1(ROLL_UP_TOP + index, 1, 1, ROLL_UP_WIDTH)] : [],
  );
  if (boldRows.length > 0) sheet.getRangeList(boldRows).setFontWeight('bold');
}

/**
 * The roll-ups' colours: compliance in its bands, Expired and Expiring counts in their statuses'
 * colours when not zero; over the block's columns to the tab's last row (a title or a header row
 * there holds text, which no rule colours).
 */
function rollUpRules(sheet: Sheet, maxRows: number): GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] {
  const column = (index: number) => sheet.getRange(ROLL_UP_TOP, index, maxRows - ROLL_UP_TOP + 1, 1);
  const countRule = (index: number, status: string) => {
    const colour = STATUS_COLOURS.find((each) => each.text === status)!;
    return SpreadsheetApp.newConditionalFormatRule()
      .whenNumberGreaterThan(0)
      .setBackground(colour.background)
      .setFontColor(colour.fontColor)
      .setRanges([column(index)])
      .build();
  };
  return [
    countRule(ROLL_UP_COLUMN.expired, ExpiryStatus.expired),
    countRule(ROLL_UP_COLUMN.expiring, ExpiryStatus.expiring),
    ...complianceRules([column(ROLL_UP_COLUMN.compliance)]),
  ];
}

/** What the tab's charts read, by A1 notation (one call for the charts, then one per chart and range). */
function chartRanges(sheet: Sheet): string[] {
  return sheet.getCharts().flatMap((chart) => chart.getRanges().map((range) => range.getA1Notation()));
}

/** Both sections' number formats: one call each. */
function setSectionFormats(sheet: Sheet): void {
  for (const section of OVERVIEW_SECTIONS) {
    const { column } = SECTION_LAYOUTS[section];
    sheet.getRange(1, column, sectionRows(section), 2).setNumberFormats(sectionFormats(section));
  }
}

/** Formats, bold titles and label widths: set once, so that what the user changes later is kept. */
function formatNewTab(sheet: Sheet, maxRows: number): void {
  setSectionFormats(sheet);
  setTrendFormats(sheet);
  for (const section of OVERVIEW_SECTIONS) {
    sheet.setColumnWidth(SECTION_LAYOUTS[section].column, LABEL_WIDTH);
    sheet.setColumnWidth(SECTION_LAYOUTS[section].column + 1, VALUE_WIDTH);
  }
  const boldCells = BOLD_ROWS.flatMap((row) => [
    ...OVERVIEW_SECTIONS.map((section) => gridA1(row, SECTION_LAYOUTS[section].column, 1, 2)),
    gridA1(row, TREND.column, 1, 3),
  ]);
  sheet.getRangeList(boldCells).setFontWeight('bold');
  addRules(sheet, [
    ...statusFigureRules(sheet),
    ...complianceRules(complianceFigures(sheet)),
    ...rollUpRules(sheet, maxRows),
  ]);
}

/** Adds conditional format rules after the sheet's own (one read, one write). */
function addRules(sheet: Sheet, rules: readonly GoogleAppsScript.Spreadsheet.ConditionalFormatRule[]): void {
  sheet.setConditionalFormatRules([...sheet.getConditionalFormatRules(), ...rules]);
}

/**
 * The Expired, Expiring and never-done figures in the colours of the Status columns when they are
 * not zero: conditional formats, set once with the tab, so that a run writes numbers only.
 */
function statusFigureRules(sheet: Sheet): GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] {
  const figureCells = (row: number, sections = OVERVIEW_SECTIONS) =>
    sections.map((section) => sheet.getRange(row, SECTION_LAYOUTS[section].column + 1));
  const colourOf = (text: string) => STATUS_COLOURS.find((colour) => colour.text === text)!;
  const neverDone = sectionsWhoseFifthRowIs('neverDone');
  return [
    { cells: figureCells(EXPIRED_ROW), colour: colourOf(ExpiryStatus.expired) },
    { cells: figureCells(EXPIRING_ROW), colour: colourOf(ExpiryStatus.expiring) },
    // Nothing says when it is due: as urgent as a lapse.
    { cells: figureCells(FIFTH_ROW, neverDone), colour: colourOf(ExpiryStatus.expired) },
  ].map(({ cells, colour }) =>
    SpreadsheetApp.newConditionalFormatRule()
      .whenNumberGreaterThan(0)
      .setBackground(colour.background)
      .setFontColor(colour.fontColor)
      .setRanges(cells)
      .build(),
  );
}

/** The compliance figures, coloured in the bands of every compliance figure (the Training matrix's too). */
function complianceFigures(sheet: Sheet): GoogleAppsScript.Spreadsheet.Range[] {
  return sectionsWhoseFifthRowIs('compliance').map((section) =>
    sheet.getRange(FIFTH_ROW, SECTION_LAYOUTS[section].column + 1),
  );
}

function sectionsWhoseFifthRowIs(kind: SectionLayout['fifthRow']): OverviewSection[] {
  return OVERVIEW_SECTIONS.filter((section) => SECTION_LAYOUTS[section].fifthRow === kind);
}

function insertChart(sheet: Sheet, section: OverviewSection): void {
  const { chartTitle, chartAnchor } = SECTION_LAYOUTS[section];
  sheet.insertChart(
    sheet
      .newChart()
      .addRange(sheet.getRange(chartRangeA1(section)))
      .setChartType(Charts.ChartType.COLUMN)
      .setPosition(chartAnchor.row, chartAnchor.column, 0, 0)
      .setOption('title', chartTitle)
      .setOption('legend', { position: 'none' })
      .build(),
  );
}
