/**
 * A tab whose every row and cell is the user's (Requirements, Exemptions): the add-on reads it, and
 * writes only its frame. A run makes the tab when it is not there, with its titles and a note on
 * each saying what to enter; every run writes back a title the user deleted (after the last column),
 * the columns' input colour, the text format of the columns that hold ids (typed 0029 stays 0029,
 * not the number 29, which may be another record's id) and a dropdown where the tab has one. Never a
 * row. Everything is read when the plan is made: a read after the run's first write costs a commit.
 */
import { gridA1 } from './a1-notation';
import { NEW_SHEET_ROWS, type TabSize } from './cell-limit';
import { styleInputColumns, writeInputTitles } from './input-columns';
import { wholeTabValues } from './input-tab';
import { PLAIN_TEXT } from './table';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface UserTabShape {
  /** The titles, in the order a new tab gets them; found by title wherever the user moves them. */
  titles: readonly string[];
  /** On every title: what to enter. */
  note: string;
  /** Titles of the columns typed as text. */
  textColumns: readonly string[];
  /** A column's dropdown: the values it takes, and its help text. */
  dropdown?: { title: string; values: readonly string[]; help: string };
}

export interface UserTabPlan {
  /** The tab's cells as read, titles first ([] for no tab). */
  values: unknown[][];
  size: TabSize;
  /** Whether `prepare` inserts the tab. */
  inserts: boolean;
  prepare(): void;
  /** The tab's id, once prepared (null: not there). */
  sheetId(): number | null;
  write(): void;
}

/** `sheet`: the tab as found (null: not there), `sheetId` its id when found. */
export function planUserTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  found: { sheet: Sheet | null; sheetId: number | null },
  sheetName: string,
  shape: UserTabShape,
): UserTabPlan {
  const values = wholeTabValues(found.sheet);
  const titles = (values[0] ?? []).map((title) => String(title).trim());
  const lastColumn = titles.reduce((last, title, index) => (title === '' ? last : index + 1), 0);
  const missing = shape.titles.filter((title) => !titles.includes(title));
  const maxRows = found.sheet?.getMaxRows() ?? NEW_SHEET_ROWS;
  const columnOf = (title: string) =>
    titles.includes(title) ? titles.indexOf(title) + 1 : lastColumn + missing.indexOf(title) + 1;
  const belowTitles = (title: string) => gridA1(2, columnOf(title), Math.max(maxRows - 1, 1), 1);
  let sheet = found.sheet;
  return {
    values,
    size: { sheetName, rows: Math.max(values.length, 1), columns: lastColumn + missing.length },
    inserts: !sheet,
    prepare() {
      sheet ??= spreadsheet.insertSheet(sheetName);
    },
    sheetId: () => found.sheetId ?? sheet?.getSheetId() ?? null,
    write() {
      if (!sheet) throw new Error(`The ${sheetName} tab was written before it was made.`);
      writeInputTitles(sheet, lastColumn, missing);
      styleInputColumns(sheet, shape.titles.map(columnOf), shape.note, maxRows);
      sheet.getRangeList(shape.textColumns.map(belowTitles)).setNumberFormat(PLAIN_TEXT);
      if (shape.dropdown) {
        const { title, values: allowed, help } = shape.dropdown;
        sheet.getRange(belowTitles(title)).setDataValidation(
          SpreadsheetApp.newDataValidation()
            .requireValueInList([...allowed], true)
            .setAllowInvalid(false)
            .setHelpText(help)
            .build(),
        );
      }
      if (missing.length === shape.titles.length) sheet.setFrozenRows(1);
    },
  };
}
