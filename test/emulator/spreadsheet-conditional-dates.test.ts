/**
 * Conditional format rules on dates (whenDateBefore, whenDateAfter with an exact date), as the
 * Training matrix colours its cells with them: the date is the calendar day it falls on in the
 * spreadsheet's time zone, and only date cells (getValues returns a Date) are compared, by calendar
 * day; text, numbers, booleans, blanks and errors never match.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import { displayedBackgrounds } from '../support/displayed-formats';

/** Auckland is 13 hours ahead of UTC in March: its calendar day is not UTC's for half the day. */
const ZONE = 'Pacific/Auckland';
const RED = '#f4cccc';
const GREEN = '#d9ead3';

function setup() {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'Dates', timeZone: ZONE });
  service.context.activeSpreadsheetId = id;
  const sheet = service.SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]!;
  return { ...service, sheet, view: () => service.workbooks.get(id)!.sheet('Sheet1') };
}

/** 2024-03-01 as a sheet serial. */
const MARCH_1 = 45_352;

describe('date conditions of conditional format rules', () => {
  it('compare date cells by calendar day in the spreadsheet time zone; other cells never match', () => {
    const { sheet, SpreadsheetApp, view } = setup();
    sheet.getRange('A1:A4').setNumberFormat('yyyy-mm-dd');
    sheet.getRange('A5').setNumberFormat('yyyy-mm-dd hh:mm');
    sheet.getRange('A6').setNumberFormat('@');
    sheet
      .getRange('A1:A9')
      .setValues([
        [MARCH_1],
        [MARCH_1 + 1],
        [MARCH_1 + 2],
        [''],
        [MARCH_1 + 1 + 23 / 24],
        ['2024-03-01'],
        [MARCH_1],
        [true],
        ['=1/0'],
      ]);
    // 1 March 12:00 UTC is 2 March 01:00 in Auckland: the rules' day is 2 March there.
    const day = new Date(Date.UTC(2024, 2, 1, 12));
    const cells = sheet.getRange('A1:A9');
    sheet.setConditionalFormatRules([
      SpreadsheetApp.newConditionalFormatRule()
        .whenDateBefore(day)
        .setBackground(RED)
        .setRanges([cells])
        .build(),
      SpreadsheetApp.newConditionalFormatRule()
        .whenDateAfter(day)
        .setBackground(GREEN)
        .setRanges([cells])
        .build(),
    ]);
    expect(view().displayValues('A1:A9').flat()).toEqual([
      '2024-03-01',
      '2024-03-02',
      '2024-03-03',
      '',
      '2024-03-02 23:00',
      '2024-03-01',
      String(MARCH_1),
      'TRUE',
      '#DIV/0!',
    ]);
    // Before 2 March, 2 March itself (whatever the time), after it; then the text, the plain
    // number, the boolean, the blank and the error, none of them a date.
    expect(displayedBackgrounds(view(), 'A1:A9').flat()).toEqual([
      RED,
      null,
      GREEN,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('read back as DATE_BEFORE and DATE_AFTER with the Date given, and rebuild the same', () => {
    const { sheet, SpreadsheetApp, view } = setup();
    const day = new Date(Date.UTC(2024, 2, 1, 12));
    const before = SpreadsheetApp.newConditionalFormatRule()
      .whenDateBefore(day)
      .setBackground(RED)
      .setRanges([sheet.getRange('B2:B10')])
      .build();
    const after = before.copy().whenDateAfter(day).build();
    sheet.setConditionalFormatRules([before, after]);
    const read = sheet.getConditionalFormatRules();
    const conditions = read.map((rule) => rule.getBooleanCondition()!);
    expect(conditions.map((condition) => condition.getCriteriaType())).toEqual([
      SpreadsheetApp.BooleanCriteria.DATE_BEFORE,
      SpreadsheetApp.BooleanCriteria.DATE_AFTER,
    ]);
    const [value] = conditions[0]!.getCriteriaValues() as Date[];
    expect(Object.prototype.toString.call(value)).toBe('[object Date]');
    expect(value!.getTime()).toBe(day.getTime());
    sheet.setConditionalFormatRules(read);
    expect(
      view()
        .conditionalRules()
        .map((rule) => rule.type),
    ).toEqual(['DATE_BEFORE', 'DATE_AFTER']);
  });

  it.each([
    ['a string', '2024-03-01'],
    ['a number', MARCH_1],
    ['null', null],
    ['an invalid Date', new Date(Number.NaN)],
  ])('refuse %s where a Date is expected', (_, argument) => {
    const { SpreadsheetApp } = setup();
    const builder = SpreadsheetApp.newConditionalFormatRule();
    expect(() => builder.whenDateBefore(argument as Date)).toThrow(
      "don't match the method signature for SpreadsheetApp.ConditionalFormatRuleBuilder.whenDateBefore",
    );
    expect(() => builder.whenDateAfter(argument as Date)).toThrow(
      "don't match the method signature for SpreadsheetApp.ConditionalFormatRuleBuilder.whenDateAfter",
    );
  });
});
