/**
 * The room check of tabs written together (the training tabs): the columns of one tab and the
 * cells of the whole spreadsheet, counted as Sheets counts them (every tab's rows × columns, a tab
 * never shrunk, a new tab at Sheets' default size at least).
 */
import { checkRoomForTabs, readSheetGrids } from '../../src/sheets/cell-limit';

/** The grids of a spreadsheet holding `tabs`, as a run reads them. */
function spreadsheetWith(tabs: Record<string, [rows: number, columns: number]>) {
  return readSheetGrids({
    getSheets: () =>
      Object.entries(tabs).map(([name, [rows, columns]]) => ({
        getName: () => name,
        getMaxRows: () => rows,
        getMaxColumns: () => columns,
      })),
  } as unknown as GoogleAppsScript.Spreadsheet.Spreadsheet);
}

const ADVICE = 'Narrow it.';

test('a tab of more than 18,278 columns is refused, whatever room the spreadsheet has', () => {
  expect(() =>
    checkRoomForTabs(spreadsheetWith({}), [{ sheetName: 'Matrix', rows: 3, columns: 18_279 }], ADVICE),
  ).toThrow('"Matrix" would need 18,279 columns, but Google Sheets allows 18,278 in a tab. Narrow it.');
  expect(() =>
    checkRoomForTabs(
      spreadsheetWith({ Matrix: [3, 26] }),
      [{ sheetName: 'Matrix', rows: 3, columns: 18_278 }],
      ADVICE,
    ),
  ).not.toThrow();
});

test('the cells of every tab count: existing tabs at their size (never shrunk), new ones at least 1000 × 26', () => {
  // 9,900,000 cells elsewhere; "Matrix" exists at 1000 × 26 and would grow to 2000 rows.
  const spreadsheet = spreadsheetWith({ Archive: [990_000, 10], Matrix: [1000, 26] });
  const matrix = { sheetName: 'Matrix', rows: 2000, columns: 20 };
  expect(() => checkRoomForTabs(spreadsheet, [matrix], ADVICE)).not.toThrow(); // 9,952,000
  // A new tab takes Sheets' default size even when it needs less: 1000 × 26 more.
  expect(() =>
    checkRoomForTabs(spreadsheet, [matrix, { sheetName: 'List', rows: 10, columns: 5 }], ADVICE),
  ).not.toThrow(); // 9,978,000
  expect(() =>
    checkRoomForTabs(spreadsheet, [matrix, { sheetName: 'List', rows: 2000, columns: 30 }], ADVICE),
  ).toThrow(
    '"Matrix", "List" would take this spreadsheet to 10,012,000 cells, but Google Sheets allows 10 million cells per spreadsheet. Narrow it.',
  );
});
