/** Calendar arithmetic on UTC days, the unit the generated dates are drawn in. */

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 (UTC) of a calendar date; month is 1-based. */
export function epochDay(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** The service's date number (YYYYMMDD) of a day since 1970-01-01. */
export function dateNumberOfEpochDay(day: number): number {
  const date = new Date(day * MS_PER_DAY);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

/** Days since 1970-01-01 of a date number (YYYYMMDD). */
export function epochDayOfDateNumber(dateNumber: number): number {
  return epochDay(Math.floor(dateNumber / 10_000), Math.floor(dateNumber / 100) % 100, dateNumber % 100);
}

/** Seconds since the epoch at the start (00:00 UTC) of a day since 1970-01-01. */
export function epochSecondsOfDay(day: number): number {
  return day * 86_400;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
