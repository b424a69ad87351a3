/**
 * When a time-driven trigger fires, in its time zone's wall time. Google starts a trigger at a
 * moment of its own choosing within the hour it names (near nearMinute, if given); the emulator
 * fires at that minute exactly (0 when none is given), so that tests know the moment:
 * - everyHours(n): at the zone's hours divisible by n;
 * - everyDays(n) / everyWeeks(n): every n days or weeks from the day it was created (on onWeekDay's
 *   day, if given), at atHour, else at the hour it was created;
 * - onMonthDay(d): on day d of each month, at atHour, else at midnight. Google does not document a
 *   day the month lacks (31 in April): the emulator takes the stricter reading, that the trigger
 *   does not fire that month.
 */
import type { TriggerInfo } from './script-app';
import { instantOfWallTime, wallClockIn } from './time-zones';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Far enough to reach the next firing of any schedule (everyWeeks(52), a day 31 after a short month). */
const SEARCH_DAYS = 2 * 366;
const WEEK_DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/** A wall-clock date as days since 1970-01-01. */
function dayNumberOf(timeZone: string, epochMs: number): number {
  const wall = wallClockIn(timeZone, epochMs);
  return Date.UTC(wall.year, wall.month - 1, wall.day) / DAY_MS;
}

/** The hours of a day the trigger fires at, on the given wall-clock day (none on other days). */
function hoursOn(trigger: TriggerInfo, dayNumber: number): number[] {
  const { schedule, createdAtMs } = trigger;
  const created = wallClockIn(schedule.timeZone, createdAtMs);
  const date = new Date(dayNumber * DAY_MS);
  const daysSinceCreated = dayNumber - dayNumberOf(schedule.timeZone, createdAtMs);
  switch (schedule.every) {
    case 'hours':
      return Array.from({ length: 24 / schedule.interval }, (_, index) => index * schedule.interval);
    case 'days':
      return daysSinceCreated % schedule.interval === 0 ? [schedule.atHour ?? created.hour] : [];
    case 'weeks': {
      const weekDay = schedule.weekDay ?? WEEK_DAYS[created.weekday];
      const onDay = WEEK_DAYS[date.getUTCDay()] === weekDay;
      const onWeek = Math.floor(daysSinceCreated / 7) % schedule.interval === 0;
      return onDay && onWeek ? [schedule.atHour ?? created.hour] : [];
    }
    case 'months':
      return date.getUTCDate() === schedule.monthDay ? [schedule.atHour ?? 0] : [];
  }
}

/** The first moment after `afterMs` at which the trigger fires, or null if none within two years. */
export function nextFireTime(trigger: TriggerInfo, afterMs: number): number | null {
  const { timeZone, nearMinute } = trigger.schedule;
  const firstDay = dayNumberOf(timeZone, afterMs);
  for (let day = firstDay; day <= firstDay + SEARCH_DAYS; day++) {
    for (const hour of hoursOn(trigger, day)) {
      const wall = day * DAY_MS + hour * HOUR_MS + (nearMinute ?? 0) * MINUTE_MS;
      const instant = instantOfWallTime(timeZone, wall);
      if (instant > afterMs) return instant;
    }
  }
  return null;
}
