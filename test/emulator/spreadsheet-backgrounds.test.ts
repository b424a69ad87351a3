/**
 * Cell backgrounds and frozen columns, as the training matrix uses them: one setBackgrounds call
 * for a grid of colours (null removes one), and setFrozenColumns within the sheet's columns.
 */
import { createEmulator } from '../../dev/emulator';

function run(body: string): { workbook: ReturnType<typeof open>['workbook']; result: unknown } {
  const { emulator, spreadsheetId, workbook } = open(body);
  const result = emulator.run('probe', [], { kind: 'menu', spreadsheetId });
  return { workbook, result };
}

function open(body: string) {
  const emulator = createEmulator({ code: `function probe() { ${body} }` });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Probe' });
  return { emulator, spreadsheetId, workbook: emulator.workbooks.get(spreadsheetId)! };
}

test('setBackgrounds colours each cell of the range; null removes the colour', () => {
  const { workbook } = run(`
    const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
    sheet.getRange('A1:B2').setBackgrounds([['#F4CCCC', 'red'], [null, '#abc']]);
    sheet.getRange('A1').setBackgrounds([[null]]);
  `);
  expect(workbook.sheet('Sheet1').backgrounds('A1:B2')).toEqual([
    [null, '#ff0000'],
    [null, '#aabbcc'],
  ]);
});

test.each([
  ["[['#fff']]", /rows|columns|dimensions|size/i],
  ["[['not a colour', '#fff']]", /Invalid color/],
])('setBackgrounds refuses %s on a 1×2 range', (grid, message) => {
  const { emulator, spreadsheetId } = open(`
    SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1:B1').setBackgrounds(${grid});
  `);
  expect(() => emulator.run('probe', [], { kind: 'menu', spreadsheetId })).toThrow(message);
});

test('clear() removes backgrounds with the other formats', () => {
  const { workbook } = run(`
    const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
    sheet.getRange('A1').setBackgrounds([['#d9ead3']]);
    sheet.clear();
  `);
  expect(workbook.sheet('Sheet1').backgrounds('A1')).toEqual([[null]]);
});

test('setFrozenColumns freezes columns within the sheet, and follows inserted columns', () => {
  const { workbook, result } = run(`
    const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
    sheet.setFrozenColumns(2);
    const before = sheet.getFrozenColumns();
    sheet.insertColumnsBefore(1, 1);
    let refused = '';
    try { sheet.setFrozenColumns(sheet.getMaxColumns()); } catch (error) { refused = error.message; }
    return [before, refused];
  `);
  expect(result).toEqual([2, "You can't freeze all visible columns on the sheet."]);
  expect(workbook.sheet('Sheet1').frozenColumns).toBe(3);
});
