/**
 * Dates a custom function hands back are the instant their day starts in the spreadsheet's time
 * zone, so that Sheets shows that day; also where clocks move forward at midnight and the day has
 * no midnight at all.
 */
import { offsetMinutesAt } from '../../dev/emulator/runtime/time-zones';
import { type CalendarDate, midnightOf } from '../../src/lib/dates';
import { dateTimeIn } from '../support/displayed-dates';

function dayOf(isoDate: string): CalendarDate {
  return (Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000) as CalendarDate;
}

test.each([
  ['America/Santiago', '2024-09-08', '2024-09-08 01:00:00'],
  ['America/Asuncion', '2024-10-06', '2024-10-06 01:00:00'],
  ['America/Havana', '2024-03-10', '2024-03-10 01:00:00'],
  ['America/Santiago', '2024-09-09', '2024-09-09 00:00:00'],
  ['America/Santiago', '2024-04-07', '2024-04-07 00:00:00'],
  ['Europe/Berlin', '2024-03-31', '2024-03-31 00:00:00'],
  ['Pacific/Kiritimati', '2024-02-29', '2024-02-29 00:00:00'],
  ['Pacific/Pago_Pago', '2024-02-29', '2024-02-29 00:00:00'],
])('in %s, %s starts at %s', (timeZone, isoDate, shown) => {
  // The emulator's zone data stands for the spreadsheet's clock.
  const instant = midnightOf(dayOf(isoDate), (epochMs) => offsetMinutesAt(timeZone, epochMs));
  expect(dateTimeIn(instant.getTime(), timeZone)).toBe(shown);
});
