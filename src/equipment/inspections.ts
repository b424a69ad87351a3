/**
 * Inspection schedules: when the next inspection is due, and its status. Every rule lives here.
 *
 * A schedule's trigger must have type "time", a timing, a whole frequencyInDays of at least 1 and a
 * whole expiringPeriodInDays of at least 0; "dom" and "dow" also need timingDateNumber (YYYYMMDD, a
 * real date), the anchor. All dates are calendar days in the spreadsheet's time zone; "today" is given.
 *
 * Timings:
 * - rolling: due = last inspection + frequencyInDays. With no inspection recorded there is no due date
 *   and the status is "No inspection recorded". A timingDateNumber, if any, is ignored.
 * - dow: occurrences fall on the anchor and every frequencyInDays days after it (so a multiple of 7
 *   keeps the weekday).
 * - dom: occurrences fall on the anchor's day of month, every round(frequencyInDays / 30) months
 *   (halves round up: 45 days → 2 months; at least 1: 10 days → 1 month). A day the month lacks
 *   becomes its last day, and months that have the day use it again: Jan 31 → Feb 28/29 → Mar 31.
 * - There are no occurrences before the anchor.
 *
 * Due date (dom, dow): the first occurrence strictly after the last inspection; with none recorded,
 * the first occurrence on or after today. So an anchor in the future is the first due date, and a
 * schedule without a recorded inspection is never Expired (nothing shows that an occurrence was missed).
 *
 * Status, with daysLeft = due date − today (negative when overdue):
 * - "Expired"    when daysLeft < 0 (the due date has passed);
 * - "Expiring"   when 0 ≤ daysLeft ≤ expiringPeriodInDays (with a period of 0, only a due date of today);
 * - "Up to date" when daysLeft > expiringPeriodInDays.
 * Without a due date daysLeft and dueDate are null and a reason explains why:
 * - "Unsupported schedule": a type other than "time", a timing other than rolling/dom/dow, or a
 *   missing or invalid field above. The schedule is checked first, so this wins over the next one.
 * - "Last inspected is not a date": the "Last inspected" cell holds something other than a date.
 * - "Check Last inspected: in the future": the cell holds a date after today. An inspection cannot
 *   have happened yet (most likely a typo in the year, or the day and month swapped), so no due
 *   date is made up from it: the user is asked to check the date instead.
 * Nothing here throws: whatever the service or a user puts in, the result is a status.
 *
 * Due dates ahead (the Inspection forecast), for a schedule that has a due date:
 * - the first is the due date, or today when it has passed: an overdue inspection is due now, and
 *   one inspection catches up however many occurrences were missed;
 * - dom and dow: then every occurrence after it, exactly as above;
 * - rolling: then every frequencyInDays after it, projected on the assumption that each inspection
 *   is done on its due date (the only dates known are Last inspected and the frequency).
 */
import {
  addDays,
  addMonths,
  daysBetween,
  fromDateNumber,
  isoDayOfWeek,
  toIsoDate,
  toParts,
} from '../lib/dates';
import type { CalendarDate, DateCell } from '../lib/dates';
import { ExpiryStatus } from '../sheets/status-words';

export const InspectionStatus = {
  expired: ExpiryStatus.expired,
  expiring: ExpiryStatus.expiring,
  upToDate: 'Up to date',
  noInspectionRecorded: 'No inspection recorded',
  lastInspectedNotADate: 'Last inspected is not a date',
  lastInspectedInFuture: 'Check Last inspected: in the future',
  unsupportedSchedule: 'Unsupported schedule',
} as const;
export type InspectionStatus = (typeof InspectionStatus)[keyof typeof InspectionStatus];

export interface InspectionInput {
  /** The schedule's trigger object as the service sent it; validated here. */
  trigger: unknown;
  /** The parsed "Last inspected" cell; absent means no inspection recorded. */
  lastInspected?: DateCell;
  /** Today in the spreadsheet's time zone. */
  today: CalendarDate;
}

export interface InspectionResult {
  status: InspectionStatus;
  dueDate: CalendarDate | null;
  /** Due date − today: negative when overdue; null without a due date. */
  daysLeft: number | null;
  /** Why there is no due date, in words for the user. */
  reason?: string;
}

type ScheduleRule =
  | { timing: 'rolling'; frequencyInDays: number; expiringPeriodInDays: number }
  | { timing: 'dow'; frequencyInDays: number; expiringPeriodInDays: number; anchor: CalendarDate }
  | { timing: 'dom'; monthsBetween: number; expiringPeriodInDays: number; anchor: CalendarDate };

type ScheduleOrProblem = { schedule: ScheduleRule } | { problem: string };

const SUPPORTED_TIMINGS = ['rolling', 'dom', 'dow'];
const DAYS_PER_MONTH_IN_FREQUENCIES = 30;

/** A field's value as the reason quotes it; safe for anything JSON or a caller could hold. */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

function isWholeNumberAtLeast(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}

function readSchedule(trigger: unknown): ScheduleOrProblem {
  if (typeof trigger !== 'object' || trigger === null) return { problem: 'The schedule has no trigger' };
  const fields = trigger as Record<string, unknown>;
  const { type, timing, frequencyInDays, expiringPeriodInDays, timingDateNumber } = fields;
  if (type !== 'time') return { problem: `Trigger type ${describe(type)} is not supported (only "time")` };
  if (typeof timing !== 'string' || !SUPPORTED_TIMINGS.includes(timing)) {
    return { problem: `Timing ${describe(timing)} is not supported (only rolling, dom or dow)` };
  }
  if (!isWholeNumberAtLeast(frequencyInDays, 1)) {
    return { problem: `frequencyInDays ${describe(frequencyInDays)} is not a whole number of days ≥ 1` };
  }
  if (!isWholeNumberAtLeast(expiringPeriodInDays, 0)) {
    return {
      problem: `expiringPeriodInDays ${describe(expiringPeriodInDays)} is not a whole number of days ≥ 0`,
    };
  }
  if (timing === 'rolling') return { schedule: { timing, frequencyInDays, expiringPeriodInDays } };

  const anchor = fromDateNumber(timingDateNumber);
  if (anchor === null) {
    return {
      problem: `timingDateNumber ${describe(timingDateNumber)} is not a date (YYYYMMDD) for ${timing}`,
    };
  }
  if (timing === 'dow') return { schedule: { timing, frequencyInDays, expiringPeriodInDays, anchor } };
  const monthsBetween = Math.max(1, Math.round(frequencyInDays / DAYS_PER_MONTH_IN_FREQUENCIES));
  return { schedule: { timing: 'dom', monthsBetween, expiringPeriodInDays, anchor } };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAYS_PER_WEEK = 7;

/** "1st", "2nd", "3rd", "11th", "22nd": a day of the month as it is said. */
function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
  return `${day}${suffix}`;
}

function every(count: number, unit: string): string {
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

function timingInWords(schedule: ScheduleRule): string {
  if (schedule.timing === 'rolling') {
    const days = schedule.frequencyInDays === 1 ? '1 day' : `${schedule.frequencyInDays} days`;
    return `${days} after the last inspection`;
  }
  if (schedule.timing === 'dow') {
    const weekday = WEEKDAYS[isoDayOfWeek(schedule.anchor) - 1]!;
    return schedule.frequencyInDays % DAYS_PER_WEEK === 0
      ? `${every(schedule.frequencyInDays / DAYS_PER_WEEK, 'week')} on ${weekday}`
      : `${every(schedule.frequencyInDays, 'day')} from ${weekday} ${toIsoDate(schedule.anchor)}`;
  }
  const { day } = toParts(schedule.anchor);
  // A day the month lacks becomes its last day (see dom above).
  const lastDayNote = day > 28 ? " (or the month's last day)" : '';
  return `${every(schedule.monthsBetween, 'month')} on the ${ordinal(day)}${lastDayNote}`;
}

/** A schedule's terms as a manager reads them; null for a schedule the rules above do not support. */
export interface ScheduleTerms {
  /** "every 2 months on the 3rd", "every 2 weeks on Monday", "45 days after the last inspection". */
  timing: string;
  /** How many days before its due date an inspection is Expiring. */
  expiringPeriodInDays: number;
}

export function scheduleTerms(trigger: unknown): ScheduleTerms | null {
  const read = readSchedule(trigger);
  if ('problem' in read) return null;
  return { timing: timingInWords(read.schedule), expiringPeriodInDays: read.schedule.expiringPeriodInDays };
}

/** The first occurrence of a dom or dow schedule strictly after `day`. */
function firstOccurrenceAfter(
  schedule: Exclude<ScheduleRule, { timing: 'rolling' }>,
  day: CalendarDate,
): CalendarDate {
  const { anchor } = schedule;
  if (day < anchor) return anchor;
  if (schedule.timing === 'dow') {
    const periodsElapsed = Math.floor((day - anchor) / schedule.frequencyInDays);
    return addDays(anchor, (periodsElapsed + 1) * schedule.frequencyInDays);
  }
  // The occurrence in day's month or the last one before it; if that is not after day, the next one is.
  const dayParts = toParts(day);
  const anchorParts = toParts(anchor);
  const monthsElapsed = (dayParts.year - anchorParts.year) * 12 + (dayParts.month - anchorParts.month);
  const periodsElapsed = Math.floor(monthsElapsed / schedule.monthsBetween);
  const candidate = addMonths(anchor, periodsElapsed * schedule.monthsBetween);
  return candidate > day ? candidate : addMonths(anchor, (periodsElapsed + 1) * schedule.monthsBetween);
}

function findDueDate(
  schedule: ScheduleRule,
  lastInspected: CalendarDate | null,
  today: CalendarDate,
): CalendarDate | null {
  if (schedule.timing === 'rolling') {
    return lastInspected === null ? null : addDays(lastInspected, schedule.frequencyInDays);
  }
  return firstOccurrenceAfter(schedule, lastInspected ?? addDays(today, -1));
}

export function nextInspection({ trigger, lastInspected, today }: InspectionInput): InspectionResult {
  const read = readSchedule(trigger);
  if ('problem' in read) {
    return {
      status: InspectionStatus.unsupportedSchedule,
      dueDate: null,
      daysLeft: null,
      reason: read.problem,
    };
  }
  if (lastInspected?.kind === 'notADate') {
    return {
      status: InspectionStatus.lastInspectedNotADate,
      dueDate: null,
      daysLeft: null,
      reason: `Last inspected is not a date: ${lastInspected.text}. Enter a date such as ${toIsoDate(today)}`,
    };
  }
  if (lastInspected?.kind === 'date' && lastInspected.date > today) {
    return {
      status: InspectionStatus.lastInspectedInFuture,
      dueDate: null,
      daysLeft: null,
      reason:
        `Last inspected ${toIsoDate(lastInspected.date)} is after today (${toIsoDate(today)}): ` +
        'enter the date of the last inspection done',
    };
  }
  const { schedule } = read;
  const due = findDueDate(schedule, lastInspected?.kind === 'date' ? lastInspected.date : null, today);
  if (due === null) {
    return {
      status: InspectionStatus.noInspectionRecorded,
      dueDate: null,
      daysLeft: null,
      reason:
        'A rolling schedule is due frequencyInDays after the last inspection: enter it in "Last inspected"',
    };
  }
  return {
    status: statusOfDueDate(due, schedule.expiringPeriodInDays, today),
    dueDate: due,
    daysLeft: daysBetween(today, due),
  };
}

/** Expired, Expiring or Up to date: the status of a due date (see the rules above). */
export function statusOfDueDate(
  dueDate: CalendarDate,
  expiringPeriodInDays: number,
  today: CalendarDate,
): InspectionStatus {
  const daysLeft = daysBetween(today, dueDate);
  if (daysLeft < 0) return InspectionStatus.expired;
  return daysLeft <= expiringPeriodInDays ? InspectionStatus.expiring : InspectionStatus.upToDate;
}

export interface DueDatesAhead {
  /** In order, from the next due date (today when overdue) through the last day asked for. */
  dates: CalendarDate[];
  /** Rolling: projected from Last inspected (or from today when overdue); dom and dow: exact. */
  projected: boolean;
  /** The due date has passed: the first date is today. */
  overdue: boolean;
}

/**
 * The due dates from the next one through `through` (see "Due dates ahead" above); null when the
 * schedule has no due date, for the reason nextInspection gives.
 */
export function dueDatesAhead(input: InspectionInput, through: CalendarDate): DueDatesAhead | null {
  const { dueDate } = nextInspection(input);
  const read = readSchedule(input.trigger);
  if (dueDate === null || 'problem' in read) return null;
  const { schedule } = read;
  const overdue = dueDate < input.today;
  const following = (date: CalendarDate): CalendarDate =>
    schedule.timing === 'rolling'
      ? addDays(date, schedule.frequencyInDays)
      : firstOccurrenceAfter(schedule, date);
  const dates: CalendarDate[] = [];
  for (let date = overdue ? input.today : dueDate; date <= through; date = following(date)) dates.push(date);
  return { dates, projected: schedule.timing === 'rolling', overdue };
}
