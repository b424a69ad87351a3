/**
 * What the Inspection forecast should say, worked out independently of the add-on: a schedule's
 * days are found by stepping through the calendar one day at a time (JavaScript's UTC dates, none
 * of the add-on's date helpers or rules), and counted month by month. Shared by the model test of
 * the forecast's rules and the end-to-end test of the tab.
 *
 * The rules, as docs/user-guide.md states them: an occurrence of dom is on the anchor's day of month (its
 * last day when the month is shorter) every round(frequency / 30) months (at least one); of dow,
 * every frequency days from the anchor; none before the anchor. The next inspection is the first
 * occurrence after Last inspected (or, with none, on or after today); rolling: Last inspected +
 * frequency. An overdue inspection is counted today; the ones after it follow it (rolling: every
 * frequency days, as if each were done on its due date).
 */
import { SeededRandom } from '../../dev/sample-service/random';

const MS_PER_DAY = 86_400_000;

/** A day as the number of days since 1970-01-01 (what the add-on calls a CalendarDate). */
export type Day = number;

export function dayOf(year: number, month: number, day: number): Day {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function isoOf(day: Day): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function dayOfIso(iso: string): Day {
  return Date.parse(`${iso}T00:00:00Z`) / MS_PER_DAY;
}

export function dateNumberOf(day: Day): number {
  return Number(isoOf(day).replace(/-/g, ''));
}

export interface Trigger {
  type?: unknown;
  timing?: unknown;
  timingDateNumber?: unknown;
  frequencyInDays?: unknown;
  expiringPeriodInDays?: unknown;
}

export interface OracleSchedule {
  trigger: Trigger;
  /** Null: no Last inspected. */
  lastInspected: Day | null;
}

export type OracleForecast =
  { forecast: true; counts: number[]; projected: boolean; overdue: boolean } | { forecast: false };

function utc(day: Day): Date {
  return new Date(day * MS_PER_DAY);
}

function anchorOf(trigger: Trigger): Day | null {
  const number = trigger.timingDateNumber;
  if (typeof number !== 'number' || !Number.isInteger(number)) return null;
  const [year, month, day] = [Math.floor(number / 10_000), Math.floor(number / 100) % 100, number % 100];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    year >= 1000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
  return real ? dayOf(year, month, day) : null;
}

function isWhole(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= minimum;
}

/** Whether `day` is an occurrence of a dom or dow schedule. */
function occursOn(timing: 'dom' | 'dow', anchor: Day, frequency: number, day: Day): boolean {
  if (day < anchor) return false;
  if (timing === 'dow') return (day - anchor) % frequency === 0;
  const months = Math.max(1, Math.round(frequency / 30));
  const [date, start] = [utc(day), utc(anchor)];
  const monthsApart =
    (date.getUTCFullYear() - start.getUTCFullYear()) * 12 + date.getUTCMonth() - start.getUTCMonth();
  if (monthsApart % months !== 0) return false;
  const lastDayOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return date.getUTCDate() === Math.min(start.getUTCDate(), lastDayOfMonth);
}

/** The first day of each of the twelve months from today's. */
export function monthStarts(today: Day): Day[] {
  const date = utc(today);
  return Array.from({ length: 13 }, (_, offset) =>
    dayOf(date.getUTCFullYear(), date.getUTCMonth() + 1 + offset, 1),
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The month titles the tab should show, "Nov 2026", from today's. */
export function monthTitles(today: Day): string[] {
  return monthStarts(today)
    .slice(0, 12)
    .map((start) => `${MONTHS[utc(start).getUTCMonth()]!} ${utc(start).getUTCFullYear()}`);
}

/** A schedule's next due date and its occurrences, stepping day by day; null when it has none. */
export function oracleDue(
  schedule: OracleSchedule,
  today: Day,
): { due: Day; isDue: (day: Day) => boolean; frequency: number } | null {
  const { trigger, lastInspected } = schedule;
  const frequency = trigger.frequencyInDays;
  if (
    trigger.type !== 'time' ||
    !['rolling', 'dom', 'dow'].includes(trigger.timing as string) ||
    !isWhole(frequency, 1) ||
    !isWhole(trigger.expiringPeriodInDays, 0)
  ) {
    return null;
  }
  if (lastInspected !== null && lastInspected > today) return null;
  if (trigger.timing === 'rolling') {
    if (lastInspected === null) return null;
    const isDue = (day: Day) => day > lastInspected && (day - lastInspected) % frequency === 0;
    return { due: lastInspected + frequency, isDue, frequency };
  }
  const anchor = anchorOf(trigger);
  if (anchor === null) return null;
  const timing = trigger.timing as 'dom' | 'dow';
  const isDue = (day: Day) => occursOn(timing, anchor, frequency, day);
  let due = lastInspected === null ? today : lastInspected + 1;
  while (!isDue(due)) due++;
  return { due, isDue, frequency };
}

/** Expired (due before today), Expiring (due within expiringPeriodInDays), or null for anything else. */
export function oracleStatus(schedule: OracleSchedule, today: Day): 'Expired' | 'Expiring' | null {
  const next = oracleDue(schedule, today);
  if (next === null) return null;
  if (next.due < today) return 'Expired';
  return next.due - today <= (schedule.trigger.expiringPeriodInDays as number) ? 'Expiring' : null;
}

/** How many inspections fall due in each of the twelve months from today's, stepping day by day. */
export function oracleForecast(schedule: OracleSchedule, today: Day): OracleForecast {
  const next = oracleDue(schedule, today);
  if (next === null) return { forecast: false };
  const { due, isDue, frequency } = next;
  const starts = monthStarts(today);
  const end = starts[12]! - 1;
  const counts = new Array<number>(12).fill(0);
  const count = (day: Day) => {
    const month = starts.findIndex((start, index) => day >= start && day < starts[index + 1]!);
    counts[month]!++;
  };
  const rolling = schedule.trigger.timing === 'rolling';
  const overdue = due < today;
  if (overdue) {
    count(today);
    // Done today: the next ones follow from today.
    const dueAfterToday = rolling ? (day: Day) => (day - today) % frequency === 0 : isDue;
    for (let day = today + 1; day <= end; day++) if (dueAfterToday(day)) count(day);
  } else {
    for (let day = due; day <= end; day++) if (isDue(day)) count(day);
  }
  return { forecast: true, counts, projected: rolling, overdue };
}

/** Days a forecast is most likely to get wrong: month ends, leap days, year ends. */
const AWKWARD_DAYS = [
  '2024-02-29',
  '2024-02-28',
  '2023-02-28',
  '2024-01-31',
  '2023-01-29',
  '2023-03-31',
  '2024-12-31',
  '2028-02-29',
  '2027-11-30',
  '2099-12-31',
  '2100-02-28',
  '2023-04-30',
  '2025-08-31',
];

export interface GeneratedCase {
  today: Day;
  schedules: OracleSchedule[];
}

/**
 * A seeded set of schedules around a seeded today: every timing, month-end and leap-day anchors,
 * frequencies from daily to over a year, Last inspected from never through long overdue to today,
 * and a few schedules that cannot be forecast.
 */
export function generateCase(seed: number, scheduleCount = 40): GeneratedCase {
  const random = new SeededRandom(seed, 'forecast');
  const today = random.chance(0.5)
    ? dayOfIso(random.pick(AWKWARD_DAYS))
    : dayOf(random.int(2020, 2031), random.int(1, 12), random.int(1, 28));
  const awkwardAnchor = (): Day => {
    const date = utc(today);
    const year = date.getUTCFullYear() + random.int(-3, 1);
    const month = random.int(1, 12);
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return dayOf(year, month, random.int(Math.min(28, lastDay), lastDay));
  };
  const schedules = Array.from({ length: scheduleCount }, (): OracleSchedule => {
    const timing = random.pick(['rolling', 'dom', 'dow', 'dom', 'dow', 'rolling']);
    const frequencyInDays = random.pick([
      1,
      7,
      7,
      14,
      28,
      30,
      31,
      44,
      45,
      60,
      89,
      90,
      91,
      180,
      364,
      365,
      366,
      400,
      random.int(1, 120),
      timing === 'dow' ? 7 * random.int(1, 8) : random.int(1, 400),
    ]);
    const anchor = random.chance(0.5)
      ? awkwardAnchor()
      : today + random.int(-1500, 400); /* past, recent, or still ahead */
    const lastInspected = random.pick<Day | null>([
      null,
      today,
      today - 1,
      today - random.int(0, 60),
      today - random.int(0, 800),
      today - frequencyInDays,
      today - frequencyInDays - 1,
      anchor - 1,
      anchor,
    ]);
    const trigger: Trigger = {
      type: 'time',
      timing,
      expiringPeriodInDays: random.int(0, 30),
      frequencyInDays,
      ...(timing === 'rolling' && random.chance(0.7) ? {} : { timingDateNumber: dateNumberOf(anchor) }),
    };
    return { trigger, lastInspected: lastInspected !== null && lastInspected > today ? null : lastInspected };
  });
  // What cannot be forecast, a few of each: the rows stay, with blank counts.
  schedules.push(
    {
      trigger: { type: 'time', timing: 'rolling', frequencyInDays: 30, expiringPeriodInDays: 5 },
      lastInspected: null,
    },
    {
      trigger: { type: 'time', timing: 'hourly', frequencyInDays: 1, expiringPeriodInDays: 0 },
      lastInspected: null,
    },
    {
      trigger: {
        type: 'time',
        timing: 'dom',
        frequencyInDays: 0,
        expiringPeriodInDays: 0,
        timingDateNumber: dateNumberOf(today),
      },
      lastInspected: null,
    },
    {
      trigger: {
        type: 'time',
        timing: 'dow',
        frequencyInDays: 7,
        expiringPeriodInDays: 0,
        timingDateNumber: 20230230,
      },
      lastInspected: null,
    },
    {
      trigger: { type: 'time', timing: 'rolling', frequencyInDays: 7, expiringPeriodInDays: 0 },
      lastInspected: today + 3,
    },
  );
  return { today, schedules };
}
