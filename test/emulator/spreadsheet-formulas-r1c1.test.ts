/**
 * Formulas read and written in R1C1 notation through Range and RangeList: a formula read from one row
 * and written on another follows its row, `$` parts stay put, and a RangeList change is one call.
 */
import { spreadsheetServiceCalls } from '../../dev/emulator/spreadsheet';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup() {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'R1C1', sheetNames: ['Data', 'Other sheet'] });
  service.context.activeSpreadsheetId = id;
  const sheet = service.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data')!;
  /** The A1 formulas of the cells, as the user sees them. */
  const formulas = (a1: string) => service.workbooks.get(id)!.sheet('Data').formulas(a1);
  return { ...service, sheet, formulas };
}

describe('Range in R1C1 notation', () => {
  it('reads each formula relative to its cell, and "" where there is none', () => {
    const { sheet } = setup();
    sheet.getRange('C2:E2').setValues([['=A2*2', '', '=SUM($A$1:B2)']]);
    sheet.getRange('D2').setValues([['plain']]);
    expect(sheet.getRange('C2:E2').getFormulasR1C1()).toEqual([['=R[0]C[-2]*2', '', '=SUM(R1C1:R[0]C[-3])']]);
    expect(sheet.getRange('C2').getFormulaR1C1()).toBe('=R[0]C[-2]*2');
    expect(sheet.getRange('D2').getFormulaR1C1()).toBe('');
  });

  it('writes a formula read on one row three rows lower, shifted with it except its $ parts', () => {
    const { sheet, formulas } = setup();
    sheet.getRange('C2:D2').setValues([['=A2*2+$A$1', "=CONCAT(B2, 'Other sheet'!B$1)"]]);
    // The typings allow null for a cell without formula; Sheets gives '' (see the test above).
    const read = sheet.getRange('C2:D2').getFormulasR1C1() as string[][];
    sheet.getRange('C5:D5').setFormulasR1C1(read);
    expect(formulas('C5:D5')).toEqual([['=A5*2+$A$1', "=CONCAT(B5, 'Other sheet'!B$1)"]]);
  });

  it('fills a multi-cell range with setFormulaR1C1, each cell relative to itself', () => {
    const { sheet, formulas } = setup();
    sheet.getRange('C1:C3').setFormulaR1C1('=R[0]C[-2]+R1C1');
    expect(formulas('C1:C3')).toEqual([['=A1+$A$1'], ['=A2+$A$1'], ['=A3+$A$1']]);
  });

  it('writes #REF! for a reference pushed above row 1', () => {
    const { sheet, formulas } = setup();
    sheet.getRange('B4').setValues([['=A2+A4']]);
    sheet.getRange('B1').setFormulaR1C1(sheet.getRange('B4').getFormulaR1C1()!);
    expect(formulas('B1')[0]![0]).toBe('=#REF!+A1');
  });

  it('clears cells given "" and refuses what is not a formula', () => {
    const { sheet, formulas } = setup();
    const range = sheet.getRange('A1:B1');
    range.setValues([['=1+2', '=3']]);
    range.setFormulasR1C1([['', '=R[0]C[-1]']]);
    expect(formulas('A1:B1')).toEqual([['', '=A1']]);
    expect(() => range.setFormulasR1C1([['=RC']])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(() => range.setFormulasR1C1([['RC', '']])).toThrow('A formula must start with "="');
    expect(() => range.setFormulaR1C1(3 as never)).toThrow(
      "The parameters (number) don't match the method signature for SpreadsheetApp.Range.setFormulaR1C1.",
    );
  });
});

describe('RangeList', () => {
  it('writes an R1C1 formula in every cell of every range, relative to each cell', () => {
    const { sheet, formulas } = setup();
    sheet.getRange('C2').setValues([['=A2*B$1']]);
    const formula = sheet.getRange('C2').getFormulaR1C1()!;
    sheet.getRangeList(['C5', 'C7:C8']).setFormulaR1C1(formula);
    expect(formulas('C5:C8')).toEqual([['=A5*B$1'], [''], ['=A7*B$1'], ['=A8*B$1']]);
  });

  it('counts each call as one Spreadsheet call, whatever the number of ranges', () => {
    const { sheet, counter } = setup();
    counter.reset();
    sheet.getRangeList(['A1:A3', 'C1', 'E1:F2']).setFormulaR1C1('=RC[1]');
    expect(spreadsheetServiceCalls(counter.snapshot())).toEqual({
      'RangeList.setFormulaR1C1': 1,
      'Sheet.getRangeList': 1,
    });
  });

  it('throws for a bad A1 notation as getRange does', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange('not a range')).toThrow('Range not found');
    expect(() => sheet.getRangeList(['A1', 'not a range'])).toThrow('Range not found');
    expect(() => sheet.getRangeList(['Other sheet!A1'])).toThrow('Range not found');
    expect(() => sheet.getRangeList('A1' as never)).toThrow(
      "don't match the method signature for SpreadsheetApp.Sheet.getRangeList",
    );
  });

  it('throws "not emulated" for members it does not implement', () => {
    const { sheet } = setup();
    const list = sheet.getRangeList(['A1']) as unknown as Record<string, unknown>;
    expect(() => list.setFormula).toThrow('not emulated: RangeList.setFormula');
    expect(() => list.boxes).toThrow('not emulated: RangeList.boxes');
  });
});
