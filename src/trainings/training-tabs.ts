/**
 * Writes the three training tabs from what the spreadsheet already holds ("Completed trainings" and
 * the user's cells of "Trainings"), for one day, with no request: read everything, check that it all
 * fits, then write, with a number of Spreadsheet calls that does not grow with the completions.
 */
import { STATUS_COLOURS } from '../equipment/upcoming-tab';
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import { formatCount } from '../lib/numbers';
import { checkRoomForTabs, type TabSize } from '../sheets/cell-limit';
import { applyStatusColours } from '../sheets/conditional-formats';
import { getOrCreateSheet, writeTable } from '../sheets/table-writer';
import {
  CATALOGUE_COLUMNS,
  CATALOGUE_SHEET,
  type CatalogueRead,
  catalogueTable,
  mergeCatalogue,
  readCatalogue,
} from './catalogue';
import { type CompletionsTab, readCompletionsTab } from './completions-tab';
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

export interface TrainingDay {
  utcOffsetAt: UtcOffsetAt;
  today: CalendarDate;
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

/** What every training status is computed from: the imported completions and the user's catalogue. */
export function readTrainingSources(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  utcOffsetAt: UtcOffsetAt,
  defaultExpiringDays: number,
): TrainingSources {
  const completionsTab = readCompletionsTab(spreadsheet, utcOffsetAt);
  const catalogueSheet = spreadsheet.getSheetByName(CATALOGUE_SHEET);
  return {
    completionsTab,
    catalogueSheet,
    catalogue: readCatalogue(allValues(catalogueSheet), defaultExpiringDays),
  };
}

/** The matrix in place: the tab is the add-on's own, so it is cleared and written whole. */
function writeMatrix(sheet: GoogleAppsScript.Spreadsheet.Sheet, grid: MatrixGrid): void {
  const rows = grid.values.length;
  const columns = grid.values[0]!.length;
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < columns) {
    sheet.insertColumnsAfter(sheet.getMaxColumns(), columns - sheet.getMaxColumns());
  }
  sheet.clear();
  const range = sheet.getRange(1, 1, rows, columns);
  // Formats first: ids and names written into "@" cells stay literal text.
  range.setNumberFormats(grid.formats);
  range.setValues(grid.values.map((row) => row.map((value) => value ?? '')));
  range.setBackgrounds(grid.backgrounds);
  for (const row of grid.boldRows) sheet.getRange(row, 1, 1, columns).setFontWeight('bold');
  sheet.setFrozenRows(MATRIX_FROZEN.rows);
  sheet.setFrozenColumns(MATRIX_FROZEN.columns);
  MATRIX_COLUMN_WIDTHS.forEach((width, index) => sheet.setColumnWidth(index + 1, width));
}

/** Writes the user's column headers the catalogue lacks, beside its last column. */
function addUserHeaders(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  after: number,
  headers: readonly string[],
): void {
  if (headers.length === 0) return;
  const range = sheet.getRange(1, after + 1, 1, headers.length);
  range.setNumberFormats([headers.map(() => '@')]);
  range.setValues([[...headers]]);
  range.setFontWeight('bold');
}

/** Updates Trainings, Training matrix and Expiring trainings; returns the matrix tab and a summary. */
export function writeTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  day: TrainingDay,
  defaultExpiringDays: number,
): { matrixSheet: GoogleAppsScript.Spreadsheet.Sheet; summary: string } {
  const { completionsTab, catalogueSheet, catalogue } = readTrainingSources(
    spreadsheet,
    day.utcOffsetAt,
    defaultExpiringDays,
  );
  const { completions } = completionsTab;
  const trainings = mergeCatalogue(catalogue, completions, defaultExpiringDays);

  const catalogueSize: TabSize = {
    sheetName: CATALOGUE_SHEET,
    rows: trainings.length + 1,
    columns: Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length) + catalogue.missingHeaders.length,
  };
  const matrixTab = {
    sheetName: MATRIX_SHEET,
    ...matrixSize(peopleOf(completions).length, trainings.length),
  };
  // Refused before the statuses of every cell are computed, then again with the list's real size.
  checkRoomForTabs(spreadsheet, [catalogueSize, matrixTab], NARROW_ADVICE);
  const matrix = trainingMatrix(completions, trainings, day.today);
  const entries = expiringEntries(matrix);
  const expiringSize = {
    sheetName: EXPIRING_SHEET,
    rows: entries.length + 1,
    columns: EXPIRING_COLUMNS.length,
  };
  checkRoomForTabs(spreadsheet, [catalogueSize, matrixTab, expiringSize], NARROW_ADVICE);

  const catalogueTab = catalogueSheet ?? getOrCreateSheet(spreadsheet, CATALOGUE_SHEET);
  writeTable(catalogueTab, catalogueTable(trainings, completions));
  addUserHeaders(
    catalogueTab,
    Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length),
    catalogue.missingHeaders,
  );
  const matrixSheet = getOrCreateSheet(spreadsheet, MATRIX_SHEET);
  writeMatrix(matrixSheet, matrixGrid(matrix));
  const expiringSheet = getOrCreateSheet(spreadsheet, EXPIRING_SHEET);
  writeTable(
    expiringSheet,
    expiringTable(matrix, entries, {
      matrix: matrixSheet.getSheetId(),
      completions: completionsTab.sheet.getSheetId(),
    }),
  );
  applyStatusColours(expiringSheet, EXPIRING_COLUMN.status + 1, STATUS_COLOURS);

  const expired = entries.filter((entry) => entry.status.status === TrainingStatus.expired).length;
  const notDone = matrix.statuses.flatMap((row) =>
    row.filter((status, t) => status.status === TrainingStatus.notDone && trainings[t]!.required),
  ).length;
  const { compliant, counted } = overallCompliance(matrix);
  const compliance = counted === 0 ? '' : `, ${Math.round((100 * compliant) / counted)}% compliant`;
  return {
    matrixSheet,
    summary:
      `Trainings: ${formatCount(matrix.people.length)} people, ${formatCount(trainings.length)} trainings; ` +
      `${formatCount(expired)} expired, ${formatCount(entries.length - expired)} expiring, ` +
      `${formatCount(notDone)} required not done${compliance}.`,
  };
}
