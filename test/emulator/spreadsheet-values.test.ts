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
    expect(() =>
      range.setFormulasR1C1([
        ['=1', '=2', '=3'],
        ['', ''],
      ]),
    ).toThrow('The data has 3 but the range has 2.');
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
    sheet.getRange(1000, 1, 2, 1).setValues([['kept'], ['too']]);
    expect(sheet.getLastRow()).toBe(1001);
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

  it('reads A1 notation, open-ended columns and rows', () => {
    const { sheet } = setup();
    const range = sheet.getRange('c3:b2');
    expect([range.getRow(), range.getColumn(), range.getNumColumns()]).toEqual([2, 2, 2]);
    expect(sheet.getRange('A2:B').getValues()).toHaveLength(999);
    expect(sheet.getRange('2:3').getNumColumns()).toBe(26);
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
    expect(() => sheet.getRange('A1').setValues([['x'.repeat(50_001)]])).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
    sheet.getRange('A1').setValues([['x'.repeat(50_000)]]);
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

  it('hands back arrays made in the script realm', () => {
    const { sheet, realm } = setup();
    expect(sheet.getRange('A1:B2').getValues()).toBeInstanceOf(realm.Array);
    expect(sheet.getRange('A1:B2').getValues()[0]).toBeInstanceOf(realm.Array);
  });
});

describe('strings read as if typed (automatic format)', () => {
  const typed = (input: string, locale?: string) => {
    const { sheet, view } = setup({ locale });
    const cell = sheet.getRange('A1');
    cell.setValues([[input]]);
    const { display, formula, numberFormat } = view().cells('A1')[0]![0]!;
    return { value: cell.getValues()[0]![0], display, formula, format: numberFormat };
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
    const isoDisplay = (locale: string) => {
      const { sheet, view } = setup({ locale });
      sheet.getRange('A1').setValues([['05/01/2024']]);
      sheet.getRange('A1').setNumberFormats([['yyyy-mm-dd']]);
      return view().displayValues('A1')[0]![0];
    };
    expect(isoDisplay('en_GB')).toBe('2024-01-05');
    expect(isoDisplay('en_US')).toBe('2024-05-01');
  });

  it('parses under an explicit number format too, keeping that format', () => {
    const { sheet, view } = setup();
    const cell = sheet.getRange('A1').setNumberFormats([['0.00']]);
    cell.setValues([['01234']]);
    expect(cell.getValues()).toEqual([[1234]]);
    expect(view().displayValues('A1')).toEqual([['1234.00']]);
    cell.setValues([['2024-01-05']]);
    expect(view().numberFormats('A1')).toEqual([['0.00']]);
    expect(cell.getValues()).toEqual([[45296]]);
  });
});

describe('strings under the plain text format @', () => {
  it('keeps every string literally, formulas included', () => {
    const { sheet, view } = setup();
    const range = sheet.getRange('A1:H1');
    range.setNumberFormats([Array<string>(8).fill('@')]);
    const inputs = ['01234', '=x', '+1+2', '-abc', 'TRUE', '5%', '2024-01-05', "'quoted"];
    range.setValues([inputs]);
    expect(range.getValues()).toEqual([inputs]);
    expect(view().displayValues('A1:H1')).toEqual([inputs]);
    expect(view().formulas('A1:H1')).toEqual([['', '', '', '', '', '', '', '']]);
  });

  it('leaves numbers and booleans written as such', () => {
    const { sheet } = setup();
    const range = sheet.getRange('A1:B1').setNumberFormats([['@', '@']]);
    range.setValues([[7, false]]);
    expect(range.getValues()).toEqual([[7, false]]);
  });
});

describe('formats through Range', () => {
  it('reports the automatic format as Sheets does, and resets to it', () => {
    const { sheet, view } = setup();
    const cell = sheet.getRange('A1');
    expect(view().numberFormats('A1')).toEqual([['0.###############']]);
    cell.setNumberFormats([['@']]);
    expect(view().numberFormats('A1')).toEqual([['@']]);
    cell.setNumberFormats([['']]);
    expect(view().numberFormats('A1')).toEqual([['0.###############']]);
  });

  it('stores font weights and notes', () => {
    const { sheet, view } = setup();
    sheet.getRange('A1').setFontWeight('bold').setNote('why');
    expect(view().cells('A1:B1')[0]).toMatchObject([
      { fontWeight: 'bold', note: 'why' },
      { fontWeight: 'normal', note: '' },
    ]);
    expect(() => sheet.getRange('A1').setFontWeight('heavy' as never)).toThrow(
      "don't match the method signature",
    );
  });

  it('clears content but keeps formats and notes', () => {
    const { sheet, view } = setup();
    const cell = sheet.getRange('A1');
    cell.setValues([['x']]);
    cell.setFontWeight('bold').setNote('n');
    cell.clearContent();
    expect(view().cells('A1')[0]).toMatchObject([{ value: '', fontWeight: 'bold', note: 'n' }]);
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
    expect(() => range.setRichTextValue!()).toThrow('not emulated: Range.setRichTextValue');
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
