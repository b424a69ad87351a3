/**
 * Dates a custom function hands back are the instant their day starts in the spreadsheet's time
 * zone, so that Sheets shows that day; also where clocks move forward at midnight and the day has
 * no midnight at all.
 */
import type { CalendarDate } from '../../src/lib/dates';
import { midnightOf } from '../../src/formulas/values';

/** The zone's UTC offset in minutes at an instant, as the spreadsheet's clock gives it. */
function offsetsOf(timeZone: string): (epochMs: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (epochMs) => {
    const parts = Object.fromEntries(
      format.formatToParts(epochMs).map((part) => [part.type, Number(part.value)]),
    );
    const wallClockMs = Date.UTC(
      parts.year!,
      parts.month! - 1,
      parts.day!,
      parts.hour!,
      parts.minute!,
      parts.second!,
    );
    return Math.round((wallClockMs - Math.floor(epochMs / 1000) * 1000) / 60_000);
  };
}

function dayOf(isoDate: string): CalendarDate {
  return (Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000) as CalendarDate;
}

function shownIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

test.each([
  ['America/Santiago', '2024-09-08', '2024-09-08 01:00'],
  ['America/Asuncion', '2024-10-06', '2024-10-06 01:00'],
  ['America/Havana', '2024-03-10', '2024-03-10 01:00'],
  ['America/Santiago', '2024-09-09', '2024-09-09 00:00'],
  ['America/Santiago', '2024-04-07', '2024-04-07 00:00'],
  ['Europe/Berlin', '2024-03-31', '2024-03-31 00:00'],
  ['Pacific/Kiritimati', '2024-02-29', '2024-02-29 00:00'],
  ['Pacific/Pago_Pago', '2024-02-29', '2024-02-29 00:00'],
])('in %s, %s starts at %s', (timeZone, isoDate, shown) => {
  expect(shownIn(timeZone, midnightOf(dayOf(isoDate), offsetsOf(timeZone)))).toBe(shown);
});
