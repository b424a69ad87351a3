/**
 * How often the scheduled refresh runs, in one place: every 1, 2, 4, 6, 8 or 12 hours (the
 * intervals Apps Script allows an add-on's time-driven trigger), daily at an hour of the
 * spreadsheet's time zone, or monthly on a day (1–28, or the last day) at such an hour. Each kind
 * says here how the dialog offers it, how its form is read, how it is described, how long its runs
 * may be apart and how its trigger is built: adding a kind is adding a case to each switch below
 * (the compiler lists the ones missing).
 */
import { FieldRefusedError } from '../platform/field-refusal';

const HOURLY_INTERVALS = [1, 2, 4, 6, 8, 12] as const;
/** Days 29–31 are missing from some months: a schedule for the end of the month uses "last". */
const LAST_NUMBERED_MONTH_DAY = 28;

type HourlyInterval = (typeof HOURLY_INTERVALS)[number];

export type Frequency =
  | { kind: 'hourly'; hours: HourlyInterval }
  | { kind: 'daily'; hour: number }
  | { kind: 'monthly'; day: number | 'last'; hour: number };

/**
 * What the dialog sends: `every` is "off", an hourly interval ("4"), "daily" or "monthly";
 * `monthDay` is "1"–"28" or "last".
 */
export interface ScheduleForm {
  every: string;
  atHour?: string | number;
  monthDay?: string | number;
}

/** One `<option>` of the dialog: the client renders the lists the server sends. */
export interface ScheduleOption {
  value: string;
  label: string;
}

/** The choice "How often" offers, and which of the other fields it uses. */
export interface FrequencyOption extends ScheduleOption {
  uses: Array<'atHour' | 'monthDay'>;
}

/** The dialog's choices as the server offers them. */
export interface ScheduleOptions {
  every: FrequencyOption[];
  atHour: ScheduleOption[];
  monthDay: ScheduleOption[];
}

/** The dialog's fields for a frequency (or for none: "off"). */
export interface FrequencyFields {
  every: string;
  atHour: number;
  monthDay: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A monthly schedule's runs are at most the longest month apart. */
const LONGEST_MONTH_DAYS = 31;
/** The choices a new schedule offers first. */
const DEFAULT_FIELDS: FrequencyFields = { every: 'off', atHour: 6, monthDay: '1' };

function unreachable(frequency: never): never {
  throw new Error(`Unknown refresh frequency: ${JSON.stringify(frequency)}`);
}

function twoDigits(hour: number): string {
  return hour < 10 ? `0${hour}` : String(hour);
}

export function scheduleOptions(): ScheduleOptions {
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    value: String(hour),
    label: `${twoDigits(hour)}:00`,
  }));
  const days = Array.from({ length: LAST_NUMBERED_MONTH_DAY }, (_, index) => ({
    value: String(index + 1),
    label: String(index + 1),
  }));
  return {
    every: [
      { value: 'off', label: 'Off', uses: [] },
      ...HOURLY_INTERVALS.map((hours) => ({
        value: String(hours),
        label: hours === 1 ? 'Every hour' : `Every ${hours} hours`,
        uses: [],
      })),
      { value: 'daily', label: 'Every day', uses: ['atHour'] },
      { value: 'monthly', label: 'Every month', uses: ['monthDay', 'atHour'] },
    ],
    atHour: hours,
    monthDay: [...days, { value: 'last', label: 'Last day' }],
  };
}

function hourOf(form: ScheduleForm): number {
  const hour = Number(form.atHour);
  // Number('') is 0: an empty choice is no hour. Anything else not a whole hour is NaN or out of range.
  if (form.atHour === '' || !Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new FieldRefusedError<keyof ScheduleForm>(
      'atHour',
      'Choose the hour of the day, from 00:00 to 23:00.',
    );
  }
  return hour;
}

function monthDayOf(form: ScheduleForm): number | 'last' {
  if (form.monthDay === 'last') return 'last';
  const day = Number(form.monthDay);
  // Number('') is 0, below the first day.
  if (!Number.isInteger(day) || day < 1 || day > LAST_NUMBERED_MONTH_DAY) {
    throw new FieldRefusedError<keyof ScheduleForm>(
      'monthDay',
      `Choose a day of the month from 1 to ${LAST_NUMBERED_MONTH_DAY}, or the last day.`,
    );
  }
  return day;
}

/** The frequency the form asks for, or null for "off". */
export function frequencyFromForm(form: ScheduleForm): Frequency | null {
  // What any page could send: a form may be missing altogether.
  const every = String(form?.every);
  if (every === 'off') return null;
  if (every === 'daily') return { kind: 'daily', hour: hourOf(form) };
  if (every === 'monthly') return { kind: 'monthly', day: monthDayOf(form), hour: hourOf(form) };
  const hours = HOURLY_INTERVALS.find((interval) => String(interval) === every);
  if (hours === undefined) {
    throw new FieldRefusedError<keyof ScheduleForm>(
      'every',
      `Choose every ${HOURLY_INTERVALS.slice(0, -1).join(', ')} or ${HOURLY_INTERVALS[HOURLY_INTERVALS.length - 1]} hours, ` +
        `daily, monthly, or off.`,
    );
  }
  return { kind: 'hourly', hours };
}

/** A frequency as the schedule's document state holds it: schedules saved before kinds had names hold the old shapes. */
export type StoredFrequency = Frequency | { everyHours: number } | { dailyAtHour: number };

/** A stored frequency, read as before for the shapes older versions saved. */
export function readStoredFrequency(stored: StoredFrequency): Frequency {
  if ('kind' in stored) return stored;
  // Older versions saved only what their form accepted: one of the same hourly intervals.
  if ('everyHours' in stored) return { kind: 'hourly', hours: stored.everyHours as HourlyInterval };
  return { kind: 'daily', hour: stored.dailyAtHour };
}

/** The longest time between two runs: for the stale-data warning and for telling missed runs. */
export function intervalMs(frequency: Frequency): number {
  switch (frequency.kind) {
    case 'hourly':
      return frequency.hours * HOUR_MS;
    case 'daily':
      return DAY_MS;
    case 'monthly':
      return LONGEST_MONTH_DAYS * DAY_MS;
    default:
      return unreachable(frequency);
  }
}

/** "between 06:00 and 07:00 (Europe/London)": Google starts a trigger at a random minute within its hour. */
function withinHour(hour: number, timeZone: string): string {
  return `between ${twoDigits(hour)}:00 and ${twoDigits((hour + 1) % 24)}:00 (${timeZone})`;
}

/**
 * "every hour", "every 4 hours", "daily between 06:00 and 07:00 (Europe/London)", "monthly on day
 * 15 between …", "monthly on the last day between …".
 */
export function describeFrequency(frequency: Frequency, timeZone: string): string {
  switch (frequency.kind) {
    case 'hourly':
      return frequency.hours === 1 ? 'every hour' : `every ${frequency.hours} hours`;
    case 'daily':
      return `daily ${withinHour(frequency.hour, timeZone)}`;
    case 'monthly': {
      const day = frequency.day === 'last' ? 'the last day' : `day ${frequency.day}`;
      return `monthly on ${day} ${withinHour(frequency.hour, timeZone)}`;
    }
    default:
      return unreachable(frequency);
  }
}

/** The dialog's fields showing a frequency; null ("off") shows the defaults. */
export function frequencyFields(frequency: Frequency | null): FrequencyFields {
  if (frequency === null) return DEFAULT_FIELDS;
  switch (frequency.kind) {
    case 'hourly':
      return { ...DEFAULT_FIELDS, every: String(frequency.hours) };
    case 'daily':
      return { ...DEFAULT_FIELDS, every: 'daily', atHour: frequency.hour };
    case 'monthly':
      return { every: 'monthly', atHour: frequency.hour, monthDay: String(frequency.day) };
    default:
      return unreachable(frequency);
  }
}

/**
 * Sets the trigger's recurrence. The hour follows the spreadsheet's zone (atHour follows the
 * script's unless told). Apps Script has no trigger for a month's last day, so that schedule's
 * trigger runs daily at its hour and each run goes on only on the last day (isRunDay).
 */
export function configureTrigger(
  builder: GoogleAppsScript.Script.ClockTriggerBuilder,
  frequency: Frequency,
  timeZone: string,
): GoogleAppsScript.Script.ClockTriggerBuilder {
  switch (frequency.kind) {
    case 'hourly':
      return builder.everyHours(frequency.hours);
    case 'daily':
      return builder.everyDays(1).atHour(frequency.hour).inTimezone(timeZone);
    case 'monthly':
      return frequency.day === 'last'
        ? builder.everyDays(1).atHour(frequency.hour).inTimezone(timeZone)
        : builder.onMonthDay(frequency.day).atHour(frequency.hour).inTimezone(timeZone);
    default:
      return unreachable(frequency);
  }
}

/**
 * Whether a run of the schedule's trigger at `nowMs` is one the schedule asks for: false only for
 * the daily runs of a "last day" schedule on the other days of the month, which must return at
 * once (they fetch, write and log nothing, so they count neither as runs nor as missed ones).
 */
export function isRunDay(frequency: Frequency, timeZone: string, nowMs: number): boolean {
  if (frequency.kind !== 'monthly' || frequency.day !== 'last') return true;
  const [year, month, day] = Utilities.formatDate(new Date(nowMs), timeZone, 'yyyy-MM-dd')
    .split('-')
    .map(Number);
  // Day 0 of the next month is this month's last day (months count from 0 in Date.UTC).
  return day === new Date(Date.UTC(year!, month!, 0)).getUTCDate();
}
