/**
 * Columns the user fills in, among columns the add-on writes: they look alike unless told apart, and
 * a manager looking for where to type should not have to read every title. Each input column gets
 * one background from its title down to the tab's last row (rows a later import adds are covered
 * too), and a note on its title saying what to enter and that the add-on never overwrites it. Set
 * again by every run that writes the tab, where the columns now are; a fixed number of calls per run
 * of adjacent columns, whatever the number of rows.
 */
import { columnRuns } from './column-runs';
import { PLAIN_TEXT } from './table';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * The input colour: pale lavender, which no status (Expired red, Expiring amber) and no heat scale
 * (the forecast's blues) uses, so a coloured cell never reads as a verdict.
 */
export const INPUT_BACKGROUND = '#e6e0f3';

/**
 * Styles `columns` (1-based, any order) of `sheet`, rows 1 to `lastRow`, as input columns, with
 * `headerNote` on each title: say what to enter there, in a plain sentence.
 */
export function styleInputColumns(
  sheet: Sheet,
  columns: readonly number[],
  headerNote: string,
  lastRow: number,
): void {
  const rows = Math.max(lastRow, 1);
  for (const run of columnRuns(columns)) {
    const backgrounds = Array.from({ length: rows }, () =>
      new Array<string>(run.width).fill(INPUT_BACKGROUND),
    );
    sheet.getRange(1, run.first, rows, run.width).setBackgrounds(backgrounds);
    sheet.getRange(1, run.first, 1, run.width).setNotes([new Array<string>(run.width).fill(headerNote)]);
  }
}

/** Writes the titles of input columns a tab lacks, bold, as text, from the column after `after`. */
export function writeInputTitles(sheet: Sheet, after: number, titles: readonly string[]): void {
  if (titles.length === 0) return;
  const range = sheet.getRange(1, after + 1, 1, titles.length);
  range.setNumberFormats([titles.map(() => PLAIN_TEXT)]);
  range.setValues([[...titles]]);
  range.setFontWeight('bold');
}
