import { calendarDateAt, fromIsoDate, isoDayOfWeek, parseDateCell, toIsoDate } from '../../src/lib/dates';
import type { CalendarDate, UtcOffsetAt } from '../../src/lib/dates';
import { InspectionStatus, nextInspection, scheduleTerms } from '../../src/equipment/inspections';

const {
  expired,
  expiring,
  upToDate,
  noInspectionRecorded,
  lastInspectedNotADate,
  lastInspectedInFuture,
  unsupportedSchedule,
} = InspectionStatus;

function date(iso: string): CalendarDate {
  const parsed = fromIsoDate(iso);
  if (parsed === null) throw new Error(`test data: ${iso} is not a date`);
  return parsed;
}

const utc: UtcOffsetAt = () => 0;
const SUNDAY_10_MARCH_2024 = '2024-03-10';

interface Seen {
  status: string;
  dueDate: string | null;
  daysLeft: number | null;
}

/** What the Inspection schedules tab shows for a trigger, a "Last inspected" cell and a day. */
function inspect(trigger: unknown, lastInspectedCell: unknown, today = SUNDAY_10_MARCH_2024): Seen {
  const result = nextInspection({
    trigger,
    lastInspected: parseDateCell(lastInspectedCell, utc),
    today: date(today),
  });
  const dueDate = result.dueDate === null ? null : toIsoDate(result.dueDate);
  return { status: result.status, dueDate, daysLeft: result.daysLeft };
}

const rolling = (frequencyInDays: number, expiringPeriodInDays = 7): Record<string, unknown> => ({
  type: 'time',
  timing: 'rolling',
  frequencyInDays,
  expiringPeriodInDays,
});
const dow = (timingDateNumber: number, frequencyInDays: number, expiringPeriodInDays = 7) => ({
  type: 'time',
  timing: 'dow',
  timingDateNumber,
  frequencyInDays,
  expiringPeriodInDays,
});
const dom = (timingDateNumber: number, frequencyInDays: number, expiringPeriodInDays = 7) => ({
  type: 'time',
  timing: 'dom',
  timingDateNumber,
  frequencyInDays,
  expiringPeriodInDays,
});

type Case = [string, unknown, unknown, string, string, string | null, number | null];

function runCases(cases: Case[]): void {
  test.each(cases)('%s', (_name, trigger, lastInspected, today, status, dueDate, daysLeft) => {
    expect(inspect(trigger, lastInspected, today)).toEqual({ status, dueDate, daysLeft });
  });
}

const NONE = '';
const TODAY = SUNDAY_10_MARCH_2024;

test('the status names are the strings users see and formulas compare against', () => {
  expect(Object.values(InspectionStatus)).toEqual([
    'Expired',
    'Expiring',
    'Up to date',
    'No inspection recorded',
    'Last inspected is not a date',
    'Check Last inspected: in the future',
    'Unsupported schedule',
  ]);
});

describe('a "Last inspected" date after today is flagged, with no due date made up from it (today 2024-03-10)', () => {
  runCases([
    ['rolling, tomorrow', rolling(30), '2024-03-11', TODAY, lastInspectedInFuture, null, null],
    ['rolling, next year', rolling(30), '2025-03-09', TODAY, lastInspectedInFuture, null, null],
    ['dow, tomorrow', dow(20240101, 7), '2024-03-11', TODAY, lastInspectedInFuture, null, null],
    ['dom, in a month', dom(20240131, 30), '2024-04-10', TODAY, lastInspectedInFuture, null, null],
    ['rolling, today is not the future', rolling(30), TODAY, TODAY, upToDate, '2024-04-09', 30],
    ['dow, today is not the future', dow(20240101, 7, 0), TODAY, TODAY, upToDate, '2024-03-11', 1],
    ['rolling, yesterday', rolling(1, 0), '2024-03-09', TODAY, expiring, TODAY, 0],
  ]);

  test('the reason names the date and today', () => {
    const result = nextInspection({
      trigger: rolling(30),
      lastInspected: parseDateCell('2042-03-01', utc),
      today: date(TODAY),
    });
    expect(result.reason).toBe(
      'Last inspected 2042-03-01 is after today (2024-03-10): enter the date of the last inspection done',
    );
  });

  test('an unsupported schedule is reported before the date', () => {
    const result = nextInspection({
      trigger: { ...rolling(30), timing: 'hourly' },
      lastInspected: parseDateCell('2042-03-01', utc),
      today: date(TODAY),
    });
    expect(result.status).toBe(unsupportedSchedule);
  });
});

describe('rolling: due = last inspection + frequencyInDays', () => {
  runCases([
    ['up to date', rolling(30), '2024-02-20', TODAY, upToDate, '2024-03-21', 11],
    ['expiring within the period', rolling(30, 14), '2024-02-20', TODAY, expiring, '2024-03-21', 11],
    ['expired', rolling(30), '2024-01-01', TODAY, expired, '2024-01-31', -39],
    ['across a leap day', rolling(28), '2024-02-01', '2024-02-20', upToDate, '2024-02-29', 9],
    ['a year on, over 2024-02-29', rolling(365), '2023-03-10', TODAY, expired, '2024-03-09', -1],
    ['no inspection recorded', rolling(30), NONE, TODAY, noInspectionRecorded, null, null],
    ['last inspected as a sheet serial', rolling(30), 45_342, TODAY, upToDate, '2024-03-21', 11],
    [
      'last inspected in the future: flagged',
      rolling(30),
      '2024-04-01',
      TODAY,
      lastInspectedInFuture,
      null,
      null,
    ],
    [
      'a timingDateNumber is ignored',
      { ...rolling(30), timingDateNumber: 20230229 },
      '2024-02-20',
      TODAY,
      upToDate,
      '2024-03-21',
      11,
    ],
  ]);

  test('without an inspection the reason says what to enter', () => {
    const result = nextInspection({ trigger: rolling(30), today: date(TODAY) });
    expect(result.status).toBe(noInspectionRecorded);
    expect(result.reason).toMatch(/Last inspected/);
  });
});

describe('status boundaries (today 2024-03-10)', () => {
  runCases([
    ['due yesterday', rolling(10, 5), '2024-02-28', TODAY, expired, '2024-03-09', -1],
    ['due today', rolling(10, 5), '2024-02-29', TODAY, expiring, '2024-03-10', 0],
    ['due today + period', rolling(10, 5), '2024-03-05', TODAY, expiring, '2024-03-15', 5],
    ['due today + period + 1', rolling(10, 5), '2024-03-06', TODAY, upToDate, '2024-03-16', 6],
    ['period 0, due yesterday', rolling(10, 0), '2024-02-28', TODAY, expired, '2024-03-09', -1],
    ['period 0, due today', rolling(10, 0), '2024-02-29', TODAY, expiring, '2024-03-10', 0],
    ['period 0, due tomorrow', rolling(10, 0), '2024-03-01', TODAY, upToDate, '2024-03-11', 1],
  ]);
});

describe('dow: every frequencyInDays days from the anchor', () => {
  runCases([
    // Anchor Monday 2024-01-01; today is Sunday 2024-03-10.
    ['weekly, next Monday', dow(20240101, 7, 3), NONE, TODAY, expiring, '2024-03-11', 1],
    ['weekly, today is an occurrence', dow(20240101, 7, 3), NONE, '2024-03-11', expiring, '2024-03-11', 0],
    [
      'weekly, after an inspection on the day',
      dow(20240101, 7, 3),
      '2024-03-04',
      TODAY,
      expiring,
      '2024-03-11',
      1,
    ],
    ['weekly, inspection missed', dow(20240101, 7, 3), '2024-02-20', TODAY, expired, '2024-02-26', -13],
    ['fortnightly', dow(20240108, 14, 3), NONE, TODAY, upToDate, '2024-03-18', 8],
    ['every 10 days (weekday not kept)', dow(20240301, 10, 0), NONE, TODAY, upToDate, '2024-03-11', 1],
    ['anchor in the future', dow(20240401, 7), NONE, TODAY, upToDate, '2024-04-01', 22],
    [
      'anchor in the future, inspected before it',
      dow(20240401, 7),
      '2024-03-01',
      TODAY,
      upToDate,
      '2024-04-01',
      22,
    ],
    ['anchor today', dow(20240310, 7, 0), NONE, TODAY, expiring, '2024-03-10', 0],
    ['inspected on the anchor', dow(20240310, 7), '2024-03-10', TODAY, expiring, '2024-03-17', 7],
  ]);

  test.each(['2024-03-10', '2024-03-11', '2024-07-04', '2025-02-28', '2028-02-29'])(
    'a multiple of 7 keeps the anchor weekday (today %s)',
    (today) => {
      for (const frequencyInDays of [7, 14, 28]) {
        const result = nextInspection({ trigger: dow(20240101, frequencyInDays), today: date(today) });
        expect(isoDayOfWeek(result.dueDate as CalendarDate)).toBe(1);
      }
    },
  );
});

describe('dom: the anchor day of month, every round(frequencyInDays / 30) months', () => {
  runCases([
    ['monthly, later this month', dom(20240115, 30), NONE, TODAY, expiring, '2024-03-15', 5],
    ['monthly, due today', dom(20240115, 30), NONE, '2024-03-15', expiring, '2024-03-15', 0],
    [
      'monthly, inspected on the day',
      dom(20240115, 30),
      '2024-03-15',
      '2024-03-20',
      upToDate,
      '2024-04-15',
      26,
    ],
    ['monthly, inspection missed', dom(20240115, 30), '2024-02-01', TODAY, expired, '2024-02-15', -24],
    ['anchor in the future', dom(20240630, 90), NONE, TODAY, upToDate, '2024-06-30', 112],
    [
      'anchor in the future, inspected before it',
      dom(20240630, 90),
      '2024-05-01',
      '2024-05-02',
      upToDate,
      '2024-06-30',
      59,
    ],
    ['across a year end', dom(20231130, 60), NONE, '2024-02-01', upToDate, '2024-03-30', 58],

    // Frequencies that are not whole months.
    ['45 days → every 2 months', dom(20240115, 45), NONE, '2024-03-16', upToDate, '2024-05-15', 60],
    [
      '45 days → every 2 months, after an inspection',
      dom(20240115, 45),
      '2024-01-20',
      TODAY,
      expiring,
      '2024-03-15',
      5,
    ],
    ['10 days → at least every month', dom(20240115, 10), NONE, '2024-02-16', upToDate, '2024-03-15', 28],
    [
      '15 days → half a month rounds up to 1',
      dom(20240115, 15),
      NONE,
      '2024-02-16',
      upToDate,
      '2024-03-15',
      28,
    ],
    [
      '75 days → 2.5 months rounds up to 3',
      dom(20240115, 75),
      NONE,
      '2024-02-01',
      upToDate,
      '2024-04-15',
      74,
    ],
    ['365 days → every 12 months', dom(20230601, 365), NONE, TODAY, upToDate, '2024-06-01', 83],

    // Month ends: a day the month lacks becomes its last day, and the anchor day comes back.
    ['31st in leap February', dom(20240131, 30), NONE, '2024-02-10', upToDate, '2024-02-29', 19],
    ['31st in March after February', dom(20240131, 30), '2024-02-29', TODAY, upToDate, '2024-03-31', 21],
    ['31st in April', dom(20240131, 30), NONE, '2024-04-05', upToDate, '2024-04-30', 25],
    ['31st, inspected mid-April', dom(20240131, 30), '2024-04-15', '2024-04-20', upToDate, '2024-04-30', 10],
    ['31st in non-leap February', dom(20230131, 30), NONE, '2023-02-10', upToDate, '2023-02-28', 18],
    [
      '31st, March after non-leap February',
      dom(20230131, 30),
      '2023-02-28',
      '2023-03-01',
      upToDate,
      '2023-03-31',
      30,
    ],
    ['29th in non-leap February', dom(20230129, 30), NONE, '2023-02-10', upToDate, '2023-02-28', 18],
    ['29th in leap February', dom(20230129, 30), NONE, '2024-02-10', upToDate, '2024-02-29', 19],
    ['29th back in March', dom(20230129, 30), '2023-02-28', '2023-03-01', upToDate, '2023-03-29', 28],
    ['30th in leap February', dom(20240130, 30), NONE, '2024-02-10', upToDate, '2024-02-29', 19],
    ['30th back in March', dom(20240130, 30), '2024-02-29', TODAY, upToDate, '2024-03-30', 20],
    ['Feb 29 yearly, non-leap year', dom(20200229, 365), NONE, '2021-01-01', upToDate, '2021-02-28', 58],
    ['Feb 29 yearly, leap year', dom(20200229, 365), NONE, '2024-01-01', upToDate, '2024-02-29', 59],
  ]);
});

describe('Unsupported schedule, never an exception', () => {
  const valid = dom(20240115, 30);
  test.each<[string, unknown, RegExp]>([
    ['another type', { ...valid, type: 'usage' }, /Trigger type "usage" is not supported/],
    ['no type', { ...valid, type: undefined }, /Trigger type missing/],
    ['another timing', { ...valid, timing: 'weekly' }, /Timing "weekly" is not supported/],
    ['timing in capitals', { ...valid, timing: 'DOM' }, /Timing "DOM" is not supported/],
    ['no timing', { ...valid, timing: undefined }, /Timing missing/],
    ['frequency 0', { ...valid, frequencyInDays: 0 }, /frequencyInDays 0 is not a whole number/],
    ['negative frequency', { ...valid, frequencyInDays: -7 }, /frequencyInDays -7/],
    ['fractional frequency', { ...valid, frequencyInDays: 7.5 }, /frequencyInDays 7.5/],
    ['frequency as text', { ...valid, frequencyInDays: '30' }, /frequencyInDays "30"/],
    ['frequency as a list', { ...valid, frequencyInDays: [30] }, /frequencyInDays a list is not/],
    ['no frequency', { ...valid, frequencyInDays: undefined }, /frequencyInDays missing/],
    ['rolling without frequency', { ...rolling(30), frequencyInDays: null }, /frequencyInDays null/],
    ['no expiring period', { ...valid, expiringPeriodInDays: undefined }, /expiringPeriodInDays missing/],
    ['negative expiring period', { ...valid, expiringPeriodInDays: -1 }, /expiringPeriodInDays -1/],
    ['dom without timingDateNumber', { ...valid, timingDateNumber: undefined }, /timingDateNumber missing/],
    ['dow without timingDateNumber', { ...dow(20240101, 7), timingDateNumber: undefined }, /for dow/],
    ['dow on 2023-02-29', dow(20230229, 7), /timingDateNumber 20230229 is not a date/],
    ['dom in month 13', dom(20241301, 30), /timingDateNumber 20241301 is not a date/],
    ['date number as text', { ...valid, timingDateNumber: '20240115' }, /timingDateNumber "20240115"/],
    ['date number as an object', { ...valid, timingDateNumber: { value: 1 } }, /an object/],
    ['no trigger', undefined, /no trigger/],
    ['null trigger', null, /no trigger/],
    ['a trigger that is text', 'time', /no trigger/],
    ['a trigger that is a list', [], /Trigger type missing/],
  ])('%s', (_name, trigger, reason) => {
    const result = nextInspection({
      trigger,
      lastInspected: parseDateCell('2024-03-01', utc),
      today: date(TODAY),
    });
    expect(result).toEqual({
      status: unsupportedSchedule,
      dueDate: null,
      daysLeft: null,
      reason: expect.any(String),
    });
    expect(result.reason).toMatch(reason);
  });
});

describe('"Last inspected" that is not a date', () => {
  test.each<[string, unknown, unknown]>([
    ['rolling, words', rolling(30), 'last week'],
    ['dom, an unreal date', dom(20240115, 30), '2023-02-29'],
    ['dow, a boolean', dow(20240101, 7), true],
    ['rolling, an invalid Date', rolling(30), new Date(Number.NaN)],
  ])('%s', (_name, trigger, cell) => {
    const result = nextInspection({ trigger, lastInspected: parseDateCell(cell, utc), today: date(TODAY) });
    expect(result).toMatchObject({ status: lastInspectedNotADate, dueDate: null, daysLeft: null });
    expect(result.reason).toMatch(/^Last inspected is not a date: .+\. Enter a date such as 2024-03-10$/);
  });

  test('the reason quotes what the user typed', () => {
    const result = nextInspection({
      trigger: rolling(30),
      lastInspected: parseDateCell('last week', utc),
      today: date(TODAY),
    });
    expect(result.reason).toBe('Last inspected is not a date: "last week". Enter a date such as 2024-03-10');
  });

  test('an unsupported schedule is reported before the cell', () => {
    const result = nextInspection({
      trigger: { ...rolling(30), type: 'usage' },
      lastInspected: parseDateCell('last week', utc),
      today: date(TODAY),
    });
    expect(result.status).toBe(unsupportedSchedule);
  });
});

describe('time zones: only the injected today depends on the zone', () => {
  const sameInstant = Date.UTC(2024, 2, 10, 12, 0);
  const utcPlus14: UtcOffsetAt = () => 14 * 60;
  const utcMinus11: UtcOffsetAt = () => -11 * 60;
  // "Last inspected" 2024-02-29 as each spreadsheet's getValues returns it: midnight in its zone.
  const midnightOf29FebIn = (offsetHours: number) =>
    new Date(Date.UTC(2024, 1, 29) - offsetHours * 3_600_000);

  test.each<[string, UtcOffsetAt, Date, string, Seen]>([
    [
      'UTC+14',
      utcPlus14,
      midnightOf29FebIn(14),
      '2024-03-11',
      { status: expired, dueDate: '2024-03-10', daysLeft: -1 },
    ],
    [
      'UTC−11',
      utcMinus11,
      midnightOf29FebIn(-11),
      '2024-03-10',
      { status: expiring, dueDate: '2024-03-10', daysLeft: 0 },
    ],
  ])('in %s', (_zone, offsetAt, lastInspectedCell, expectedToday, seen) => {
    const today = calendarDateAt(sameInstant, offsetAt);
    expect(toIsoDate(today)).toBe(expectedToday);
    for (const lastInspected of [
      parseDateCell(lastInspectedCell, offsetAt),
      parseDateCell('2024-02-29', offsetAt),
    ]) {
      const result = nextInspection({ trigger: rolling(10, 5), lastInspected, today });
      const dueDate = result.dueDate === null ? null : toIsoDate(result.dueDate);
      expect({ status: result.status, dueDate, daysLeft: result.daysLeft }).toEqual(seen);
    }
  });

  test.each<[string, UtcOffsetAt, string, string]>([
    ['UTC+14', utcPlus14, '2024-03-11', '2024-04-10'],
    ['UTC−11', utcMinus11, '2024-03-11', '2024-03-10'],
  ])(
    'dow and dom anchors are date-only: in %s the weekly is due %s and the monthly %s',
    (_zone, offsetAt, weeklyDue, monthlyDue) => {
      const today = calendarDateAt(sameInstant, offsetAt);
      const weekly = nextInspection({ trigger: dow(20240101, 7), today });
      const monthly = nextInspection({ trigger: dom(20240310, 30), today });
      expect(toIsoDate(weekly.dueDate as CalendarDate)).toBe(weeklyDue);
      expect(toIsoDate(monthly.dueDate as CalendarDate)).toBe(monthlyDue);
    },
  );
});

describe("a schedule's timing in words, as Upcoming inspections and the schedules tab show it", () => {
  const time = { type: 'time', expiringPeriodInDays: 5 };
  test.each<[Record<string, unknown>, string]>([
    [{ timing: 'rolling', frequencyInDays: 45 }, '45 days after the last inspection'],
    [{ timing: 'rolling', frequencyInDays: 1 }, '1 day after the last inspection'],
    // 2024-01-01 was a Monday.
    [{ timing: 'dow', frequencyInDays: 7, timingDateNumber: 20240101 }, 'every week on Monday'],
    [{ timing: 'dow', frequencyInDays: 14, timingDateNumber: 20240103 }, 'every 2 weeks on Wednesday'],
    [
      { timing: 'dow', frequencyInDays: 10, timingDateNumber: 20240107 },
      'every 10 days from Sunday 2024-01-07',
    ],
    [{ timing: 'dom', frequencyInDays: 60, timingDateNumber: 20240103 }, 'every 2 months on the 3rd'],
    [{ timing: 'dom', frequencyInDays: 30, timingDateNumber: 20240121 }, 'every month on the 21st'],
    [{ timing: 'dom', frequencyInDays: 365, timingDateNumber: 20240112 }, 'every 12 months on the 12th'],
    [{ timing: 'dom', frequencyInDays: 10, timingDateNumber: 20240102 }, 'every month on the 2nd'],
    [
      { timing: 'dom', frequencyInDays: 90, timingDateNumber: 20240131 },
      "every 3 months on the 31st (or the month's last day)",
    ],
  ])('%p reads %p', (trigger, words) => {
    expect(scheduleTerms({ ...time, ...trigger })).toEqual({ timing: words, expiringPeriodInDays: 5 });
  });

  test('every day of the month as it is said, the 29th to the 31st with what a shorter month does', () => {
    const said = (day: number) =>
      scheduleTerms({ ...time, timing: 'dom', frequencyInDays: 30, timingDateNumber: 20240100 + day })!
        .timing;
    const suffixes = Array.from({ length: 31 }, (_, index) =>
      said(index + 1).replace(/^every month on the \d+/, ''),
    );
    expect(suffixes).toEqual([
      ...['st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th', 'th'],
      ...['th', 'th', 'th', 'th', 'th', 'th', 'th', 'th', 'th', 'th'],
      ...['st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th'],
      ..."th (or the month's last day),th (or the month's last day),st (or the month's last day)".split(','),
    ]);
  });

  test('a weekly schedule on each day of the week', () => {
    // 2024-01-01 was a Monday.
    const weekdays = Array.from(
      { length: 7 },
      (_, index) =>
        scheduleTerms({ ...time, timing: 'dow', frequencyInDays: 7, timingDateNumber: 20240101 + index })!
          .timing,
    );
    expect(weekdays).toEqual(
      ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map(
        (day) => `every week on ${day}`,
      ),
    );
  });

  test('an unsupported schedule has no terms to show: its Status note says why', () => {
    expect(scheduleTerms({ ...time, timing: 'weekly', frequencyInDays: 7 })).toBeNull();
    expect(scheduleTerms(null)).toBeNull();
  });
});
