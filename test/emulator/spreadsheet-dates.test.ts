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
  const sheet = spreadsheet.getSheets()[0]!;
  /** Writes A1 as a script would, under `format` when one is given. */
  const writeA1 = (value: unknown, format?: string): void => {
    if (format !== undefined) sheet.getRange('A1').setNumberFormats([[format]]);
    sheet.getRange('A1').setValues([[value]]);
  };
  /** A1 as the script reads it (value) and as the user sees it (display, number format). */
  const readA1 = () => {
    const { display, numberFormat } = service.workbooks.get(id)!.sheet('Sheet1').cells('A1')[0]![0]!;
    return { value: sheet.getRange('A1').getValues()[0]![0], display, numberFormat };
  };
  return { ...service, spreadsheet, sheet, writeA1, readA1 };
}

const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/London'];

describe.each(ZONES)('in %s', (timeZone) => {
  it('shows a date-only serial as the same day, whatever the zone', () => {
    const { writeA1, readA1 } = sheetIn(timeZone);
    writeA1(45000, 'yyyy-mm-dd');
    expect(readA1()).toMatchObject({ display: '2023-03-15', numberFormat: 'yyyy-mm-dd' });
  });

  it('reads a date cell back as a Date of the script realm, at midnight in the zone', () => {
    const { writeA1, readA1, realm, spreadsheet } = sheetIn(timeZone);
    writeA1(45000, 'yyyy-mm-dd');
    const date = readA1().value as Date;
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
    const { writeA1, readA1 } = sheetIn(timeZone);
    const instant = new Date(Date.UTC(2024, 5, 30, 23, 45, 12, 500));
    writeA1(instant);
    expect((readA1().value as Date).getTime()).toBe(instant.getTime());
  });
});

describe('writing a Date', () => {
  it('stores the wall-clock time of the zone, and shows it with a date-time format', () => {
    const instant = new Date(Date.UTC(2024, 0, 5, 12, 0, 0));
    const kiritimati = sheetIn('Pacific/Kiritimati');
    const pagoPago = sheetIn('Pacific/Pago_Pago');
    kiritimati.writeA1(instant);
    pagoPago.writeA1(instant);
    expect(kiritimati.readA1()).toMatchObject({
      display: '2024-01-06 02:00:00',
      numberFormat: 'yyyy-mm-dd hh:mm:ss',
    });
    expect(pagoPago.readA1().display).toBe('2024-01-05 01:00:00');
  });

  it('keeps an explicit format instead of applying a date format', () => {
    const { writeA1, readA1 } = sheetIn('Pacific/Kiritimati');
    writeA1(new Date(Date.UTC(2023, 2, 14, 10)), '0.00');
    expect(readA1()).toMatchObject({ display: '45000.00', value: 45000 });
  });

  it('writes plain numbers as they are, and a date format keeps showing them as dates', () => {
    const { writeA1, readA1 } = sheetIn('Pacific/Pago_Pago');
    writeA1(new Date(Date.UTC(2024, 0, 5)));
    writeA1(45000.5);
    expect(readA1().display).toBe('2023-03-15 12:00:00');
  });

  it('follows daylight saving time: the offset is the one at the instant', () => {
    const { sheet, workbooks, spreadsheet } = sheetIn('Europe/London');
    sheet
      .getRange('A1:B1')
      .setValues([[new Date(Date.UTC(2024, 0, 15, 12)), new Date(Date.UTC(2024, 6, 15, 12))]]);
    expect(workbooks.get(spreadsheet.getId())!.sheet('Sheet1').displayValues('A1:B1')).toEqual([
      ['2024-01-15 12:00:00', '2024-07-15 13:00:00'],
    ]);
  });
});

describe('display formats', () => {
  const shown = (value: unknown, format: string): string => {
    const { writeA1, readA1 } = sheetIn('Europe/London');
    writeA1(value, format);
    return readA1().display;
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
    const { writeA1, readA1, realm } = sheetIn('Pacific/Kiritimati');
    writeA1('10:30');
    expect(readA1()).toMatchObject({ numberFormat: 'hh:mm', display: '10:30' });
    expect(readA1().value).toBeInstanceOf(realm.Date);
  });
});
