/**
 * A script's write that a "Reject input" data validation rule refuses fails at the call with Google's
 * message, naming the cell in A1, and writes nothing of the call: Range.setValue, Range.setValues,
 * Sheet.appendRow, formulas and the Sheets API's values writes. Clearing, warning-only rules and
 * setting a rule over data that breaks it are allowed, as on Google.
 */
import { emulate } from './fixtures/script-emulator';

const violation = (a1: string) =>
  `The data you entered in cell ${a1} violates the data validation rules set on this cell.`;

const MANIFEST = JSON.stringify({
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function tab() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function setValue(a1, value) { tab().getRange(a1).setValue(value); }
  function setValues(a1, rows) { tab().getRange(a1).setValues(rows); }
  function setDate(a1, isoDate) { tab().getRange(a1).setValues([[new Date(isoDate)]]); }
  function appendRow(row) { tab().appendRow(row); }
  function setFormulaR1C1(a1, formula) { tab().getRange(a1).setFormulaR1C1(formula); }
  function setFormulasR1C1(a1, rows) { tab().getRange(a1).setFormulasR1C1(rows); }
  function setFormulaOnList(a1s, formula) { tab().getRangeList(a1s).setFormulaR1C1(formula); }
  function clearContent(a1) { tab().getRange(a1).clearContent(); }
  function clearTab() { tab().clear(); }
  function rejectList(a1, list) {
    tab().getRange(a1).setDataValidation(
      SpreadsheetApp.newDataValidation().requireValueInList(list).setAllowInvalid(false).build());
  }
  function rejectListThenWrite(a1, list, value) {
    rejectList(a1, list);
    tab().getRange(a1).setValues([[value]]);
  }
  function lastRow() { return tab().getLastRow(); }
  function updateByApi(a1, rows) {
    var id = SpreadsheetApp.getActiveSpreadsheet().getId();
    Sheets.Spreadsheets.Values.update({ values: rows }, id, a1, { valueInputOption: 'RAW' });
  }
  function batchUpdateByApi(data) {
    var id = SpreadsheetApp.getActiveSpreadsheet().getId();
    Sheets.Spreadsheets.Values.batchUpdate({ valueInputOption: 'RAW', data: data }, id);
  }
`;

function setUp() {
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST } });
  const spreadsheetId = emulator.createSpreadsheet();
  const book = emulator.workbooks.get(spreadsheetId)!;
  const sheet = book.sheet('Sheet1');
  const run = (name: string, ...args: unknown[]) => emulator.run(name, args, { spreadsheetId });
  return { book, sheet, run };
}

describe('a reject-input list of values', () => {
  it('refuses setValue of a value not in the list, and keeps the cell as it was', () => {
    const { book, sheet, run } = setUp();
    book.typeValues('Sheet1!C2', [['Yes']]);
    sheet.setDataValidation('C2', { valueInList: ['Yes', 'No'], allowInvalid: false });
    expect(() => run('setValue', 'C2', 'Maybe')).toThrow(violation('C2'));
    expect(sheet.values('C2')).toEqual([['Yes']]);
    run('setValue', 'C2', 'No');
    expect(sheet.values('C2')).toEqual([['No']]);
  });

  it('refuses a whole setValues for one cell, naming that cell and writing none of the others', () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('D2:D3', { valueInList: ['Yes', 'No'], allowInvalid: false });
    expect(() =>
      run('setValues', 'C2:D3', [
        ['first', 'Yes'],
        ['second', 'Signed'],
      ]),
    ).toThrow(violation('D3'));
    expect(sheet.values('C2:D3')).toEqual([
      ['', ''],
      ['', ''],
    ]);
  });

  it('refuses appendRow, leaving the tab as it was', () => {
    const { book, sheet, run } = setUp();
    book.typeValues('Sheet1!A1:B1', [['Name', 'Signed off']]);
    sheet.setDataValidation('B2:B10', { valueInList: ['Yes', 'No'], allowInvalid: false });
    expect(() => run('appendRow', ['Ann', 'Maybe'])).toThrow(violation('B2'));
    expect(run('lastRow')).toBe(1);
    run('appendRow', ['Ann', 'Yes']);
    expect(sheet.values('A2:B2')).toEqual([['Ann', 'Yes']]);
  });

  it('refuses a value the cell already holds, when the rule came after it', () => {
    const { sheet, run } = setUp();
    run('setValues', 'B2', [['Maybe']]);
    run('rejectList', 'B2', ['Yes', 'No']);
    expect(sheet.values('B2')).toEqual([['Maybe']]);
    expect(() => run('setValues', 'B2', [['Maybe']])).toThrow(violation('B2'));
    expect(sheet.values('B2')).toEqual([['Maybe']]);
  });

  it('checks a rule set earlier in the same execution', () => {
    const { sheet, run } = setUp();
    expect(() => run('rejectListThenWrite', 'E5', ['Yes', 'No'], 'Later')).toThrow(violation('E5'));
    expect(sheet.values('E5')).toEqual([['']]);
    expect(sheet.dataValidations('E5')[0]![0]).toMatchObject({
      criteria: 'VALUE_IN_LIST',
      allowInvalid: false,
    });
  });

  it('refuses a formula whose result is not in the list, and takes one whose result is', () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('A1:A3', { valueInList: ['2', 'Yes'], allowInvalid: false });
    expect(() => run('setFormulaR1C1', 'A1', '=3+4')).toThrow(violation('A1'));
    expect(() => run('setFormulasR1C1', 'A1:A2', [['=1+1'], ['=1+2']])).toThrow(violation('A2'));
    expect(() => run('setFormulaOnList', ['A1', 'A3'], '=5')).toThrow(violation('A1'));
    expect(() => run('setValues', 'A3', [['=2+2']])).toThrow(violation('A3'));
    expect(sheet.formulas('A1:A3')).toEqual([[''], [''], ['']]);
    run('setFormulasR1C1', 'A1:A2', [['=1+1'], ['=HYPERLINK("https://example.com", "Yes")']]);
    expect(sheet.values('A1:A2')).toEqual([[2], ['Yes']]);
  });
});

describe('a reject-input date rule', () => {
  it('refuses text that is not a date, and takes a Date or a date typed as text', () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('A2:A4', { requireDate: true, allowInvalid: false });
    expect(() => run('setValues', 'A2:A3', [['2024-01-02'], ['soon']])).toThrow(violation('A3'));
    expect(sheet.values('A2:A3')).toEqual([[''], ['']]);
    run('setValues', 'A2', [['2024-01-02']]);
    run('setDate', 'A3', '2024-03-04T00:00:00Z');
    expect(sheet.values('A2:A3')).toEqual([
      [new Date(Date.UTC(2024, 0, 2))],
      [new Date(Date.UTC(2024, 2, 4))],
    ]);
    expect(() => run('setValue', 'A4', 12)).toThrow(violation('A4'));
  });
});

describe('through the Sheets advanced service (RAW)', () => {
  const API_ERROR = (method: string, a1: string) =>
    `API call to ${method} failed with error: ${violation(a1)}`;

  it("refuses update with the API's error carrying Google's sentence", () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('C2', { valueInList: ['Yes', 'No'], allowInvalid: false });
    expect(() => run('updateByApi', 'Sheet1!B2:C2', [['kept?', 'Maybe']])).toThrow(
      API_ERROR('sheets.spreadsheets.values.update', 'C2'),
    );
    expect(sheet.values('B2:C2')).toEqual([['', '']]);
    // RAW stores a leading "'" as a character: "'Yes" is not "Yes".
    expect(() => run('updateByApi', 'Sheet1!C2', [["'Yes"]])).toThrow(
      API_ERROR('sheets.spreadsheets.values.update', 'C2'),
    );
    run('updateByApi', 'Sheet1!B2:C2', [['written', 'Yes']]);
    expect(sheet.values('B2:C2')).toEqual([['written', 'Yes']]);
  });

  it('refuses a whole batchUpdate for one range, writing none of the others', () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('A2', { requireDate: true, allowInvalid: false });
    const data = [
      { range: 'Sheet1!B2', values: [['fine']] },
      { range: 'Sheet1!A2', values: [['2024-01-02']] },
    ];
    expect(() => run('batchUpdateByApi', data)).toThrow(
      API_ERROR('sheets.spreadsheets.values.batchUpdate', 'A2'),
    );
    expect(sheet.values('A2:B2')).toEqual([['', '']]);
  });

  it('lets a request clear the cell or leave it alone (null)', () => {
    const { book, sheet, run } = setUp();
    book.typeValues('Sheet1!C2:D2', [['Maybe', 'Maybe']]);
    sheet.setDataValidation('C2:D2', { valueInList: ['Yes', 'No'], allowInvalid: false });
    run('updateByApi', 'Sheet1!C2:D2', [['', null]]);
    expect(sheet.values('C2:D2')).toEqual([['', 'Maybe']]);
  });
});

describe('what a rule lets through', () => {
  it('a warning-only rule takes any value', () => {
    const { sheet, run } = setUp();
    sheet.setDataValidation('B2:B3', { valueInList: ['Yes', 'No'] });
    sheet.setDataValidation('C2', { requireDate: true, allowInvalid: true });
    run('setValues', 'B2:C2', [['Maybe', 'soon']]);
    run('appendRow', ['', 'Perhaps']);
    run('updateByApi', 'Sheet1!B4', [['Never']]);
    expect(sheet.values('B2:C4')).toEqual([
      ['Maybe', 'soon'],
      ['Perhaps', ''],
      ['Never', ''],
    ]);
  });

  it("clearing an invalid value is allowed: an empty value, clearContent, the tab's clear", () => {
    const { book, sheet, run } = setUp();
    book.typeValues('Sheet1!A1:A3', [['Maybe'], ['Maybe'], ['Maybe']]);
    sheet.setDataValidation('A1:A3', { valueInList: ['Yes', 'No'], allowInvalid: false });
    run('setValues', 'A1', [['']]);
    run('clearContent', 'A2');
    run('clearTab');
    expect(sheet.values('A1:A3')).toEqual([[''], [''], ['']]);
    run('setFormulaR1C1', 'A1', '');
    expect(sheet.values('A1')).toEqual([['']]);
  });

  it('setting a rule over values that break it keeps them', () => {
    const { book, sheet, run } = setUp();
    book.typeValues('Sheet1!D1:D2', [['Maybe'], ['Yes']]);
    run('rejectList', 'D1:D2', ['Yes', 'No']);
    expect(sheet.values('D1:D2')).toEqual([['Maybe'], ['Yes']]);
  });
});
