/**
 * Writes the three training tabs from what the spreadsheet already holds ("Completed trainings" and
 * the user's cells of "Trainings"), for one day, with no request: read everything, check that it all
 * fits, then write, with a number of Spreadsheet calls that does not grow with the completions.
 * Each tab is found by its sheet id (platform/addon-tabs.ts), under whatever name its user gave it.
 */
import { STATUS_COLOURS } from '../sheets/status-words';
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import { formatCount } from '../lib/numbers';
import { gridA1 } from '../sheets/a1-notation';
import { PLAIN_TEXT, setColumnWidths } from '../sheets/table';
import {
  checkRoomForTabs,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  readSheetGrids,
  type SheetGrid,
  type TabSize,
} from '../sheets/cell-limit';
import { readStatusColours } from '../sheets/conditional-formats';
import { readTab } from '../sheets/tab-content';
import { prepareTab } from '../sheets/tab-frame';
import { writeTableOver } from '../sheets/table-writer';
import {
  CATALOGUE_COLUMNS,
  CATALOGUE_SHEET,
  CATALOGUE_TAB,
  type CatalogueRead,
  catalogueTable,
  mergeCatalogue,
  readCatalogue,
} from './catalogue';
import { type CompletionRow, type CompletionsTab, readCompletionsTab } from './completions-tab';
import {
  EXPIRING_COLUMN,
  EXPIRING_COLUMNS,
  EXPIRING_SHEET,
  expiringEntries,
  expiringTable,
} from './expiring';
import {
  MATRIX_COLUMN_WIDTHS,
  MATRIX_FROZEN,
  MATRIX_SHEET,
  type MatrixGrid,
  matrixGrid,
  matrixSize,
  overallCompliance,
  peopleOf,
  trainingMatrix,
} from './matrix';
import { TrainingStatus } from './training-status';
import type { DocumentState } from '../platform/document-state';
import {
  addonTab,
  describeRemade,
  findAddonTab,
  type FoundTab,
  keepAddonTabIds,
} from '../platform/addon-tabs';
import { completionsPerMonth } from '../platform/overview/overview';
import { type OverviewOptions, planOverview } from '../platform/overview/overview-tab';

/** The training tabs keep their ids together: they are written together. */
const STATE_KEY = 'safetySync.trainingTabs';
const CATALOGUE_ADDON_TAB = addonTab(STATE_KEY, 'catalogue', CATALOGUE_SHEET);
const MATRIX_ADDON_TAB = addonTab(STATE_KEY, 'matrix', MATRIX_SHEET);
export const EXPIRING_ADDON_TAB = addonTab(STATE_KEY, 'expiring', EXPIRING_SHEET);

/** The name a tab found has now, or the one it is made under. */
function nameOf(found: FoundTab): string {
  return found.sheet?.getName() ?? found.newName!;
}

export interface TrainingDay {
  utcOffsetAt: UtcOffsetAt;
  today: CalendarDate;
}

/** How a run writes the Overview's Trainings section beside the training tabs (overview-tab.ts). */
export interface TrainingOverview extends Omit<OverviewOptions, 'utcOffsetAt'> {
  state: DocumentState;
}

export const NARROW_ADVICE =
  'Narrow the completions with a user or training filter (Safety Sync → Import completed trainings…), ' +
  'or import them into a new spreadsheet.';

function allValues(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): unknown[][] {
  if (!sheet || sheet.getLastRow() === 0) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}

export interface TrainingSources {
  completionsTab: CompletionsTab;
  catalogueSheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  catalogue: CatalogueRead;
}

/**
 * What every training status is computed from: the imported completions and the user's catalogue.
 * `state`: null where the document state cannot be read (see findAddonTab).
 */
export function readTrainingSources(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState | null,
  utcOffsetAt: UtcOffsetAt,
  defaultExpiringDays: number,
): TrainingSources {
  const completionsTab = readCompletionsTab(spreadsheet, state, utcOffsetAt);
  const catalogueSheet = findAddonTab(spreadsheet, state, CATALOGUE_ADDON_TAB).sheet;
  return {
    completionsTab,
    catalogueSheet,
    catalogue: readCatalogue(allValues(catalogueSheet), defaultExpiringDays),
  };
}

/** The matrix tab as a run found it; nothing more is read before it is written whole. */
interface MatrixTab {
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  /** Inserted by this run: its columns get their widths (a width the user set is theirs). */
  isNew: boolean;
  maxRows: number;
  maxColumns: number;
}

function readMatrixTab(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): MatrixTab {
  return sheet
    ? { sheet, isNew: false, maxRows: sheet.getMaxRows(), maxColumns: sheet.getMaxColumns() }
    : { sheet: null, isNew: true, maxRows: NEW_SHEET_ROWS, maxColumns: NEW_SHEET_COLUMNS };
}

/** The matrix in place: the tab is the add-on's own, so it is cleared and written whole. */
function writeMatrix(sheet: GoogleAppsScript.Spreadsheet.Sheet, tab: MatrixTab, grid: MatrixGrid): void {
  const rows = grid.values.length;
  const columns = grid.values[0]!.length;
  if (tab.maxRows < rows) sheet.insertRowsAfter(tab.maxRows, rows - tab.maxRows);
  if (tab.maxColumns < columns) sheet.insertColumnsAfter(tab.maxColumns, columns - tab.maxColumns);
  sheet.clear();
  const range = sheet.getRange(1, 1, rows, columns);
  // Formats first: ids and names written into "@" cells stay literal text.
  for (const { format, a1 } of grid.formats) sheet.getRangeList(a1).setNumberFormat(format);
  range.setValues(grid.values.map((row) => row.map((value) => value ?? '')));
  range.setBackgrounds(grid.backgrounds);
  sheet.getRangeList(grid.boldRows.map((row) => gridA1(row, 1, 1, columns))).setFontWeight('bold');
  sheet.setFrozenRows(MATRIX_FROZEN.rows);
  sheet.setFrozenColumns(MATRIX_FROZEN.columns);
  if (tab.isNew)
    setColumnWidths(sheet, new Map(MATRIX_COLUMN_WIDTHS.map((width, index) => [index + 1, width])));
}

/** Writes the user's column headers the catalogue lacks, beside its last column. */
function addUserHeaders(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  after: number,
  headers: readonly string[],
): void {
  if (headers.length === 0) return;
  const range = sheet.getRange(1, after + 1, 1, headers.length);
  range.setNumberFormats([headers.map(() => PLAIN_TEXT)]);
  range.setValues([[...headers]]);
  range.setFontWeight('bold');
}

/**
 * The three training tabs, read and computed, ready to be written: a run reads everything first and
 * commits its writes once (Apps Script commits buffered writes before every read, 0.3–0.8 s each on
 * Google), so the reading is here and `prepare` and `write` read nothing but the new tabs' ids.
 */
export interface TrainingTabsPlan {
  /** Inserts the tabs not there yet and grows them; the caller then commits (SpreadsheetApp.flush). */
  prepare(): void;
  /**
   * After that commit and before any other write (a tab's id is a read, free only while nothing
   * waits to be committed): the ids the Expiring trainings tab links to.
   */
  readIds(completionsSheetId: number): void;
  /**
   * Whether `prepare` inserts a tab: the caller then prepares every tab through the Spreadsheet
   * service, as Google does not document whether the service shows a tab the Sheets API added in
   * the same execution.
   */
  insertsTabs: boolean;
  write(): TrainingTabsWritten;
}

export interface TrainingTabsWritten {
  matrixSheet: GoogleAppsScript.Spreadsheet.Sheet;
  summary: string;
  /** The sentence saying which tabs their user had deleted and the run made again; null for none. */
  remade: string | null;
}

/**
 * Reads the training tabs and computes them from `completions` (as "Completed trainings" holds them,
 * or will once the run has written it), for one day, with no request; refuses, before anything is
 * written, what would not fit beside the `alongside` tabs the run writes too.
 */
export function planTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  completions: readonly CompletionRow[],
  day: TrainingDay,
  defaultExpiringDays: number,
  grids: readonly SheetGrid[],
  overview: TrainingOverview,
  alongside: readonly TabSize[] = [],
): TrainingTabsPlan {
  const { state } = overview;
  const found = {
    catalogue: findAddonTab(spreadsheet, state, CATALOGUE_ADDON_TAB),
    matrix: findAddonTab(spreadsheet, state, MATRIX_ADDON_TAB),
    expiring: findAddonTab(spreadsheet, state, EXPIRING_ADDON_TAB),
  };
  const names = {
    catalogue: nameOf(found.catalogue),
    matrix: nameOf(found.matrix),
    expiring: nameOf(found.expiring),
  };
  const catalogueContent = readTab(spreadsheet, names.catalogue, CATALOGUE_TAB, found.catalogue.sheet);
  const catalogue = readCatalogue(allValues(catalogueContent.sheet), defaultExpiringDays);
  const trainings = mergeCatalogue(catalogue, completions, defaultExpiringDays);

  const catalogueSize: TabSize = {
    sheetName: names.catalogue,
    rows: trainings.length + 1,
    columns: Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length) + catalogue.missingHeaders.length,
  };
  const matrixTabSize = {
    sheetName: names.matrix,
    ...matrixSize(peopleOf(completions).length, trainings.length),
  };
  // Refused before the statuses of every cell are computed, then again with the list's real size.
  checkRoomForTabs(grids, [catalogueSize, matrixTabSize], NARROW_ADVICE, alongside);
  const matrix = trainingMatrix(completions, trainings, day.today);
  const entries = expiringEntries(matrix);
  const expiringSize = {
    sheetName: names.expiring,
    rows: entries.length + 1,
    columns: EXPIRING_COLUMNS.length,
  };
  checkRoomForTabs(grids, [catalogueSize, matrixTabSize, expiringSize], NARROW_ADVICE, alongside);

  const catalogueToWrite = catalogueTable(trainings, completions);
  const matrixTab = readMatrixTab(found.matrix.sheet);
  const grid = matrixGrid(matrix);
  const expiringContent = readTab(
    spreadsheet,
    names.expiring,
    { columns: EXPIRING_COLUMNS, keyColumn: EXPIRING_COLUMN.key },
    found.expiring.sheet,
  );
  const expiringColours = readStatusColours(
    expiringContent.sheet,
    EXPIRING_COLUMN.status + 1,
    STATUS_COLOURS,
  );
  const overviewPlan = planOverview(spreadsheet, overview.state, 'trainings', {
    ...overview,
    utcOffsetAt: day.utcOffsetAt,
  });

  let ids: { matrix: number; completions: number } | null = null;
  // The ids of the tabs found, and of those the run makes once it has read them (null: not read).
  const keptIds = {
    catalogue: found.catalogue.sheetId,
    expiring: found.expiring.sheetId,
  };
  return {
    prepare() {
      prepareTab(catalogueContent, catalogueToWrite.rows.length + 1, catalogueContent.layout.width);
      matrixTab.sheet ??= spreadsheet.insertSheet(names.matrix);
      prepareTab(expiringContent, entries.length + 1, expiringContent.layout.width);
      overviewPlan.prepare();
    },
    readIds(completionsSheetId) {
      matrixTab.sheet ??= spreadsheet.insertSheet(names.matrix);
      ids = { matrix: matrixTab.sheet.getSheetId(), completions: completionsSheetId };
      keptIds.catalogue ??= catalogueContent.sheet?.getSheetId() ?? null;
      keptIds.expiring ??= expiringContent.sheet?.getSheetId() ?? null;
      overviewPlan.readIds();
    },
    insertsTabs:
      !catalogueContent.sheet || !matrixTab.sheet || !expiringContent.sheet || overviewPlan.inserts,
    write() {
      if (!ids || !matrixTab.sheet)
        throw new Error('The training tabs were written before their ids were read.');
      const matrixSheet = matrixTab.sheet;
      const catalogueWrite = writeTableOver(catalogueContent, catalogueToWrite);
      addUserHeaders(
        catalogueWrite.sheet,
        Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length),
        catalogue.missingHeaders,
      );
      writeMatrix(matrixSheet, matrixTab, grid);
      const expiringWrite = writeTableOver(expiringContent, expiringTable(matrix, entries, ids));
      expiringColours.apply(expiringWrite.sheet, expiringContent.frame.maxRows);
      const expired = expiredCount(entries);
      overviewPlan.write({
        expired,
        expiring: entries.length - expired,
        months: completionsPerMonth(
          completions.map((completion) => completion.completed),
          day.today,
        ),
      });
      keepAddonTabIds(state, [
        [CATALOGUE_ADDON_TAB, keptIds.catalogue],
        [MATRIX_ADDON_TAB, ids.matrix],
        [EXPIRING_ADDON_TAB, keptIds.expiring],
      ]);
      const deleted = [
        { tab: found.catalogue, name: CATALOGUE_SHEET },
        { tab: found.matrix, name: MATRIX_SHEET },
        { tab: found.expiring, name: EXPIRING_SHEET },
      ].flatMap(({ tab, name }) => (tab.deleted ? [name] : []));
      const remade = deleted.length ? describeRemade(deleted) : null;
      const summary = summaryOf(matrix, trainings, entries);
      return { matrixSheet, summary: remade ? `${remade} ${summary}` : summary, remade };
    },
  };
}

function expiredCount(entries: ReturnType<typeof expiringEntries>): number {
  return entries.filter((entry) => entry.status.status === TrainingStatus.expired).length;
}

function summaryOf(
  matrix: ReturnType<typeof trainingMatrix>,
  trainings: ReturnType<typeof mergeCatalogue>,
  entries: ReturnType<typeof expiringEntries>,
): string {
  const expired = expiredCount(entries);
  const notDone = matrix.statuses.flatMap((row) =>
    row.filter((status, t) => status.status === TrainingStatus.notDone && trainings[t]!.required),
  ).length;
  const { compliant, counted } = overallCompliance(matrix);
  const compliance = counted === 0 ? '' : `, ${Math.round((100 * compliant) / counted)}% compliant`;
  return (
    `Trainings: ${formatCount(matrix.people.length)} people, ${formatCount(trainings.length)} trainings; ` +
    `${formatCount(expired)} expired, ${formatCount(entries.length - expired)} expiring, ` +
    `${formatCount(notDone)} required not done${compliance}.`
  );
}

/** Updates Trainings, Training matrix and Expiring trainings from "Completed trainings" as it is. */
export function writeTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  day: TrainingDay,
  defaultExpiringDays: number,
  overview: TrainingOverview,
): TrainingTabsWritten {
  const completionsTab = readCompletionsTab(spreadsheet, overview.state, day.utcOffsetAt);
  const completionsSheetId = completionsTab.sheet.getSheetId();
  const plan = planTrainingTabs(
    spreadsheet,
    completionsTab.completions,
    day,
    defaultExpiringDays,
    readSheetGrids(spreadsheet),
    overview,
  );
  plan.prepare();
  SpreadsheetApp.flush();
  plan.readIds(completionsSheetId);
  return plan.write();
}
