/** Typing into the emulator's workbook as a user would: finding a column by its title, naming a cell. */
import { columnLetters } from './emulator/spreadsheet/a1-notation';

/** Where a title is in a tab's header row (0-based); the add-on finds its columns the same way. */
export function columnTitled(header: readonly string[], title: string, sheetName: string): number {
  const index = header.indexOf(title);
  if (index < 0) throw new Error(`The "${sheetName}" tab has no "${title}" column.`);
  return index;
}

/** The A1 address of a cell of a tab, from a 0-based column and a 1-based row. */
export function cellA1(sheetName: string, column: number, row: number): string {
  return `'${sheetName}'!${columnLetters(column + 1)}${row}`;
}
