/**
 * The spreadsheet's time zone as the pure date code needs it: an offset for any instant. Apps
 * Script tells offsets only through Utilities.formatDate, one service call each, so they are
 * remembered (src/lib/utc-offsets.ts): a few dozen calls a year of data, not one per record.
 */
import { calendarDateAt, type CalendarDate, parseUtcOffset, type UtcOffsetAt } from '../lib/dates';
import { rememberUtcOffsets } from '../lib/utc-offsets';

export function utcOffsetIn(timeZone: string): UtcOffsetAt {
  return rememberUtcOffsets(
    (epochMs) => parseUtcOffset(Utilities.formatDate(new Date(epochMs), timeZone, 'Z')) ?? 0,
  );
}

/** What every run computes its dates with: the spreadsheet's UTC offsets and its today. */
export interface SpreadsheetClock {
  utcOffsetAt: UtcOffsetAt;
  /** Today in the spreadsheet's time zone: the day its users see on their calendars. */
  today(): CalendarDate;
}

export function spreadsheetClock(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): SpreadsheetClock {
  const utcOffsetAt = utcOffsetIn(spreadsheet.getSpreadsheetTimeZone());
  return { utcOffsetAt, today: () => calendarDateAt(Date.now(), utcOffsetAt) };
}
