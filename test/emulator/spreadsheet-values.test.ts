/**
 * Range values: the dimension rules, what setValues accepts, how strings are read "as if typed" under
 * the automatic format and kept under '@', and that every call is counted once.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(options: { locale?: string } = {}) {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'Values', locale: options.locale });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getSheets()[0]!;
  return { ...service, id, spreadsheet, sheet, view: () => service.workbooks.get(id)!.sheet('Sheet1') };
}

describe('Range dimensions', () => {
  it('refuses data with a different number of rows, with Apps Script message', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange(1, 1, 2, 2).setValues([[1, 2]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
  });

  it('refuses data with a different number of columns', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange(1, 1, 1, 3).setValues([[1, 2]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 2 but the range has 3.',
    );
  });

  it('refuses ragged rows and writes nothing', () => {
    const { sheet, view } = setup();
    expect(() => sheet.getRange(1, 1, 2, 2).setValues([[1, 2], [3]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(view().lastRow).toBe(0);
  });

  it('applies the same rules to the other 2D setters', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:B2');
    expect(() => range.setNumberFormats([['@', '@']])).toThrow('The data has 1 but the range has 2.');
    expect(() => range.setFontWeights([['bold'], ['bold']])).toThrow('The data has 1 but the range has 2.');
    expect(() =>
      range.setFormulas([
        ['=1', '=2', '=3'],
        ['', ''],
      ]),
    ).toThrow('The data has 3 but the range has 2.');
    expect(() => range.setBackgrounds([[null, null]])).toThrow('The data has 1 but the range has 2.');
    expect(() => range.setNotes([['a', 'b']])).toThrow('The data has 1 but the range has 2.');
  });

  it('refuses ranges outside the sheet: the caller must insert rows first', () => {
    const { sheet } = setup();
    expect(sheet.getMaxRows()).toBe(1000);
    expect(sheet.getMaxColumns()).toBe(26);
    expect(() => sheet.getRange(1000, 1, 2, 1)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sheet.getRange(1, 27)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sheet.getRange('A1:AA1')).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    sheet.insertRowsAfter(1000, 1);
    expect(sheet.getRange(1000, 1, 2, 1).getNumRows()).toBe(2);
  });

  it('refuses empty and misplaced ranges with Apps Script messages', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange(2, 1, 0, 3)).toThrow('The number of rows in the range must be at least 1.');
    expect(() => sheet.getRange(2, 1, 1, 0)).toThrow(
      'The number of columns in the range must be at least 1.',
    );
    expect(() => sheet.getRange(0, 1)).toThrow('The starting row of the range is too small.');
    expect(() => sheet.getRange(1, 0)).toThrow('The starting column of the range is too small.');
    expect(() => sheet.getRange(1.5, 1)).toThrow(
      "don't match the method signature for SpreadsheetApp.Sheet.getRange",
    );
    expect(() => sheet.getRange('not a range')).toThrow('Range not found');
    expect(() => sheet.getRange('Other!A1')).toThrow('Range not found');
  });

  it('re-checks a range at each use, after rows were deleted', () => {
    const { sheet } = setup();
    const tail = sheet.getRange(990, 1, 10, 1);
    sheet.deleteRows(1, 5);
    expect(() => tail.getValues()).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
  });

  it('reads A1 notation, open-ended columns and offsets', () => {
    const { sheet } = setup();
    expect(sheet.getRange('b2:c3').getA1Notation()).toBe('B2:C3');
    expect(sheet.getRange('A:B').getNumRows()).toBe(1000);
    expect(sheet.getRange('A2:B').getNumRows()).toBe(999);
    expect(sheet.getRange('2:3').getNumColumns()).toBe(26);
    const offset = sheet.getRange('B2').offset(1, 2, 3, 4);
    expect([offset.getRow(), offset.getColumn(), offset.getLastRow(), offset.getLastColumn()]).toEqual([
      3, 4, 5, 7,
    ]);
  });
});

describe('values a cell can hold', () => {
  it.each([
    ['undefined', undefined],
    ['an object', { a: 1 }],
    ['an array', [1]],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an invalid Date', new Date(Number.NaN)],
  ])('refuses %s, before writing anything', (_, value) => {
    const { sheet, view } = setup();
    expect(() => sheet.getRange(1, 1, 1, 2).setValues([['kept?', value]])).toThrow('Cannot store');
    expect(() => sheet.getRange(1, 1).setValue(value)).toThrow('Cannot store');
    expect(view().lastRow).toBe(0);
  });

  it('refuses a non-2D argument', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange('A1').setValues('x' as never)).toThrow(
      "The parameters (String) don't match the method signature for SpreadsheetApp.Range.setValues.",
    );
    expect(() => sheet.getRange('A1').setValues([1] as never)).toThrow("don't match the method signature");
  });

  it('refuses more than 50,000 characters in a cell', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange('A1').setValue('x'.repeat(50_001))).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
    sheet.getRange('A1').setValue('x'.repeat(50_000));
  });

  it('stores strings, numbers, booleans; null and empty string clear', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:D1');
    range.setValues([['text', 42.5, true, null]]);
    expect(range.getValues()).toEqual([['text', 42.5, true, '']]);
    range.setValues([['', null, '', '']]);
    expect(range.getValues()).toEqual([['', '', '', '']]);
    expect(sheet.getLastRow()).toBe(0);
  });

  it('setValue writes every cell of the range', () => {
    const { sheet } = setup();
    sheet.getRange('A1:B2').setValue('same');
    expect(sheet.getRange('A1:B2').getValues()).toEqual([
      ['same', 'same'],
      ['same', 'same'],
    ]);
  });

  it('hands back arrays made in the script realm', () => {
    const { sheet, realm } = setup();
    expect(sheet.getRange('A1:B2').getValues()).toBeInstanceOf(realm.Array);
    expect(sheet.getRange('A1:B2').getValues()[0]).toBeInstanceOf(realm.Array);
  });
});

describe('strings read as if typed (automatic format)', () => {
  const typed = (input: string, locale?: string) => {
    const { sheet } = setup({ locale });
    const cell = sheet.getRange('A1');
    cell.setValue(input);
    return {
      value: cell.getValue(),
      display: cell.getDisplayValue(),
      formula: cell.getFormula(),
      format: cell.getNumberFormat(),
    };
  };

  it.each([
    ['01234', 1234],
    ['1,234.5', 1234.5],
    ['22 34', 2234],
    ['5%', 0.05],
    ['-5', -5],
    ['+7', 7],
    [' 42 ', 42],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('%j becomes the number %p', (input, expected) => {
    expect(typed(input).value).toBe(expected);
  });

  it.each([
    ['TRUE', true],
    ['false', false],
    ['True', true],
  ])('%j becomes the boolean %p', (input, expected) => {
    expect(typed(input).value).toBe(expected);
  });

  it.each(['1,23', 'abc', '12abc', '0x10', 'Infinity', '1.2.3'])('%j stays text', (input) => {
    expect(typed(input).value).toBe(input);
  });

  it('shows a typed percentage as one', () => {
    expect(typed('5%')).toMatchObject({ value: 0.05, display: '5%', format: '0%' });
    expect(typed('12.5%')).toMatchObject({ value: 0.125, display: '12.50%' });
  });

  it('makes "=…" a formula', () => {
    expect(typed('=SUM(A2:A3)')).toMatchObject({ formula: '=SUM(A2:A3)', value: '#NAME?' });
  });

  it('computes "+…" arithmetic as a formula and shows #ERROR! for the rest', () => {
    expect(typed('+1+2')).toMatchObject({ value: 3, display: '3', formula: '=+1+2' });
    expect(typed('-(2*3)^2')).toMatchObject({ value: -36 });
    expect(typed('-abc')).toMatchObject({ value: '#ERROR!', display: '#ERROR!', formula: '=-abc' });
    expect(typed('+call me')).toMatchObject({ value: '#ERROR!', formula: '=+call me' });
    expect(typed('+1/0')).toMatchObject({ value: '#DIV/0!' });
  });

  it('drops a leading apostrophe and keeps the rest as text', () => {
    expect(typed("'01234")).toMatchObject({ value: '01234', display: '01234' });
  });

  it('reads ISO dates and date-times, and gives them a date format', () => {
    expect(typed('2024-01-05')).toMatchObject({ display: '2024-01-05', format: 'yyyy-mm-dd' });
    expect(typed('2024-01-05 10:00')).toMatchObject({
      display: '2024-01-05 10:00',
      format: 'yyyy-mm-dd hh:mm',
    });
    expect(Object.prototype.toString.call(typed('2024-01-05').value)).toBe('[object Date]');
    expect(typed('2024-02-30').value).toBe('2024-02-30');
  });

  it('reads slashed dates day first, except in en_US', () => {
    expect(typed('05/01/2024').display).toBe('05/01/2024');
    expect(typed('05/01/2024').format).toBe('dd/mm/yyyy');
    const { sheet } = setup({ locale: 'en_GB' });
    sheet.getRange('A1').setValue('05/01/2024');
    sheet.getRange('A1').setNumberFormat('yyyy-mm-dd');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('2024-01-05');
    const us = setup({ locale: 'en_US' });
    us.sheet.getRange('A1').setValue('05/01/2024');
    us.sheet.getRange('A1').setNumberFormat('yyyy-mm-dd');
    expect(us.sheet.getRange('A1').getDisplayValue()).toBe('2024-05-01');
  });

  it('parses under an explicit number format too, keeping that format', () => {
    const { sheet } = setup();
    const cell = sheet.getRange('A1').setNumberFormat('0.00');
    cell.setValue('01234');
    expect(cell.getValue()).toBe(1234);
    expect(cell.getDisplayValue()).toBe('1234.00');
    cell.setValue('2024-01-05');
    expect(cell.getNumberFormat()).toBe('0.00');
    expect(cell.getValue()).toBe(45296);
  });
});

describe('strings under the plain text format @', () => {
  it('keeps every string literally, formulas included', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:H1');
    range.setNumberFormat('@');
    const inputs = ['01234', '=x', '+1+2', '-abc', 'TRUE', '5%', '2024-01-05', "'quoted"];
    range.setValues([inputs]);
    expect(range.getValues()).toEqual([inputs]);
    expect(range.getDisplayValues()).toEqual([inputs]);
    expect(range.getFormulas()).toEqual([['', '', '', '', '', '', '', '']]);
  });

  it('leaves numbers and booleans written as such', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:B1').setNumberFormat('@');
    range.setValues([[7, false]]);
    expect(range.getValues()).toEqual([[7, false]]);
  });
});

describe('formulas and formats through Range', () => {
  it('setFormulas stores formulas; an empty string clears; text without = is refused', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:B1');
    range.setFormulas([['=1+2', '']]);
    expect(range.getFormulas()).toEqual([['=1+2', '']]);
    expect(range.getValues()).toEqual([[3, '']]);
    expect(() => range.setFormulas([['1+2', '']])).toThrow('A formula must start with "="');
  });

  it('setFormula on many cells shifts relative references cell by cell, as a fill does', () => {
    const { sheet } = setup();
    sheet.getRange('A1:A2').setFormula('=HYPERLINK("https://example.com", "x")');
    expect(sheet.getRange('A1:A2').getValues()).toEqual([['x'], ['x']]);
    sheet.getRange('C2:D3').setFormula('=B1+$B$1');
    expect(sheet.getRange('C2:D3').getFormulas()).toEqual([
      ['=B1+$B$1', '=C1+$B$1'],
      ['=B2+$B$1', '=C2+$B$1'],
    ]);
  });

  it('reports the automatic format as Sheets does, and resets to it', () => {
    const { sheet } = setup();
    const cell = sheet.getRange('A1');
    expect(cell.getNumberFormat()).toBe('0.###############');
    cell.setNumberFormat('@');
    expect(cell.getNumberFormat()).toBe('@');
    cell.setNumberFormat('');
    expect(cell.getNumberFormat()).toBe('0.###############');
  });

  it('stores font weights, backgrounds, notes, alignment and wrap', () => {
    const { sheet, view } = setup();
    const range = sheet.getRange('A1:B1');
    range
      .setFontWeights([['bold', null]])
      .setBackgrounds([['#F00', null]])
      .setNotes([['why', null]]);
    range.setHorizontalAlignment('center').setWrap(true);
    expect(range.getFontWeights()).toEqual([['bold', 'normal']]);
    expect(range.getBackgrounds()).toEqual([['#ff0000', '#ffffff']]);
    expect(range.getNotes()).toEqual([['why', '']]);
    expect(view().cells('A1')[0]![0]).toMatchObject({ horizontalAlignment: 'center', wrap: true });
    expect(() => range.setFontWeight('heavy' as never)).toThrow("don't match the method signature");
    expect(() => range.setBackground('not-a-colour')).toThrow('Invalid color');
  });

  it('clears content, formats or both', () => {
    const { sheet } = setup();
    const cell = sheet.getRange('A1');
    cell.setValue('x').setFontWeight('bold').setNote('n');
    cell.clearContent();
    expect([cell.getValue(), cell.getFontWeight(), cell.getNote()]).toEqual(['', 'bold', 'n']);
    cell.setValue('x').clearFormat();
    expect([cell.getValue(), cell.getFontWeight()]).toEqual(['x', 'normal']);
    cell.setFontWeight('bold').clear();
    expect([cell.getValue(), cell.getFontWeight(), cell.getNote()]).toEqual(['', 'normal', '']);
    expect(() => cell.clear({ commentsOnly: true })).toThrow('not emulated: Range.clear({commentsOnly})');
  });
});

describe('counting and strictness', () => {
  it('counts one call per method call, whatever the number of cells', () => {
    const { sheet, counter } = setup();
    counter.reset();
    const rows = Array.from({ length: 500 }, (_, i) => [i, `name ${i}`, true]);
    sheet.getRange(1, 1, 500, 3).setValues(rows);
    expect(counter.snapshot()).toEqual({ 'Range.setValues': 1, 'Sheet.getRange': 1 });
  });

  it('throws "not emulated" for members it does not implement', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1') as unknown as Record<string, () => unknown>;
    expect(() => range.foo!()).toThrow('not emulated: Range.foo');
    expect(() => range.getRichTextValue!()).toThrow('not emulated: Range.getRichTextValue');
    expect(() => (sheet as unknown as Record<string, unknown>).sort).toThrow('not emulated: Sheet.sort');
  });

  it('keeps its internals out of reach of the script', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1') as unknown as Record<string, unknown>;
    for (const name of ['sheet', 'box', 'env', 'self', 'read', 'write']) {
      expect(() => range[name]).toThrow(`not emulated: Range.${name}`);
    }
  });
});
