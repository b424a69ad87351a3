/**
 * Sheets date serials and time zones. A cell holds a serial: days since 1899-12-30, the fraction being
 * the time of day. The serial is a WALL-CLOCK reading with no zone; the spreadsheet's time zone enters
 * only when a script hands in or reads back a Date (an instant). Offsets come from Intl, so daylight
 * saving time and far-off zones (UTC+14, UTC−11) behave as the IANA database says.
 */
export const MS_PER_DAY = 86_400_000;
const SERIAL_ZERO_UTC_MS = Date.UTC(1899, 11, 30);

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to an instant to get the zone's wall clock read as if it were UTC. */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  // Intl is slow (a large import reads thousands of dates), so offsets are cached per UTC day: a day
  // whose first and last second share an offset has it throughout (no zone changes offset twice a day).
  let days = dailyOffsets.get(timeZone);
  if (!days) dailyOffsets.set(timeZone, (days = new Map()));
  const day = Math.floor(epochMs / MS_PER_DAY);
  let offset = days.get(day);
  if (offset === undefined) {
    const atStart = exactZoneOffsetMs(day * MS_PER_DAY, timeZone);
    offset = atStart === exactZoneOffsetMs((day + 1) * MS_PER_DAY - 1000, timeZone) ? atStart : null;
    days.set(day, offset);
  }
  return offset ?? exactZoneOffsetMs(epochMs, timeZone);
}

const dailyOffsets = new Map<string, Map<number, number | null>>();

function exactZoneOffsetMs(epochMs: number, timeZone: string): number {
  const wholeSecondMs = Math.floor(epochMs / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(wholeSecondMs)))
    parts[part.type] = part.value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wall.getTime() - wholeSecondMs;
}

/**
 * The instant at which the zone's clock shows `wallMs`. Around a daylight saving change a wall time
 * can happen twice (the earlier instant is taken) or never (it is read with the offset before the
 * change, so it lands just after the gap, as JavaScript's own Date does).
 */
function instantOfWallClock(wallMs: number, timeZone: string): number {
  const offsetBefore = zoneOffsetMs(wallMs - MS_PER_DAY, timeZone);
  const offsetAfter = zoneOffsetMs(wallMs + MS_PER_DAY, timeZone);
  const candidates = [wallMs - offsetBefore, wallMs - offsetAfter].filter(
    (instant) => instant + zoneOffsetMs(instant, timeZone) === wallMs,
  );
  return candidates.length > 0 ? Math.min(...candidates) : wallMs - offsetBefore;
}

export function serialOfInstant(epochMs: number, timeZone: string): number {
  return (epochMs + zoneOffsetMs(epochMs, timeZone) - SERIAL_ZERO_UTC_MS) / MS_PER_DAY;
}

export function instantOfSerial(serial: number, timeZone: string): number {
  return instantOfWallClock(SERIAL_ZERO_UTC_MS + Math.round(serial * MS_PER_DAY), timeZone);
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
