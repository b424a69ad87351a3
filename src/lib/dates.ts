/**
 * Calendar dates without a time of day, and the few places where an instant becomes one.
 *
 * A CalendarDate is the number of days since 1970-01-01 in the proleptic Gregorian calendar. It carries
 * no time zone, so nothing can shift it by a day: arithmetic is integer arithmetic and `<` compares.
 * Time zones enter only where an instant (a `created` timestamp, "now", a Date read from a cell) is
 * turned into a day or a date-time cell; there the caller injects the spreadsheet's UTC offset *at that
 * instant* (a function, because daylight saving time makes the offset depend on the instant).
 *
 * Google Sheets stores a date cell as a serial number: days since 1899-12-30, the fraction being the
 * time of day in the spreadsheet's zone. An integer serial is therefore a date-only value that no zone
 * can move, which is how date numbers (YYYYMMDD) are written.
 */

declare const calendarDateBrand: unique symbol;
/** Days since 1970-01-01; branded so that a sheet serial or a day count cannot be passed by mistake. */
export type CalendarDate = number & { readonly [calendarDateBrand]: true };

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** Minutes east of UTC of the spreadsheet's time zone at the given instant (UTC+05:30 → 330). */
export type UtcOffsetAt = (epochMs: number) => number;

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
const SHEET_SERIAL_OF_1970_01_01 = 25_569;
/** `created` values above this are milliseconds; below it, seconds (10^11 s is the year 5138). */
const CREATED_MILLISECONDS_THRESHOLD = 1e11;
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

// Howard Hinnant's days_from_civil / civil_from_days: exact for every year, no Date object (whose
// Date.UTC maps years 0–99 to 1900–1999) and no time zone involved.
function daysFromCivil(year: number, month: number, day: number): number {
  const marchBasedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchBasedYear / 400);
  const yearOfEra = marchBasedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function toParts(date: CalendarDate): DateParts {
  const shifted = date + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchBasedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchBasedMonth + 2) / 5) + 1;
  const month = marchBasedMonth < 10 ? marchBasedMonth + 3 : marchBasedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The date, or null unless year (1–9999), month and day form a real calendar date. */
export function dateFromParts(year: number, month: number, day: number): CalendarDate | null {
  const isRealDate =
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= MIN_YEAR &&
    year <= MAX_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month);
  return isRealDate ? (daysFromCivil(year, month, day) as CalendarDate) : null;
}

/** A date number YYYYMMDD as the service sends it; null for anything that is not a real date. */
export function fromDateNumber(value: unknown): CalendarDate | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 10_000_101 || value > 99_991_231) {
    return null;
  }
  return dateFromParts(Math.floor(value / 10_000), Math.floor(value / 100) % 100, value % 100);
}

export function toDateNumber(date: CalendarDate): number {
  const { year, month, day } = toParts(date);
  return year * 10_000 + month * 100 + day;
}

/** Strictly 'YYYY-MM-DD' (surrounding spaces allowed); null for anything else or an unreal date. */
export function fromIsoDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  return dateFromParts(Number(match[1]), Number(match[2]), Number(match[3]));
}

export function toIsoDate(date: CalendarDate): string {
  const { year, month, day } = toParts(date);
  const twoDigits = (value: number): string => String(value).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return (date + days) as CalendarDate;
}

/**
 * The same day of month `months` months later; a day the target month lacks becomes its last day
 * (Jan 31 + 1 month → Feb 28 or 29). Clamping is not sticky: always count from the original date.
 */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const { year, month, day } = toParts(date);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth));
  return daysFromCivil(targetYear, targetMonth, targetDay) as CalendarDate;
}

/** Whole days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return to - from;
}

/** ISO 8601 weekday: 1 = Monday … 7 = Sunday. */
export function isoDayOfWeek(date: CalendarDate): number {
  const thursday = 3; // 1970-01-01 was a Thursday: index 3 counting Monday as 0
  return ((((date + thursday) % 7) + 7) % 7) + 1;
}

/** The calendar day of an instant in the spreadsheet's zone, e.g. "today" from the current time. */
export function calendarDateAt(epochMs: number, utcOffsetAt: UtcOffsetAt): CalendarDate {
  return Math.floor((epochMs + utcOffsetAt(epochMs) * MS_PER_MINUTE) / MS_PER_DAY) as CalendarDate;
}

/** The instant a day starts in the spreadsheet's time zone. */
export function midnightOf(date: CalendarDate, utcOffsetAt: UtcOffsetAt): Date {
  const wallClockMs = date * MS_PER_DAY;
  // The offset that applies at local midnight: found from the offset at UTC midnight, then checked
  // at the instant that gives (they differ only on a day the zone changes its offset).
  const firstGuess = wallClockMs - utcOffsetAt(wallClockMs) * MS_PER_MINUTE;
  const midnight = wallClockMs - utcOffsetAt(firstGuess) * MS_PER_MINUTE;
  // Where clocks move forward at midnight (America/Santiago, Asunción, Havana) the day has no
  // midnight and one of the two instants falls on the day before: the day starts at the other.
  const localDay = (instantMs: number) =>
    Math.floor((instantMs + utcOffsetAt(instantMs) * MS_PER_MINUTE) / MS_PER_DAY);
  const onTheDay = [midnight, firstGuess].filter((instantMs) => localDay(instantMs) === date);
  return new Date(onTheDay.length > 0 ? Math.min(...onTheDay) : midnight);
}

/** The one place that decides the unit of `created`: above 10^11 it is milliseconds, else seconds. */
export function createdToEpochMs(created: number): number {
  return created > CREATED_MILLISECONDS_THRESHOLD ? created : created * 1000;
}

/** A date-only cell value: an integer serial, which no spreadsheet or script time zone can shift. */
export function toSheetSerial(date: CalendarDate): number {
  return date + SHEET_SERIAL_OF_1970_01_01;
}

/** The day of a sheet serial (its time of day is dropped); null when not a finite date of years 1–9999. */
export function fromSheetSerial(serial: number): CalendarDate | null {
  if (!Number.isFinite(serial)) return null;
  const date = (Math.floor(serial) - SHEET_SERIAL_OF_1970_01_01) as CalendarDate;
  const { year } = toParts(date);
  return year >= MIN_YEAR && year <= MAX_YEAR ? date : null;
}

/** A date-time cell value showing the instant's wall-clock time in the spreadsheet's zone. */
export function epochMsToSheetSerial(epochMs: number, utcOffsetAt: UtcOffsetAt): number {
  return (epochMs + utcOffsetAt(epochMs) * MS_PER_MINUTE) / MS_PER_DAY + SHEET_SERIAL_OF_1970_01_01;
}

/**
 * Minutes east of UTC from an offset as Apps Script's `Utilities.formatDate(date, zone, 'Z')` writes
 * it ('+0530', '-1100'); also '+05:30' and 'Z'. Null for anything else.
 */
export function parseUtcOffset(text: string): number | null {
  if (text === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** A user-entered date cell, read with getValues: a date, nothing, or something that is not a date. */
export type DateCell =
  | { kind: 'date'; date: CalendarDate }
  | { kind: 'empty' }
  /** `text` quotes the value for a message: '"abc"', 'true', 'Invalid Date', 'a list of values'. */
  | { kind: 'notADate'; text: string };

const NOT_A_DATE_TEXT_LENGTH = 40;

// Not `instanceof Date`: a Date made in another realm (the emulator's vm context) must count too.
export function isDateObject(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function notADate(value: unknown): DateCell {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value.slice(0, NOT_A_DATE_TEXT_LENGTH));
  else if (Array.isArray(value)) text = 'a list of values';
  else if (typeof value === 'object' && value !== null && !isDateObject(value)) text = 'an object';
  else text = String(value);
  return { kind: 'notADate', text };
}

/**
 * Reads a cell a user types dates into. getValues gives a Date for a date-formatted cell (midnight in
 * the spreadsheet's zone, hence the offset), a number for a serial in a number-formatted cell, a string
 * for text ('YYYY-MM-DD' accepted) and '' for an empty cell. Never throws.
 */
export function parseDateCell(value: unknown, utcOffsetAt: UtcOffsetAt): DateCell {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (typeof value === 'string') {
    if (value.trim() === '') return { kind: 'empty' };
    const date = fromIsoDate(value);
    return date === null ? notADate(value) : { kind: 'date', date };
  }
  if (typeof value === 'number') {
    const date = fromSheetSerial(value);
    return date === null ? notADate(value) : { kind: 'date', date };
  }
  if (isDateObject(value)) {
    const epochMs = value.getTime();
    if (Number.isNaN(epochMs)) return notADate(value);
    const date = fromSheetSerial(epochMsToSheetSerial(epochMs, utcOffsetAt));
    return date === null ? notADate(value) : { kind: 'date', date };
  }
  return notADate(value);
}

/**
 * A date or date-time cell's value as a serial number, whether the Spreadsheet service handed it
 * back as a number or as a Date (it does for date-formatted cells); null for an empty cell.
 */
export function cellToSheetSerial(value: unknown, utcOffsetAt: UtcOffsetAt): number | null {
  if (typeof value === 'number') return value;
  if (isDateObject(value) && !Number.isNaN(value.getTime()))
    return epochMsToSheetSerial(value.getTime(), utcOffsetAt);
  return null;
}
