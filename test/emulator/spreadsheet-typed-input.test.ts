/**
 * What a user typing (or a script's setValues) into an automatic cell gets, per spreadsheet locale:
 * numbers with the locale's decimal mark and separators, currencies, percentages, dates and times in
 * the locale's forms, booleans; each with the number format Sheets gives it. The emulator parses at
 * least as eagerly as Sheets, so that an add-on that writes text carelessly loses it here too.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

/** A date serial (days since 1899-12-30, time as the fraction), as Sheets stores it. */
function serial(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  return (Date.UTC(year, month - 1, day, hours, minutes, seconds) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** 2031-06-15 at noon, UTC: the emulated "now" of these tests, far from any date typed with a year. */
const NOW = Date.UTC(2031, 5, 15, 12);

/** What typing `input` into A1 of a spreadsheet in `locale` stores: its number (or text) and format. */
function typed(locale: string, input: string): { value: unknown; format: string } {
  const service = createTestSpreadsheetService();
  service.nowMs = NOW;
  const id = service.workbooks.create({ locale, timeZone: 'UTC' });
  const view = service.workbooks.get(id)!;
  view.typeValues('Sheet1!A1', [[input]]);
  const sheet = view.sheet('Sheet1');
  const format = sheet.numberFormats('A1')[0]![0]!;
  // The stored number itself, whatever format shows it.
  sheet.setNumberFormat('A1', '0.###############');
  return { value: sheet.values('A1')[0]![0], format };
}

const AUTOMATIC = '0.###############';

describe.each([
  ['en_US', '1,234.5', 1234.5],
  ['en_GB', '1,234.5', 1234.5],
  ['de_DE', '1.234,5', 1234.5],
  ['de_DE', '1234,5', 1234.5],
  ['de_DE', ',5', 0.5],
  ['fr_FR', '1 234,5', 1234.5],
  ['fr_FR', '1\u00a0234,5', 1234.5],
  ['fr_FR', '1\u202f234,5', 1234.5],
  ['en_GB', '22 34', 2234],
  ['en_GB', '1.5e3', 1500],
  ['de_DE', '1,5E3', 1500],
  ['en_GB', '-5', -5],
  ['en_GB', '(5)', -5],
  ['de_DE', '(1.234,5)', -1234.5],
  ['en_GB', '+7', 7],
])('numbers in %s', (locale, input, expected) => {
  it(`${JSON.stringify(input)} is ${expected}`, () => {
    expect(typed(locale, input).value).toBe(expected);
  });
});

describe.each([
  ['en_US', '1,23'],
  ['en_US', '1.234,5'],
  ['de_DE', '1,234.5'],
  ['fr_FR', '1.234,5'],
  ['en_GB', '12abc'],
  ['en_GB', '$'],
  ['en_GB', '5 %%'],
])('text in %s', (locale, input) => {
  it(`${JSON.stringify(input)} stays text`, () => {
    expect(typed(locale, input)).toEqual({ value: input, format: AUTOMATIC });
  });
});

describe('currencies get a currency format', () => {
  it.each([
    ['en_US', '$1,234.50', 1234.5, '"$"#,##0.00'],
    ['en_US', '-$5', -5, '"$"#,##0.00'],
    ['en_US', '$-5', -5, '"$"#,##0.00'],
    ['en_US', '($5)', -5, '"$"#,##0.00'],
    ['en_GB', '£5', 5, '"£"#,##0.00'],
    ['en_GB', '€5', 5, '"€"#,##0.00'],
    ['de_DE', '5 €', 5, '#,##0.00 "€"'],
    ['de_DE', '1.234,50 €', 1234.5, '#,##0.00 "€"'],
    ['fr_FR', '1 234,50 €', 1234.5, '#,##0.00 "€"'],
  ])('%s: %j is %p under %s', (locale, input, value, format) => {
    expect(typed(locale, input)).toEqual({ value, format });
  });
});

describe('percentages get a percent format', () => {
  it.each([
    ['en_GB', '7%', 0.07, '0%'],
    ['en_GB', '12.5%', 0.125, '0.00%'],
    ['de_DE', '7,5 %', 0.075, '0.00%'],
    ['fr_FR', '7,5\u00a0%', 0.075, '0.00%'],
    ['en_GB', '-7%', -0.07, '0%'],
  ])('%s: %j is %p under %s', (locale, input, value, format) => {
    expect(typed(locale, input)).toEqual({ value, format });
  });
});

describe('dates and times get a date or time format', () => {
  it.each([
    ['en_US', '2024-01-02', serial(2024, 1, 2), 'yyyy-mm-dd'],
    ['de_DE', '2024-01-02', serial(2024, 1, 2), 'yyyy-mm-dd'],
    ['en_US', '1/2/2024', serial(2024, 1, 2), 'm/d/yyyy'],
    ['en_US', '1-2-24', serial(2024, 1, 2), 'm/d/yyyy'],
    ['en_GB', '1/2/2024', serial(2024, 2, 1), 'dd/mm/yyyy'],
    ['en_GB', '01-02-2024', serial(2024, 2, 1), 'dd/mm/yyyy'],
    ['de_DE', '1.2.2024', serial(2024, 2, 1), 'dd.mm.yyyy'],
    ['de_DE', '01.02.99', serial(1999, 2, 1), 'dd.mm.yyyy'],
    ['fr_FR', '01/02/2024', serial(2024, 2, 1), 'dd/mm/yyyy'],
    ['en_GB', '2 Jan 2024', serial(2024, 1, 2), 'd mmm yyyy'],
    ['en_US', 'Jan 2, 2024', serial(2024, 1, 2), 'mmm d, yyyy'],
    ['en_US', 'January 2 2024', serial(2024, 1, 2), 'mmm d, yyyy'],
    ['de_DE', '2. Januar 2024', serial(2024, 1, 2), 'd mmm yyyy'],
    ['fr_FR', '2 févr. 2024', serial(2024, 2, 2), 'd mmm yyyy'],
    ['en_GB', '12:30', serial(1899, 12, 30, 12, 30), 'hh:mm'],
    ['en_GB', '12:30:15', serial(1899, 12, 30, 12, 30, 15), 'hh:mm:ss'],
    ['en_US', '1:30 PM', serial(1899, 12, 30, 13, 30), 'h:mm AM/PM'],
    ['en_US', '12:05 am', serial(1899, 12, 30, 0, 5), 'h:mm AM/PM'],
    ['en_GB', '2024-01-02 10:00', serial(2024, 1, 2, 10), 'yyyy-mm-dd hh:mm'],
    ['en_GB', '2024-01-02T10:00:05', serial(2024, 1, 2, 10, 0, 5), 'yyyy-mm-dd hh:mm:ss'],
    ['en_US', '1/2/2024 1:30 PM', serial(2024, 1, 2, 13, 30), 'm/d/yyyy h:mm AM/PM'],
    ['de_DE', '1.2.2024 13:30', serial(2024, 2, 1, 13, 30), 'dd.mm.yyyy hh:mm'],
    ['en_US', 'Jan 2024', serial(2024, 1, 1), 'mmm yyyy'],
  ])('%s: %j is serial %p under %s', (locale, input, value, format) => {
    const result = typed(locale, input);
    expect(result.format).toBe(format);
    expect(result.value).toBeCloseTo(value, 8);
  });

  it.each([
    ['en_US', '1/2', serial(2031, 1, 2), 'm/d/yyyy'],
    ['en_GB', '1/2', serial(2031, 2, 1), 'dd/mm/yyyy'],
    ['en_GB', '3-4', serial(2031, 4, 3), 'dd/mm/yyyy'],
    ['de_DE', '1.5', serial(2031, 5, 1), 'dd.mm.yyyy'],
    ['de_DE', '1.5.', serial(2031, 5, 1), 'dd.mm.yyyy'],
    ['en_GB', '2 Jan', serial(2031, 1, 2), 'd mmm yyyy'],
    ['en_US', 'Jan 2', serial(2031, 1, 2), 'mmm d, yyyy'],
  ])('%s: %j, without a year, is in the current year: serial %p under %s', (locale, input, value, format) => {
    expect(typed(locale, input)).toEqual({ value, format });
  });

  it.each([
    ['en_GB', '31/02/2024'],
    ['en_GB', '1.2.3'],
    ['de_DE', '12.13'],
    ['en_US', '13/1/2024'],
    ['en_GB', '25:00 PM'],
    ['en_GB', '2 Foo 2024'],
  ])('%s: %j is no date and stays text', (locale, input) => {
    expect(typed(locale, input)).toEqual({ value: input, format: AUTOMATIC });
  });
});

describe('booleans', () => {
  it.each([
    ['en_GB', 'true', true],
    ['de_DE', 'WAHR', true],
    ['de_DE', 'falsch', false],
    ['fr_FR', 'Vrai', true],
    ['fr_FR', 'FALSE', false],
  ])('%s: %j is %p', (locale, input, value) => {
    expect(typed(locale, input).value).toBe(value);
  });

  it('are words of their locale only', () => {
    expect(typed('en_GB', 'WAHR').value).toBe('WAHR');
  });
});
