/**
 * The tab layout's rules on their own: which column holds what, found by the titles in row 1, the
 * refusals a manager reads when a title is missing or doubled, and the columns a later layout adds
 * to a tab an older version made. The modules run in Node against the emulator's Spreadsheet
 * service (no bundle, no service), so every rule is checked in milliseconds; the tests that drive
 * the built add-on (test/trainings/completions/tab-layout, test/sheets/added-columns) show the same
 * rules from the menu.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import type { WorkbookView } from '../../dev/emulator/spreadsheet/workbook-store';
import { layoutAddingColumns, readTabLayout, takeAddedColumnSentences } from '../../src/sheets/added-columns';
import type { ColumnSpec } from '../../src/sheets/table';
import { layoutOfHeader, tableCellsOf, TabLayoutError } from '../../src/sheets/tab-layout';

const NAME: ColumnSpec = { header: 'Name', kind: 'text', width: 100 };
const DATE: ColumnSpec = { header: 'Date', kind: 'date', width: 100 };
const KEY: ColumnSpec = { header: 'Key', kind: 'text', width: 100, hidden: true };
const VERSION_1 = [NAME, DATE, KEY];
const SITE: ColumnSpec = { header: 'Site', kind: 'text', width: 160, since: 2 };
const ROLE: ColumnSpec = { header: 'Role', kind: 'text', width: 100, since: 2 };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TabLayoutError);
    expect((error as Error).name).toBe('TabLayoutError');
    return (error as Error).message;
  }
  throw new Error('the layout was not refused');
}

describe('layoutOfHeader', () => {
  it('gives an empty tab the table’s columns in order, and no user columns', () => {
    expect(layoutOfHeader('T', ['', ''], VERSION_1, false)).toEqual({
      tableColumns: [1, 2, 3],
      userColumns: [],
      width: 3,
    });
    expect(layoutOfHeader('T', [], VERSION_1, false).tableColumns).toEqual([1, 2, 3]);
  });

  it('finds each title wherever the user moved it, and every other column up to the last is the user’s', () => {
    const layout = layoutOfHeader('T', ['Notes', 'Date', '', 'Key', 'Name', 'Site'], VERSION_1, true);
    expect(layout).toEqual({ tableColumns: [5, 2, 4], userColumns: [1, 3, 6], width: 6 });
    expect(tableCellsOf(['n', 'd1', 'x', 'k1', 'Ann', 'S'], layout)).toEqual(['Ann', 'd1', 'k1']);
  });

  it('takes a row 1 of empty cells on an empty tab for a fresh tab, whatever the cells read as', () => {
    expect(layoutOfHeader('T', [null, undefined, ''], VERSION_1, false).tableColumns).toEqual([1, 2, 3]);
  });

  it('reads titles that are not text as the text they show, and empty cells as no title', () => {
    const numbered = [{ header: '2024', kind: 'text', width: 100 }] as const;
    expect(layoutOfHeader('T', [null, 2024], numbered, true).tableColumns).toEqual([2]);
    expect(layoutOfHeader('T', [undefined, 'Name', 'Date', 'Key'], VERSION_1, true).userColumns).toEqual([1]);
  });

  it('refuses a tab with rows but no titles, naming every missing column', () => {
    expect(refusal(() => layoutOfHeader('Log', ['', '', ''], VERSION_1, true))).toBe(
      'The "Log" tab has no "Name", "Date" or "Key" column in row 1, so Safety Sync cannot tell which column ' +
        'holds what. Put the title back above its column (Edit > Undo, or type it in row 1), or rename the tab ' +
        'to keep it as it is and let the next run start a new one. Nothing was changed.',
    );
  });

  it('names one missing title alone, and two with "or"', () => {
    expect(refusal(() => layoutOfHeader('T', ['Name', 'Key'], VERSION_1, true))).toMatch(
      /^The "T" tab has no "Date" column in row 1,/,
    );
    expect(refusal(() => layoutOfHeader('T', ['Key', 'Notes'], VERSION_1, false))).toMatch(
      /^The "T" tab has no "Name" or "Date" column in row 1,/,
    );
  });

  it('refuses a title written twice, naming it, even when the second is far to the right', () => {
    expect(
      refusal(() => layoutOfHeader('T', ['Name', 'Date', 'Key', '', 'x', 'Date'], VERSION_1, true)),
    ).toBe(
      'The "T" tab has more than one "Date" column in row 1, so Safety Sync cannot tell which one is its ' +
        'own. Rename or delete the extra column. Nothing was changed.',
    );
    expect(
      refusal(() => layoutOfHeader('T', ['Key', 'Name', 'Date', 'Key', 'Name'], VERSION_1, true)),
    ).toMatch(/more than one "Name" or "Key" column/);
  });

  it('says what is missing before what is doubled', () => {
    expect(refusal(() => layoutOfHeader('T', ['Name', 'Name', 'Key'], VERSION_1, true))).toMatch(
      /has no "Date"/,
    );
  });
});

describe('readTabLayout with columns a later layout adds', () => {
  const workbookOf = new Map<GoogleAppsScript.Spreadsheet.Sheet, () => WorkbookView>();
  /** The column's width in pixels, as the workbook holds it (the script reads none). */
  function widthOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, column: number): number {
    return workbookOf.get(sheet)!().sheet('Tab').columnWidth(column);
  }
  function sheetWith(rows: string[][]) {
    const service = createTestSpreadsheetService();
    const id = service.workbooks.create({ name: 'Layouts', sheetNames: ['Tab'] });
    service.context.activeSpreadsheetId = id;
    const sheet = service.SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]!;
    if (rows.length > 0) sheet.getRange(1, 1, rows.length, rows[0]!.length).setValues(rows);
    takeAddedColumnSentences();
    workbookOf.set(sheet as unknown as GoogleAppsScript.Spreadsheet.Sheet, () => service.workbooks.get(id)!);
    return sheet as unknown as GoogleAppsScript.Spreadsheet.Sheet;
  }
  const values = (sheet: GoogleAppsScript.Spreadsheet.Sheet) =>
    sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();

  it('lays out an empty tab fresh and inserts nothing', () => {
    const sheet = sheetWith([]);
    expect(readTabLayout(sheet, [NAME, SITE, DATE])).toEqual({
      tableColumns: [1, 2, 3],
      userColumns: [],
      width: 3,
    });
    expect(sheet.getLastColumn()).toBe(0);
    expect(takeAddedColumnSentences()).toEqual([]);
  });

  it('inserts a new column right after the one before it in the spec, moving the user’s cells with it', () => {
    const sheet = sheetWith([
      ['Name', 'Mine', 'Date', 'Key'],
      ['Ann', 'a', 'd1', 'k1'],
    ]);
    const layout = readTabLayout(sheet, [NAME, SITE, DATE, KEY]);
    expect(values(sheet)).toEqual([
      ['Name', 'Site', 'Mine', 'Date', 'Key'],
      ['Ann', '', 'a', 'd1', 'k1'],
    ]);
    expect(layout).toEqual({ tableColumns: [1, 2, 4, 5], userColumns: [3], width: 5 });
    expect(widthOf(sheet, 2)).toBe(160);
    expect(sheet.getRange(1, 2).getNumberFormats()).toEqual([['@']]);
    expect(takeAddedColumnSentences()).toEqual(['Added the column Site to Tab.']);
    expect(takeAddedColumnSentences()).toEqual([]);
  });

  it('inserts a column the spec starts with before everything, and keeps Sheets’ width where it is the default', () => {
    const sheet = sheetWith([
      ['Name', 'Key'],
      ['Ann', 'k1'],
    ]);
    readTabLayout(sheet, [ROLE, NAME, KEY]);
    expect(values(sheet)[0]).toEqual(['Role', 'Name', 'Key']);
    expect(widthOf(sheet, 1)).toBe(100);
  });

  it('inserts two new columns in the spec’s order, and says each once', () => {
    const sheet = sheetWith([
      ['Name', 'Date', 'Mine'],
      ['Ann', 'd1', 'a'],
    ]);
    const layout = readTabLayout(sheet, [NAME, SITE, ROLE, DATE]);
    expect(values(sheet)[0]).toEqual(['Name', 'Site', 'Role', 'Date', 'Mine']);
    expect(layout.userColumns).toEqual([5]);
    expect(takeAddedColumnSentences()).toEqual([
      'Added the column Site to Tab.',
      'Added the column Role to Tab.',
    ]);
  });

  it('inserts new columns after different columns, each beside its own', () => {
    const sheet = sheetWith([['Name', 'Date', 'Key']]);
    readTabLayout(sheet, [NAME, SITE, DATE, ROLE, KEY]);
    expect(values(sheet)[0]).toEqual(['Name', 'Site', 'Date', 'Role', 'Key']);
  });

  it('takes a tab that already has the new column where the add-on put it, and inserts nothing', () => {
    const sheet = sheetWith([['Name', 'Site', 'Date', 'Mine']]);
    expect(readTabLayout(sheet, [NAME, SITE, DATE]).userColumns).toEqual([4]);
    expect(sheet.getLastColumn()).toBe(4);
    expect(takeAddedColumnSentences()).toEqual([]);
  });

  it('refuses a column of the user’s with the new column’s title, saying what to rename, and changes nothing', () => {
    const sheet = sheetWith([['Name', 'Date', 'Site']]);
    expect(refusal(() => readTabLayout(sheet, [NAME, SITE, DATE]))).toBe(
      'Tab has a column of yours titled Site, which Safety Sync now adds: rename yours (for example to Site (mine)) and run again.',
    );
    expect(values(sheet)).toEqual([['Name', 'Date', 'Site']]);
    expect(takeAddedColumnSentences()).toEqual([]);
  });

  it('finds a new column the add-on already has on the tab wherever the user moved it', () => {
    const sheet = sheetWith([['Name', 'Date', 'Site']]);
    const grid = values(sheet);
    const layout = layoutAddingColumns(
      sheet,
      'Tab',
      grid,
      [NAME, SITE, DATE],
      false,
      undefined,
      new Set(['Site']),
    );
    expect(layout.tableColumns).toEqual([1, 3, 2]);
    expect(values(sheet)).toEqual([['Name', 'Date', 'Site']]);
    expect(takeAddedColumnSentences()).toEqual([]);
  });

  it('refuses a tab with records under an empty row 1, inserting nothing', () => {
    const sheet = sheetWith([
      ['', '', ''],
      ['Ann', 'd1', 'k1'],
    ]);
    expect(refusal(() => readTabLayout(sheet, [NAME, SITE, DATE, KEY]))).toMatch(
      /^The "Tab" tab has no "Name", "Date" or "Key" column in row 1/,
    );
    expect(sheet.getLastColumn()).toBe(3);
  });

  it('lays out a tab read as blank, with no rows, fresh, and counts the columns it inserts in the frame', () => {
    const blank = sheetWith([['', '']]);
    const grid: unknown[][] = [['', '']];
    expect(layoutAddingColumns(blank, 'Tab', grid, [NAME, SITE, DATE], false)).toEqual({
      tableColumns: [1, 2, 3],
      userColumns: [],
      width: 3,
    });
    expect(takeAddedColumnSentences()).toEqual([]);
    const older = sheetWith([['Name', 2024, 'Date']] as unknown as string[][]);
    const frame = { maxColumns: 26 };
    const layout = layoutAddingColumns(
      older,
      'Tab',
      [['Name', 2024, 'Date']],
      [NAME, SITE, DATE],
      true,
      frame,
    );
    expect(frame.maxColumns).toBe(27);
    expect(layout).toEqual({ tableColumns: [1, 2, 4], userColumns: [3], width: 4 });
  });

  it('adds the new column to a tab of titles only, one of them blank', () => {
    const sheet = sheetWith([['Name', '', 'Date']]);
    expect(readTabLayout(sheet, [NAME, SITE, DATE]).tableColumns).toEqual([1, 2, 4]);
    expect(values(sheet)).toEqual([['Name', 'Site', '', 'Date']]);
  });

  it('refuses a tab missing an older column before inserting anything', () => {
    const sheet = sheetWith([
      ['Name', 'Key'],
      ['Ann', 'k1'],
    ]);
    expect(refusal(() => readTabLayout(sheet, [NAME, SITE, DATE, KEY]))).toMatch(
      /^The "Tab" tab has no "Date" column/,
    );
    expect(values(sheet)[0]).toEqual(['Name', 'Key']);
    expect(takeAddedColumnSentences()).toEqual([]);
  });
});
