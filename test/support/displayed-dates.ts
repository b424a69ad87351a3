/**
 * How the spreadsheet should display the service's dates, computed independently of the add-on's
 * own date code: date numbers as 'yyyy-mm-dd', instants as 'yyyy-mm-dd hh:mm:ss' in a time zone.
 */

/** A YYYYMMDD date number as a date-only cell displays it; '' for none. */
export function isoOfDateNumber(dateNumber: number | undefined): string {
  if (dateNumber === undefined) return '';
  const text = String(dateNumber);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

/** An instant as a date-time cell displays it in the spreadsheet's time zone. */
export function dateTimeIn(epochMs: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(epochMs));
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}
