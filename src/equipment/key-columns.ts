/**
 * The metafields, schedules and Upcoming inspections tabs end with a hidden key column (type and id:
 * partKey), by which the user's own columns follow their rows. Tabs written before it existed have
 * the user's columns where it now goes: an empty column is inserted there, so that the user's
 * columns move one to the right, whole, with everything in them, and it is filled with each row's
 * key (on these tabs column A holds the type id and column C the metafield's or schedule's), so that
 * the next write finds every row's cells.
 */
import { partKey } from './tables';
import type { ColumnSpec } from '../sheets/table';

/** The first row of a tab, in one read; [] for an empty tab. */
export function readHeader(sheet: GoogleAppsScript.Spreadsheet.Sheet): unknown[] {
  const width = sheet.getLastColumn();
  return width === 0 ? [] : sheet.getRange(1, 1, 1, width).getValues()[0]!;
}

/** `header`: the tab's first row as read (getValues), or [] for an empty tab. */
export function addMissingKeyColumn(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columns: readonly ColumnSpec[],
  header: readonly unknown[] = readHeader(sheet),
): void {
  const keyColumn = columns.length - 1;
  const writtenBeforeKeys =
    header[keyColumn - 1] === columns[keyColumn - 1]!.header &&
    header[keyColumn] !== columns[keyColumn]!.header;
  // Without columns of the user's beside the table there is nothing to move or to match.
  if (!writtenBeforeKeys || header.length <= keyColumn) return;
  sheet.insertColumnsBefore(keyColumn + 1, 1);
  const rows = sheet.getLastRow() - 1;
  if (rows < 1) return;
  const keys = sheet
    .getRange(2, 1, rows, 3)
    .getValues()
    .map(([typeId, , id]) => [id === '' ? '' : partKey(String(typeId), String(id))]);
  const keyRange = sheet.getRange(2, keyColumn + 1, rows, 1);
  keyRange.setNumberFormats(keys.map(() => ['@']));
  keyRange.setValues(keys);
}
