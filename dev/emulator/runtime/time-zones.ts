/**
 * Wall-clock arithmetic in a named time zone, for the script's local time (Apps Script's V8 runs in
 * the script's time zone, not the machine's) and for Utilities.formatDate. Java-style fixed
 * offsets ("GMT+05:30") are accepted too, since Apps Script's Java heritage accepts them.
 */

export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const FIXED_OFFSET = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?$/;
const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function fixedOffsetMinutes(timeZone: string): number | null {
  const match = FIXED_OFFSET.exec(timeZone);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone === '') return false;
  if (fixedOffsetMinutes(timeZone) !== null) return true;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC in the zone at that instant (UTC+05:30 → 330). */
export function offsetMinutesAt(timeZone: string, epochMs: number): number {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) return fixed;
  const spans = offsetSpansOfYear(timeZone, new Date(epochMs).getUTCFullYear());
  let low = 0;
  let high = spans.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (spans[middle]!.startMs <= epochMs) low = middle;
    else high = middle - 1;
  }
  return spans[low]!.offsetMinutes;
}

interface OffsetSpan {
  /** The offset holds from here until the next span starts. */
  startMs: number;
  offsetMinutes: number;
}

const offsetSpans = new Map<string, OffsetSpan[]>();

/**
 * A zone's offsets through one UTC year, found once: Intl answers in microseconds, and the script's
 * Date asks at every local getter. Sampled daily (no zone changes offset twice in a day), each
 * change then located to the second.
 */
function offsetSpansOfYear(timeZone: string, year: number): OffsetSpan[] {
  const key = `${timeZone}|${year}`;
  const cached = offsetSpans.get(key);
  if (cached) return cached;
  const yearStart = new Date(0);
  yearStart.setUTCFullYear(year, 0, 1);
  const start = yearStart.getTime();
  yearStart.setUTCFullYear(year + 1, 0, 1);
  const end = yearStart.getTime();
  const spans: OffsetSpan[] = [{ startMs: start, offsetMinutes: measuredOffsetMinutes(timeZone, start) }];
  for (let day = start; day < end; day += MS_PER_DAY) {
    const next = Math.min(day + MS_PER_DAY, end);
    const offset = measuredOffsetMinutes(timeZone, next);
    if (offset === spans[spans.length - 1]!.offsetMinutes) continue;
    let before = day;
    let after = next;
    while (after - before > 1000) {
      const middle = before + Math.floor((after - before) / 2000) * 1000;
      if (measuredOffsetMinutes(timeZone, middle) === offset) after = middle;
      else before = middle;
    }
    if (after < end) spans.push({ startMs: after, offsetMinutes: offset });
  }
  offsetSpans.set(key, spans);
  return spans;
}

function measuredOffsetMinutes(timeZone: string, epochMs: number): number {
  const wholeSecondMs = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return Math.round((wallAsUtcMs(wallClockIn(timeZone, epochMs)) - wholeSecondMs) / MS_PER_MINUTE);
}

/** The wall time read as if it were UTC (seconds precision), as epoch ms. */
function wallAsUtcMs(wall: WallClock): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
  return date.getTime();
}

export function wallClockIn(timeZone: string, epochMs: number): WallClock {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) {
    const shifted = new Date(epochMs + fixed * MS_PER_MINUTE);
    return {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(),
      second: shifted.getUTCSeconds(),
      millisecond: shifted.getUTCMilliseconds(),
      weekday: shifted.getUTCDay(),
    };
  }
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  return {
    year: parts.era === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/**
 * The instant at which the zone's clocks show the given wall time (as epoch ms of that wall time
 * read as UTC), resolved as ECMAScript does: in a repeated hour the earlier instant, in a skipped
 * hour the offset from before the transition.
 */
export function instantOfWallTime(timeZone: string, wallAsUtcMs: number): number {
  const offsetBefore = offsetMinutesAt(timeZone, wallAsUtcMs - MS_PER_DAY) * MS_PER_MINUTE;
  const offsetAfter = offsetMinutesAt(timeZone, wallAsUtcMs + MS_PER_DAY) * MS_PER_MINUTE;
  const candidates = [wallAsUtcMs - offsetBefore, wallAsUtcMs - offsetAfter].filter(
    (instant) => instant + offsetMinutesAt(timeZone, instant) * MS_PER_MINUTE === wallAsUtcMs,
  );
  return candidates.length > 0 ? Math.min(...candidates) : wallAsUtcMs - offsetBefore;
}

const nameFormatters = new Map<string, Intl.DateTimeFormat>();

/** An IANA zone's long name at that instant, as Date.prototype.toString shows it ("Pacific Daylight Time"). */
export function zoneLongName(timeZone: string, epochMs: number): string {
  let formatter = nameFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'long' });
    nameFormatters.set(timeZone, formatter);
  }
  return formatter.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}
