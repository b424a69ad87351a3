/**
 * The spreadsheet's time zone as the pure date code needs it: an offset for any instant. Apps
 * Script only tells offsets through Utilities.formatDate, one service call each, so offsets are
 * remembered per hour (zones change offset on hour boundaries).
 */
import { calendarDateAt, type CalendarDate, parseUtcOffset, type UtcOffsetAt } from '../model/dates';

const HOUR_MS = 3_600_000;

export function utcOffsetIn(timeZone: string): UtcOffsetAt {
  const byHour = new Map<number, number>();
  return (epochMs) => {
    const hour = Math.floor(epochMs / HOUR_MS);
    let offset = byHour.get(hour);
    if (offset === undefined) {
      offset = parseUtcOffset(Utilities.formatDate(new Date(hour * HOUR_MS), timeZone, 'Z')) ?? 0;
      byHour.set(hour, offset);
    }
    return offset;
  };
}

/** Today in the spreadsheet's time zone: the day its users see on their calendars. */
export function todayIn(timeZone: string, utcOffsetAt = utcOffsetIn(timeZone)): CalendarDate {
  return calendarDateAt(Date.now(), utcOffsetAt);
}
