/**
 * Dates and time zones, the classic source of off-by-one-day bugs. A cell holds a wall-clock serial;
 * the spreadsheet's zone converts it to and from instants. Zones as far apart as they get: Kiritimati
 * (UTC+14) and Pago Pago (UTC−11). No assertion depends on the machine's clock or zone.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function sheetIn(timeZone: string) {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ timeZone });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  return { ...service, spreadsheet, sheet: spreadsheet.getSheets()[0]! };
}

const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/London'];

describe.each(ZONES)('in %s', (timeZone) => {
  it('shows a date-only serial as the same day, whatever the zone', () => {
    const { sheet } = sheetIn(timeZone);
    const cell = sheet.getRange('A1').setNumberFormat('yyyy-mm-dd').setValue(45000);
    expect(cell.getDisplayValue()).toBe('2023-03-15');
    expect(cell.getNumberFormat()).toBe('yyyy-mm-dd');
  });

  it('reads a date cell back as a Date of the script realm, at midnight in the zone', () => {
    const { sheet, realm, spreadsheet } = sheetIn(timeZone);
    const cell = sheet.getRange('A1').setNumberFormat('yyyy-mm-dd').setValue(45000);
    const date = cell.getValue() as Date;
    expect(date).toBeInstanceOf(realm.Date);
    const shown = new Intl.DateTimeFormat('en-CA', {
      timeZone: spreadsheet.getSpreadsheetTimeZone(),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(date);
    expect(shown).toBe('2023-03-15, 00:00');
  });

  it('round-trips a Date instant exactly', () => {
    const { sheet } = sheetIn(timeZone);
    const instant = new Date(Date.UTC(2024, 5, 30, 23, 45, 12, 500));
    const cell = sheet.getRange('A1').setValue(instant);
    expect((cell.getValue() as Date).getTime()).toBe(instant.getTime());
  });
});

describe('writing a Date', () => {
  it('stores the wall-clock time of the zone, and shows it with a date-time format', () => {
    const instant = new Date(Date.UTC(2024, 0, 5, 12, 0, 0));
    const kiritimati = sheetIn('Pacific/Kiritimati').sheet.getRange('A1').setValue(instant);
    const pagoPago = sheetIn('Pacific/Pago_Pago').sheet.getRange('A1').setValue(instant);
    expect(kiritimati.getDisplayValue()).toBe('2024-01-06 02:00:00');
    expect(pagoPago.getDisplayValue()).toBe('2024-01-05 01:00:00');
    expect(kiritimati.getNumberFormat()).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('keeps an explicit format instead of applying a date format', () => {
    const { sheet } = sheetIn('Pacific/Kiritimati');
    const cell = sheet.getRange('A1').setNumberFormat('0.00');
    cell.setValue(new Date(Date.UTC(2023, 2, 14, 10)));
    expect(cell.getDisplayValue()).toBe('45000.00');
    expect(cell.getValue()).toBe(45000);
  });

  it('writes plain numbers as they are, and a date format keeps showing them as dates', () => {
    const { sheet } = sheetIn('Pacific/Pago_Pago');
    const cell = sheet.getRange('A1').setValue(new Date(Date.UTC(2024, 0, 5)));
    cell.setValue(45000.5);
    expect(cell.getDisplayValue()).toBe('2023-03-15 12:00:00');
  });

  it('keeps the serial when the zone changes: the same wall clock is another instant', () => {
    const { sheet, spreadsheet } = sheetIn('Pacific/Kiritimati');
    const cell = sheet.getRange('A1').setNumberFormat('yyyy-mm-dd').setValue(45000);
    const before = (cell.getValue() as Date).getTime();
    spreadsheet.setSpreadsheetTimeZone('Pacific/Pago_Pago');
    expect(cell.getDisplayValue()).toBe('2023-03-15');
    expect((cell.getValue() as Date).getTime() - before).toBe(25 * 3_600_000);
    expect(() => spreadsheet.setSpreadsheetTimeZone('Mars/Olympus')).toThrow('Invalid argument');
  });

  it('follows daylight saving time: the offset is the one at the instant', () => {
    const { sheet } = sheetIn('Europe/London');
    const range = sheet.getRange('A1:B1');
    range.setValues([[new Date(Date.UTC(2024, 0, 15, 12)), new Date(Date.UTC(2024, 6, 15, 12))]]);
    expect(range.getDisplayValues()).toEqual([['2024-01-15 12:00:00', '2024-07-15 13:00:00']]);
  });
});

describe('display formats', () => {
  const shown = (value: unknown, format: string): string => {
    const { sheet } = sheetIn('Europe/London');
    return sheet.getRange('A1').setNumberFormat(format).setValue(value).getDisplayValue();
  };

  it.each([
    [45000.75, 'yyyy-mm-dd', '2023-03-15'],
    [45000.75, 'yyyy-mm-dd hh:mm', '2023-03-15 18:00'],
    [45000.75, 'yyyy-mm-dd hh:mm:ss', '2023-03-15 18:00:00'],
    [45000.75, 'dd/mm/yyyy', '15/03/2023'],
    [45000.75, 'd mmm yyyy', '15 Mar 2023'],
    [45000.75, 'hh:mm', '18:00'],
    [45000.75, 'dddd d mmmm', 'Wednesday 15 March'],
    [45000.75, 'h:mm AM/PM', '6:00 PM'],
    [45000.5, 'M/d/yyyy H:mm:ss', '3/15/2023 12:00:00'],
    [1234.5678, '0', '1235'],
    [1234.5678, '0.00', '1234.57'],
    [1234567.891, '#,##0', '1,234,568'],
    [1234567.891, '#,##0.00', '1,234,567.89'],
    [-1234.5, '#,##0.00', '-1,234.50'],
    [-5, '0;(0)', '(5)'],
    [0.256, '0.0%', '25.6%'],
    [7, '"Day "0', 'Day 7'],
    [1.005, '0.00', '1.01'],
    [0.5, '#.##', '.5'],
  ])('shows %p under %j as %j', (value, format, expected) => {
    expect(shown(value, format)).toBe(expected);
  });

  it.each([
    [1234.5, '1234.5'],
    [1 / 3, '0.3333333333'],
    [0.1 + 0.2, '0.3'],
    [-0.5, '-0.5'],
    [1e21, '1E+21'],
    [true, 'TRUE'],
    [false, 'FALSE'],
  ])('shows %p under the automatic format as %j', (value, expected) => {
    expect(shown(value, '')).toBe(expected);
  });

  it('shows text as text and numbers automatically under @', () => {
    expect(shown('0012', '@')).toBe('0012');
    expect(shown(12.5, '@')).toBe('12.5');
  });

  it('reads a time-only format back as a Date too', () => {
    const { sheet, realm } = sheetIn('Pacific/Kiritimati');
    const cell = sheet.getRange('A1').setValue('10:30');
    expect(cell.getNumberFormat()).toBe('hh:mm');
    expect(cell.getDisplayValue()).toBe('10:30');
    expect(cell.getValue()).toBeInstanceOf(realm.Date);
  });
});
