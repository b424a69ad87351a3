/**
 * Formulas: the text is kept; HYPERLINK and literal arithmetic are computed at once; custom functions
 * are computed through the runtime only when a test recalculates, with Sheets' argument and spill
 * rules; anything else shows #NAME? rather than a guess.
 */
import { UnknownFunctionError } from '../../dev/emulator/spreadsheet';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(evaluateCustomFunction?: (name: string, args: unknown[], spreadsheetId: string) => unknown) {
  const service = createTestSpreadsheetService({ evaluateCustomFunction });
  const id = service.workbooks.create({
    name: 'Formulas',
    sheetNames: ['Data', 'Other sheet'],
    timeZone: 'Pacific/Kiritimati',
  });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  const workbook = service.workbooks.get(id)!;
  return { ...service, id, spreadsheet, sheet: spreadsheet.getSheetByName('Data')!, workbook };
}

describe('HYPERLINK', () => {
  it('shows the label and remembers the target, with , between its arguments', () => {
    const { sheet, workbook } = setup();
    const gid = sheet.getSheetId();
    sheet
      .getRange('A1:B1')
      .setValues([
        [`=HYPERLINK("#gid=${gid}&range=A5", "Row 5")`, '=hyperlink("https://example.com/a?b=1,2", "Site")'],
      ]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['Row 5', 'Site']]);
    expect(workbook.sheet('Data').formulas('A1')[0]![0]).toBe(`=HYPERLINK("#gid=${gid}&range=A5", "Row 5")`);
    expect(
      workbook
        .sheet('Data')
        .cells('A1:B1')[0]!
        .map((cell) => cell.link),
    ).toEqual([`#gid=${gid}&range=A5`, 'https://example.com/a?b=1,2']);
  });

  it('uses the URL as label when there is none, and reads cell references', () => {
    const { sheet } = setup();
    sheet.getRange('C1').setValues([['Label from a cell']]);
    sheet
      .getRange('A1:B1')
      .setValues([['=HYPERLINK("https://example.com")', '=HYPERLINK("https://example.com", C1)']]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['https://example.com', 'Label from a cell']]);
  });
});

describe('formulas the emulator does not compute', () => {
  it('show #NAME? and keep their text', () => {
    const { sheet, workbook } = setup();
    sheet.getRange('A1:B1').setValues([['=SUM(A2:A3)', '=A2*2']]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['#NAME?', '#NAME?']]);
    expect(workbook.sheet('Data').formulas('A1:B1')).toEqual([['=SUM(A2:A3)', '=A2*2']]);
    expect(workbook.sheet('Data').cells('A1')[0]![0]!.error).toEqual({
      code: '#NAME?',
      message: "Unknown function: 'SUM'.",
    });
  });

  it('compute literal arithmetic', () => {
    const { sheet } = setup();
    expect(
      sheet
        .getRange('A1')
        .setValues([['=(1+2)*4']])
        .getValues()[0]![0],
    ).toBe(12);
  });
});

describe('custom functions', () => {
  it('wait for a recalculation, then spill a 2D result', () => {
    const calls: unknown[][] = [];
    const { sheet, workbook } = setup((name, args) => {
      calls.push([name, ...args]);
      return [
        ['id', 'name'],
        ['007', 'Ada'],
      ];
    });
    sheet.getRange('B2').setValues([['=SAFETY_USERS("active", 3, TRUE)']]);
    expect(sheet.getRange('B2').getValues()[0]![0]).toBe('#N/A');
    expect(workbook.sheet('Data').displayValues('B2')[0]![0]).toBe('Loading...');
    expect(calls).toEqual([]);
    workbook.recalculate();
    expect(calls).toEqual([['SAFETY_USERS', 'active', 3, true]]);
    expect(sheet.getRange('B2:C3').getValues()).toEqual([
      ['id', 'name'],
      ['007', 'Ada'],
    ]);
    expect(workbook.sheet('Data').formulas('B2:C3')).toEqual([
      ['=SAFETY_USERS("active", 3, TRUE)', ''],
      ['', ''],
    ]);
  });

  it('pass a cell as its value and a range as a 2D array, dates as script-realm Dates', () => {
    let received: unknown[] = [];
    const { sheet, spreadsheet, workbook, realm } = setup((_, args) => {
      received = args;
      return 'ok';
    });
    spreadsheet
      .getSheetByName('Other sheet')!
      .getRange('A1:B2')
      .setValues([
        [1, 'x'],
        [true, ''],
      ]);
    sheet
      .getRange('A1')
      .setNumberFormats([['yyyy-mm-dd']])
      .setValues([[45000]]);
    sheet.getRange('A2').setValues([['solo']]);
    sheet.getRange('C1').setValues([[`=SAFETY_X(A1, A2, 'Other sheet'!A1:B2, A3)`]]);
    workbook.recalculate();
    expect(received[0]).toBeInstanceOf(realm.Date);
    expect(received.slice(1)).toEqual([
      'solo',
      [
        [1, 'x'],
        [true, ''],
      ],
      '',
    ]);
    expect(sheet.getRange('C1').getValues()[0]![0]).toBe('ok');
  });

  it('pass an argument left out as an empty value', () => {
    const calls: unknown[][] = [];
    const { sheet, workbook } = setup((_, args) => calls.push(args));
    sheet.getRange('A1').setValues([['=SAFETY_X("a", , 3)']]);
    workbook.recalculate();
    expect(calls).toEqual([['a', '', 3]]);
  });

  it('pass the spreadsheet id of the cell', () => {
    const ids: string[] = [];
    const { sheet, workbook, id } = setup((_, __, spreadsheetId) => ids.push(spreadsheetId));
    sheet.getRange('A1').setValues([['=SAFETY_X()']]);
    workbook.recalculate();
    expect(ids).toEqual([id]);
  });

  it('show a thrown error as #ERROR! with its message, and an unknown name as #NAME?', () => {
    const { sheet, workbook } = setup((name) => {
      if (name === 'SAFETY_BROKEN') throw new Error('Token refused (SVC-Request-ID: r-1)');
      throw new UnknownFunctionError(name);
    });
    sheet.getRange('A1:B1').setValues([['=SAFETY_BROKEN()', '=NOPE()']]);
    workbook.recalculate();
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['#ERROR!', '#NAME?']]);
    expect(
      workbook
        .sheet('Data')
        .cells('A1:B1')[0]!
        .map((cell) => cell.error),
    ).toEqual([
      { code: '#ERROR!', message: 'Token refused (SVC-Request-ID: r-1)' },
      { code: '#NAME?', message: "Unknown function: 'NOPE'." },
    ]);
  });

  it('do not spill over data or past the sheet', () => {
    const { sheet, workbook } = setup(() => [[1], [2], [3]]);
    sheet.getRange('A1').setValues([['=SAFETY_X()']]);
    sheet.getRange('A3').setValues([['in the way']]);
    sheet.getRange('A999').setValues([['=SAFETY_X()']]);
    workbook.recalculate();
    const errors = workbook
      .sheet('Data')
      .cells('A1:A999')
      .flat()
      .filter((cell) => cell.error);
    expect(errors.map((cell) => cell.error!.message)).toEqual([
      'Array result was not expanded because it would overwrite data in A3.',
      'Result was not automatically expanded, please insert more rows (1).',
    ]);
  });

  it('clear the previous spill when recalculated or overwritten', () => {
    let rows = [[1], [2], [3]];
    const { sheet, workbook } = setup(() => rows);
    sheet.getRange('A1').setValues([['=SAFETY_X()']]);
    workbook.recalculate();
    rows = [[9]];
    workbook.recalculate();
    expect(sheet.getRange('A1:A3').getValues()).toEqual([[9], [''], ['']]);
    rows = [[1], [2]];
    workbook.recalculate();
    sheet.getRange('A1').setValues([['plain']]);
    expect(sheet.getRange('A1:A2').getValues()).toEqual([['plain'], ['']]);
  });

  it('lose their spilled results when the formula row is deleted', () => {
    const { sheet, workbook } = setup(() => [[1], [2], [3]]);
    sheet.getRange('A2').setValues([['=SAFETY_X()']]);
    workbook.recalculate();
    sheet.deleteRows(2, 1);
    expect(sheet.getLastRow()).toBe(0);
  });

  it('turn a Date result into a dated cell of the spreadsheet zone', () => {
    const { sheet, workbook } = setup(() => new Date(Date.UTC(2024, 0, 4, 10)));
    sheet.getRange('A1').setValues([['=SAFETY_NEXT_INSPECTION()']]);
    workbook.recalculate();
    expect(workbook.sheet('Data').displayValues('A1')[0]![0]).toBe('2024-01-05');
    expect(workbook.sheet('Data').numberFormats('A1')[0]![0]).toBe('0.###############');
  });

  it('are unknown (#NAME?) when no runtime evaluates them', () => {
    const { sheet } = setup();
    expect(
      sheet
        .getRange('A1')
        .setValues([['=SAFETY_X()']])
        .getValues()[0]![0],
    ).toBe('#NAME?');
  });
});
