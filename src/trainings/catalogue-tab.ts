/**
 * The "Trainings" tab written: a table whose user columns the table writer keeps beside their
 * training, with the titles of the user's columns it lacks added after its last column, and those
 * columns styled as inputs.
 */
import { styleInputColumns, writeInputTitles } from '../sheets/input-columns';
import type { Table } from '../sheets/table';
import type { TabContent } from '../sheets/tab-content';
import { writeTableOver } from '../sheets/table-writer';
import { CATALOGUE_COLUMNS, type CatalogueRead } from './catalogue';

/** On the title of each column of Trainings the user fills in. */
const CATALOGUE_INPUT_NOTE =
  'You fill this in: Name, Validity (months), Required (yes or no) and Expiring window (days) of each ' +
  'training. Safety Sync reads them and never overwrites them.';

/** The catalogue's rows over the tab as read, then the user's missing titles and the input styling. */
export function writeCatalogueTab(content: TabContent, table: Table, catalogue: CatalogueRead): void {
  const { sheet } = writeTableOver(content, table);
  writeInputTitles(sheet, Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length), catalogue.missingHeaders);
  styleInputColumns(sheet, catalogue.inputColumns, CATALOGUE_INPUT_NOTE, table.rows.length + 1);
}
