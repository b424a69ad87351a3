/**
 * The "Trainings" tab on the sheet: read whole (its user's columns are found by their titles), and
 * written as a table whose user columns the table writer keeps beside their training, with the
 * titles of the user's columns it lacks added after its last column and styled as inputs.
 */
import { styleInputColumns } from '../sheets/input-columns';
import { PLAIN_TEXT, type Table } from '../sheets/table';
import type { TabContent } from '../sheets/tab-content';
import { writeTableOver } from '../sheets/table-writer';
import { CATALOGUE_COLUMNS, type CatalogueRead } from './catalogue';

/** On the title of each column of Trainings the user fills in. */
const CATALOGUE_INPUT_NOTE =
  'You fill this in: Name, Validity (months), Required (yes or no) and Expiring window (days) of each ' +
  'training. Safety Sync reads them and never overwrites them.';

/** Every cell of the tab, header first, as readCatalogue takes them ([] for no tab or an empty one). */
export function allCatalogueValues(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): unknown[][] {
  if (!sheet || sheet.getLastRow() === 0) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}

/** The catalogue's rows over the tab as read, then the user's missing titles and the input styling. */
export function writeCatalogueTab(content: TabContent, table: Table, catalogue: CatalogueRead): void {
  const { sheet } = writeTableOver(content, table);
  addUserHeaders(sheet, Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length), catalogue.missingHeaders);
  styleInputColumns(sheet, catalogue.inputColumns, CATALOGUE_INPUT_NOTE, table.rows.length + 1);
}

/** Writes the user's column titles the catalogue lacks, beside its last column. */
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
