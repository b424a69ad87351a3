import { runInNewContext } from 'node:vm';
import {
  addDays,
  addMonths,
  calendarDateAt,
  createdToEpochMs,
  daysBetween,
  epochMsToSheetSerial,
  fromDateNumber,
  fromIsoDate,
  fromSheetSerial,
  isoDayOfWeek,
  parseDateCell,
  parseUtcOffset,
  toDateNumber,
  toIsoDate,
  toSheetSerial,
} from '../../src/lib/dates';
import type { CalendarDate, DateCell, UtcOffsetAt } from '../../src/lib/dates';

function date(iso: string): CalendarDate {
  const parsed = fromIsoDate(iso);
  if (parsed === null) throw new Error(`test data: ${iso} is not a date`);
  return parsed;
}

const isoOrNull = (value: CalendarDate | null): string | null => (value === null ? null : toIsoDate(value));
const fixedOffset =
  (minutes: number): UtcOffsetAt =>
  () =>
    minutes;
const utc = fixedOffset(0);
const utcPlus14 = fixedOffset(14 * 60);
const utcMinus11 = fixedOffset(-11 * 60);

/** A DateCell as a user would read it: the ISO date, 'empty', or the quoted junk. */
function shown(cell: DateCell): string {
  if (cell.kind === 'date') return toIsoDate(cell.date);
  return cell.kind === 'empty' ? 'empty' : `not a date: ${cell.text}`;
}

describe('date numbers (YYYYMMDD)', () => {
  test.each([
    [20240229, '2024-02-29'],
    [20230229, null],
    [20241301, null],
    [20240100, null],
    [20240431, null],
    [20240430, '2024-04-30'],
    [20000229, '2000-02-29'],
    [19000229, null],
    [10000101, '1000-01-01'],
    [99991231, '9999-12-31'],
    [2024022, null],
    [202402290, null],
    [20240229.5, null],
    [-20240229, null],
    ['20240229', null],
    [undefined, null],
    [null, null],
  ])('%p → %p', (value, expected) => {
    expect(isoOrNull(fromDateNumber(value))).toBe(expected);
  });

  test.each([20240229, 19991231, 20000101, 99991231])('%p round-trips', (dateNumber) => {
    const parsed = fromDateNumber(dateNumber);
    expect(parsed).not.toBeNull();
    expect(toDateNumber(parsed as CalendarDate)).toBe(dateNumber);
  });
});

describe('ISO dates', () => {
  test.each([
    ['2024-02-29', '2024-02-29'],
    [' 2024-02-29 ', '2024-02-29'],
    ['2023-02-29', null],
    ['2024-13-01', null],
    ['2024-2-29', null],
    ['2024-02-29T00:00:00Z', null],
    ['29/02/2024', null],
    ['', null],
  ])('%p → %p', (text, expected) => {
    expect(isoOrNull(fromIsoDate(text))).toBe(expected);
  });

  test('agrees with the JavaScript Date for every 97th day from 1600 to 2400', () => {
    for (let days = -135_000; days <= 157_000; days += 97) {
      const expected = new Date(days * 86_400_000).toISOString().slice(0, 10);
      expect(toIsoDate(days as CalendarDate)).toBe(expected);
      expect(fromIsoDate(expected)).toBe(days);
    }
  });
});

describe('arithmetic', () => {
  test.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2023-12-31', 1, '2024-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-01-01', 366, '2025-01-01'],
  ])('addDays(%s, %i) = %s', (start, days, expected) => {
    expect(toIsoDate(addDays(date(start), days))).toBe(expected);
  });

  test.each([
    ['2024-01-31', 1, '2024-02-29'],
    ['2023-01-31', 1, '2023-02-28'],
    ['2024-01-31', 2, '2024-03-31'],
    ['2024-03-31', 1, '2024-04-30'],
    ['2024-01-30', 1, '2024-02-29'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2024-02-29', 48, '2028-02-29'],
    ['2024-12-15', 1, '2025-01-15'],
    ['2024-01-15', -1, '2023-12-15'],
    ['2024-03-31', -1, '2024-02-29'],
  ])('addMonths(%s, %i) = %s', (start, months, expected) => {
    expect(toIsoDate(addMonths(date(start), months))).toBe(expected);
  });

  test.each([
    ['2024-01-01', '2025-01-01', 366],
    ['2023-01-01', '2024-01-01', 365],
    ['2024-03-10', '2024-03-09', -1],
    ['2024-03-10', '2024-03-10', 0],
  ])('daysBetween(%s, %s) = %i', (from, to, expected) => {
    expect(daysBetween(date(from), date(to))).toBe(expected);
  });

  test.each([
    ['1970-01-01', 4],
    ['1969-12-29', 1],
    ['2024-02-29', 4],
    ['2024-03-03', 7],
    ['2024-03-04', 1],
    ['1899-12-30', 6],
  ])('%s is ISO weekday %i', (iso, weekday) => {
    expect(isoDayOfWeek(date(iso))).toBe(weekday);
  });
});

describe('created timestamps: above 10^11 milliseconds, else seconds', () => {
  test.each([
    [1_700_000_000, '2023-11-14T22:13:20.000Z'],
    [1_700_000_000_000, '2023-11-14T22:13:20.000Z'],
    [1_700_000_000_123, '2023-11-14T22:13:20.123Z'],
    [100_000_000_000, '5138-11-16T09:46:40.000Z'],
    [100_000_000_001, '1973-03-03T09:46:40.001Z'],
    [0, '1970-01-01T00:00:00.000Z'],
  ])('%p → %s', (created, expected) => {
    expect(new Date(createdToEpochMs(created)).toISOString()).toBe(expected);
  });
});

describe('sheet serials (days since 1899-12-30)', () => {
  test.each([
    ['1899-12-30', 0],
    ['1899-12-31', 1],
    ['1970-01-01', 25_569],
    ['2024-02-29', 45_351],
    ['9999-12-31', 2_958_465],
  ])('%s ⇄ %i', (iso, serial) => {
    expect(toSheetSerial(date(iso))).toBe(serial);
    expect(isoOrNull(fromSheetSerial(serial))).toBe(iso);
  });

  test.each([
    [45_351.999, '2024-02-29'],
    [-0.5, '1899-12-29'],
    [2_958_466, null],
    [-700_000, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])('fromSheetSerial(%p) = %p', (serial, expected) => {
    expect(isoOrNull(fromSheetSerial(serial))).toBe(expected);
  });

  test('a date-only value is the same serial whatever the zone: no offset takes part', () => {
    const completion = fromDateNumber(20240229) as CalendarDate;
    expect(toSheetSerial(completion)).toBe(45_351);
    const sameDayReadInUtcPlus14 = parseDateCell(45_351, utcPlus14);
    const sameDayReadInUtcMinus11 = parseDateCell(45_351, utcMinus11);
    expect(shown(sameDayReadInUtcPlus14)).toBe('2024-02-29');
    expect(shown(sameDayReadInUtcMinus11)).toBe('2024-02-29');
  });
});

describe('instants in the spreadsheet zone', () => {
  const noonUtcOn10March = Date.UTC(2024, 2, 10, 12, 0);

  test.each([
    ['UTC+14', utcPlus14, '2024-03-11'],
    ['UTC', utc, '2024-03-10'],
    ['UTC−11', utcMinus11, '2024-03-10'],
  ])('today at 2024-03-10T12:00Z in %s is %s', (_zone, offsetAt, expected) => {
    expect(toIsoDate(calendarDateAt(noonUtcOn10March, offsetAt))).toBe(expected);
  });

  test.each([
    [Date.UTC(2024, 2, 10, 9, 59, 59, 999), '2024-03-10'],
    [Date.UTC(2024, 2, 10, 10, 0), '2024-03-11'],
  ])('in UTC+14 the day changes at 10:00Z (%p → %s)', (epochMs, expected) => {
    expect(toIsoDate(calendarDateAt(epochMs, utcPlus14))).toBe(expected);
  });

  test.each([
    ['UTC', utc, Date.UTC(2024, 1, 29, 12), 45_351.5],
    ['UTC+14', utcPlus14, Date.UTC(2024, 1, 29, 12), 45_352 + 2 / 24],
    ['UTC−11', utcMinus11, Date.UTC(2024, 1, 29, 12), 45_351 + 1 / 24],
  ])('created date-time in %s', (_zone, offsetAt, epochMs, serial) => {
    expect(epochMsToSheetSerial(epochMs, offsetAt)).toBeCloseTo(serial, 9);
  });

  test('daylight saving time: each instant uses the offset in force at that instant', () => {
    // Europe/Berlin switches from +01:00 to +02:00 at 2024-03-31T01:00Z.
    const berlin: UtcOffsetAt = (epochMs) => (epochMs < Date.UTC(2024, 2, 31, 1) ? 60 : 120);
    const serialOf31March = 45_382;
    expect(epochMsToSheetSerial(Date.UTC(2024, 2, 31, 0, 30), berlin)).toBeCloseTo(
      serialOf31March + 1.5 / 24,
      9,
    );
    expect(epochMsToSheetSerial(Date.UTC(2024, 2, 31, 1, 30), berlin)).toBeCloseTo(
      serialOf31March + 3.5 / 24,
      9,
    );
  });

  test.each([
    ['+0530', 330],
    ['-1100', -660],
    ['+1400', 840],
    ['+05:30', 330],
    ['+0000', 0],
    ['Z', 0],
    ['0530', null],
    ['GMT+1', null],
    ['', null],
  ])('parseUtcOffset(%p) = %p', (text, expected) => {
    expect(parseUtcOffset(text)).toBe(expected);
  });
});

describe('user-entered date cells ("Last inspected")', () => {
  test.each<[string, unknown, string]>([
    ['an empty cell', '', 'empty'],
    ['blanks', '   ', 'empty'],
    ['null', null, 'empty'],
    ['undefined', undefined, 'empty'],
    ['a serial', 45_351, '2024-02-29'],
    ['a date-time serial', 45_351.75, '2024-02-29'],
    ['an ISO string', '2024-02-29', '2024-02-29'],
    ['an ISO string with blanks', ' 2024-02-29 ', '2024-02-29'],
    ['words', 'last week', 'not a date: "last week"'],
    ['an unreal ISO date', '2023-02-29', 'not a date: "2023-02-29"'],
    ['a local date format', '29/02/2024', 'not a date: "29/02/2024"'],
    ['a boolean', true, 'not a date: true'],
    ['NaN', Number.NaN, 'not a date: NaN'],
    ['a serial beyond 9999', 3e6, 'not a date: 3000000'],
    ['an invalid Date', new Date(Number.NaN), 'not a date: Invalid Date'],
    ['a range', [[45_351]], 'not a date: a list of values'],
    ['an object', { date: '2024-02-29' }, 'not a date: an object'],
    ['an object without prototype', Object.create(null), 'not a date: an object'],
  ])('%s → %s', (_description, value, expected) => {
    expect(shown(parseDateCell(value, utc))).toBe(expected);
  });

  test('a long text is cut for the message', () => {
    const cell = parseDateCell('x'.repeat(100), utc);
    expect(cell).toEqual({ kind: 'notADate', text: `"${'x'.repeat(40)}"` });
  });

  test.each([
    // getValues returns a date cell as midnight in the spreadsheet zone.
    ['UTC+14', utcPlus14, Date.UTC(2024, 1, 28, 10)],
    ['UTC', utc, Date.UTC(2024, 1, 29)],
    ['UTC−11', utcMinus11, Date.UTC(2024, 1, 29, 11)],
  ])('a Date at midnight of 2024-02-29 in %s reads as 2024-02-29', (_zone, offsetAt, epochMs) => {
    expect(shown(parseDateCell(new Date(epochMs), offsetAt))).toBe('2024-02-29');
  });

  test('a Date made in another realm (the emulator) still counts as a date', () => {
    const foreignDate: unknown = runInNewContext(`new Date(${Date.UTC(2024, 1, 29)})`);
    expect(foreignDate instanceof Date).toBe(false);
    expect(shown(parseDateCell(foreignDate, utc))).toBe('2024-02-29');
  });
});
