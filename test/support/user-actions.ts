/**
 * What a manager does to a tab in the Sheets UI, addressed by row and column numbers: typing,
 * inserting, moving and deleting columns, notes, validation, sorting and filtering from the filter.
 * Each is the emulator's own user action (dev/emulator/spreadsheet/workbook-store.ts), so references
 * and stored ranges follow as they do on Google.
 */
import { cellA1 } from '../../dev/emulator/spreadsheet/a1-notation';
import type { AddonHarness } from './addon-harness';

export function userActions(harness: Pick<AddonHarness, 'emulator' | 'spreadsheetId'>) {
  const workbook = () => {
    const found = harness.emulator.workbooks.get(harness.spreadsheetId);
    if (!found) throw new Error(`The spreadsheet ${harness.spreadsheetId} no longer exists in the emulator.`);
    return found;
  };
  const sheet = (tab: string) => workbook().sheet(tab);
  const area = (row: number, column: number, rows = 1, columns = 1) =>
    rows === 1 && columns === 1
      ? cellA1(row, column)
      : `${cellA1(row, column)}:${cellA1(row + rows - 1, column + columns - 1)}`;
  return {
    a1: cellA1,
    /** Types `rows` from (row, column) as a user would: the same parsing as the keyboard. */
    type(tab: string, row: number, column: number, rows: unknown[][]): void {
      workbook().typeValues(`'${tab}'!${area(row, column, rows.length, rows[0]!.length)}`, rows);
    },
    typeFormula(tab: string, row: number, column: number, formula: string): void {
      workbook().typeValues(`'${tab}'!${cellA1(row, column)}`, [[formula]]);
    },
    insertColumnsBefore: (tab: string, column: number, count: number) =>
      sheet(tab).insertColumnsBefore(column, count),
    deleteColumns: (tab: string, column: number, count: number) => sheet(tab).deleteColumns(column, count),
    /** Drags `count` columns from `start` to before column `destination` (numbered before the move). */
    moveColumns: (tab: string, start: number, count: number, destination: number) =>
      sheet(tab).moveColumns(start, count, destination),
    note: (tab: string, row: number, column: number, text: string) =>
      sheet(tab).setNote(cellA1(row, column), text),
    /** Data → Data validation: a dropdown of `values` on `rows` cells of a column from `row`. */
    requireList: (tab: string, row: number, column: number, rows: number, values: string[]) =>
      sheet(tab).setDataValidation(area(row, column, rows), { valueInList: values }),
    /** The dropdown's values of a cell, or null when it has no list rule. */
    validationOf(tab: string, row: number, column: number): unknown[] | null {
      const rule = sheet(tab).dataValidations(cellA1(row, column))[0]![0];
      return rule?.criteria === 'VALUE_IN_LIST' ? (rule.values[0] as unknown[]) : null;
    },
    filterRange: (tab: string) => sheet(tab).filter,
    sortByFilter: (tab: string, column: number, ascending: boolean) =>
      sheet(tab).sortFilter(column, ascending),
    hideValues: (tab: string, column: number, values: string[]) =>
      sheet(tab).setFilterCriteria(column, { hiddenValues: values }),
    hiddenValues: (tab: string, column: number) => sheet(tab).filterCriteria(column)?.hiddenValues ?? null,
  };
}
