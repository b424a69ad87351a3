/**
 * Sheets date serials and time zones. A cell holds a serial: days since 1899-12-30, the fraction being
 * the time of day. The serial is a WALL-CLOCK reading with no zone; the spreadsheet's time zone enters
 * only when a script hands in or reads back a Date (an instant). Offsets come from the runtime's time
 * zones (Intl), so daylight saving time and far-off zones (UTC+14, UTC−11) behave as the IANA database says.
 */
import { instantOfWallTime, offsetMinutesAt } from '../runtime/time-zones';

export { isValidTimeZone } from '../runtime/time-zones';

export const MS_PER_DAY = 86_400_000;
const SERIAL_ZERO_UTC_MS = Date.UTC(1899, 11, 30);

/** Milliseconds to add to an instant to get the zone's wall clock read as if it were UTC. */
function zoneOffsetMs(epochMs: number, timeZone: string): number {
  return offsetMinutesAt(timeZone, epochMs) * 60_000;
}

export function serialOfInstant(epochMs: number, timeZone: string): number {
  return (epochMs + zoneOffsetMs(epochMs, timeZone) - SERIAL_ZERO_UTC_MS) / MS_PER_DAY;
}

export function instantOfSerial(serial: number, timeZone: string): number {
  return instantOfWallTime(timeZone, SERIAL_ZERO_UTC_MS + Math.round(serial * MS_PER_DAY));
}

export interface WallClock {
  year: number;
  month: number; // 1–12
  day: number;
  weekday: number; // 0 = Sunday
  hours: number;
  minutes: number;
  seconds: number;
  milliseconds: number;
}

export function wallClockOfSerial(serial: number): WallClock {
  const wall = new Date(SERIAL_ZERO_UTC_MS + Math.round(serial * MS_PER_DAY));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    weekday: wall.getUTCDay(),
    hours: wall.getUTCHours(),
    minutes: wall.getUTCMinutes(),
    seconds: wall.getUTCSeconds(),
    milliseconds: wall.getUTCMilliseconds(),
  };
}

/** The serial of a wall-clock reading, or null when the fields do not name a real calendar moment. */
export function serialOfWallClock(
  year: number,
  month: number,
  day: number,
  hours = 0,
  minutes = 0,
  seconds = 0,
): number | null {
  if (month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59 || seconds > 59) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  if (wall.getUTCMonth() !== month - 1 || wall.getUTCDate() !== day) return null;
  wall.setUTCHours(hours, minutes, seconds, 0);
  return (wall.getTime() - SERIAL_ZERO_UTC_MS) / MS_PER_DAY;
}
