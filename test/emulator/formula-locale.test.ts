/**
 * A formula is read in its spreadsheet's locale: where decimals are written with a comma (de_DE),
 * only `;` separates arguments and `1,5` is a number; where they are written with a point (en_GB,
 * en_US), `,` separates them, and `;` too only under the looser reading of
 * semicolonArgumentsInEveryLocale. A formula that does not parse is kept and shows #ERROR!.
 */
import { type GoogleReadings } from '../../dev/emulator';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(
  locale: string,
  readings: Partial<GoogleReadings> = {},
  evaluateCustomFunction?: (name: string, args: unknown[]) => unknown,
) {
  const service = createTestSpreadsheetService({ evaluateCustomFunction, readings });
  const id = service.workbooks.create({ name: 'Locale', locale });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  const workbook = service.workbooks.get(id)!;
  return { spreadsheet, sheet: spreadsheet.getSheets()[0]!, workbook };
}

const PARSE_ERROR = { code: '#ERROR!', message: 'Formula parse error.' };

describe('in de_DE, which writes decimals with a comma', () => {
  it('a link with , between its arguments does not parse, and is kept as written', () => {
    const { sheet, workbook } = setup('de_DE');
    sheet.getRange('A1').setValues([['=HYPERLINK("https://example.com/a", "x")']]);
    expect(sheet.getRange('A1').getValues()).toEqual([['#ERROR!']]);
    const view = workbook.sheet('Sheet1');
    expect(view.cells('A1')[0]![0]!.error).toEqual(PARSE_ERROR);
    expect(view.cells('A1')[0]![0]!.link).toBeNull();
    expect(view.formulas('A1')).toEqual([['=HYPERLINK("https://example.com/a", "x")']]);
  });

  it('a link with ; between its arguments shows its label and has its link', () => {
    const { sheet, workbook } = setup('de_DE');
    sheet.getRange('A1').setValues([['=HYPERLINK("https://example.com/a?b=1,2"; "x")']]);
    expect(sheet.getRange('A1').getValues()).toEqual([['x']]);
    expect(workbook.sheet('Sheet1').cells('A1')[0]![0]!.link).toBe('https://example.com/a?b=1,2');
  });

  it('a custom function receives 1,5 as the number 1.5', () => {
    const calls: unknown[][] = [];
    const { sheet, workbook } = setup('de_DE', {}, (name, args) => {
      calls.push([name, ...args]);
      return 'done';
    });
    sheet.getRange('A1:A2').setValues([['=SAFETY_X(1,5; "a,b"; 2)'], ['=SAFETY_X(1.5; 2)']]);
    workbook.recalculate();
    expect(calls).toEqual([['SAFETY_X', 1.5, 'a,b', 2]]);
    expect(sheet.getRange('A1').getValues()).toEqual([['done']]);
  });

  it('a user typing a link reads it the same way', () => {
    const { workbook } = setup('de_DE');
    workbook.typeValues('Sheet1!A1:B1', [['=HYPERLINK("u"; "x")', '=HYPERLINK("u", "x")']]);
    expect(workbook.sheet('Sheet1').values('A1:B1')).toEqual([['x', '#ERROR!']]);
  });

  it('arithmetic reads the decimal comma', () => {
    const { sheet } = setup('de_DE');
    sheet.getRange('A1').setValues([['=1,5*2']]);
    expect(sheet.getRange('A1').getValues()).toEqual([[3]]);
  });
});

describe.each(['en_GB', 'en_US'])('in %s, which writes decimals with a point', (locale) => {
  it('a link with , between its arguments works under either reading', () => {
    for (const semicolonArgumentsInEveryLocale of [false, true]) {
      const { sheet } = setup(locale, { semicolonArgumentsInEveryLocale });
      sheet.getRange('A1').setValues([['=HYPERLINK("u", "x")']]);
      expect(sheet.getRange('A1').getValues()).toEqual([['x']]);
    }
  });

  it('a link with ; between its arguments is a parse error under the stricter reading', () => {
    const { sheet, workbook } = setup(locale, { semicolonArgumentsInEveryLocale: false });
    sheet.getRange('A1').setValues([['=HYPERLINK("u"; "x")']]);
    expect(workbook.sheet('Sheet1').cells('A1')[0]![0]!.error).toEqual(PARSE_ERROR);
  });

  it('a link with ; between its arguments works under the looser reading', () => {
    const { sheet, workbook } = setup(locale, { semicolonArgumentsInEveryLocale: true });
    sheet.getRange('A1').setValues([['=HYPERLINK("u"; "x")']]);
    expect(sheet.getRange('A1').getValues()).toEqual([['x']]);
    expect(workbook.sheet('Sheet1').cells('A1')[0]![0]!.link).toBe('u');
  });
});

describe('a locale the emulator has no conventions for', () => {
  it('takes its decimal mark, and so its separator, from CLDR', () => {
    // it_IT writes 1,5; de_CH writes 1.5 although de_DE writes 1,5.
    const italian = setup('it_IT');
    italian.sheet.getRange('A1:B1').setValues([['=HYPERLINK("u"; "x")', '=HYPERLINK("u", "x")']]);
    expect(italian.sheet.getRange('A1:B1').getValues()).toEqual([['x', '#ERROR!']]);
    const swiss = setup('de_CH');
    swiss.sheet.getRange('A1:B1').setValues([['=HYPERLINK("u"; "x")', '=HYPERLINK("u", "x")']]);
    expect(swiss.sheet.getRange('A1:B1').getValues()).toEqual([['#ERROR!', 'x']]);
  });
});

describe('Spreadsheet.getSpreadsheetLocale', () => {
  it("answers the spreadsheet's locale, and setSpreadsheetLocale changes how formulas are read", () => {
    const { spreadsheet, sheet } = setup('de_DE');
    expect(spreadsheet.getSpreadsheetLocale()).toBe('de_DE');
    spreadsheet.setSpreadsheetLocale('en_US');
    expect(spreadsheet.getSpreadsheetLocale()).toBe('en_US');
    sheet.getRange('A1').setValues([['=HYPERLINK("u", "x")']]);
    expect(sheet.getRange('A1').getValues()).toEqual([['x']]);
  });
});
