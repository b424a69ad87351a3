import { type CalendarDate, fromIsoDate, toIsoDate } from '../../src/lib/dates';
import {
  type CompletionFacts,
  isCompliant,
  NOT_REQUIRED,
  REQUIRED_NOW,
  statusNotDone,
  statusOf,
  TrainingStatus,
  trainingStatus,
} from '../../src/trainings/training-status';

const { valid, validNoExpiry, expiring, expired, notDone } = TrainingStatus;

function date(iso: string): CalendarDate {
  const parsed = fromIsoDate(iso);
  if (parsed === null) throw new Error(`test data: ${iso} is not a date`);
  return parsed;
}

/** A completion on `completed`, entered at `created` (any increasing number), maybe with a special expiration. */
function done(completed: string, special: string | null = null, created = 0): CompletionFacts {
  return { completed: date(completed), specialExpiration: special === null ? null : date(special), created };
}

interface Seen {
  status: string;
  expiry: string | null;
  daysLeft: number | null;
}

function status(
  completions: CompletionFacts[],
  validityMonths: number | null,
  day: string,
  expiringDays = 30,
): Seen {
  const result = trainingStatus(completions, { validityMonths, expiringDays }, date(day));
  return {
    status: result.status,
    expiry: result.expiry === null ? null : toIsoDate(result.expiry),
    daysLeft: result.daysLeft,
  };
}

type Case = [string, CompletionFacts[], number | null, string, number, Seen];

const cases: Case[] = [
  ['no completion: Not done', [], 12, '2024-03-01', 30, { status: notDone, expiry: null, daysLeft: null }],
  [
    'no validity and no special expiration: Valid (no expiry)',
    [done('2020-01-15')],
    null,
    '2024-03-01',
    30,
    { status: validNoExpiry, expiry: null, daysLeft: null },
  ],
  [
    'validity in calendar months',
    [done('2023-06-15')],
    12,
    '2024-03-01',
    30,
    { status: valid, expiry: '2024-06-15', daysLeft: 106 },
  ],
  [
    'a day the month lacks becomes its last day (31 Jan + 1 month in a leap year)',
    [done('2024-01-31')],
    1,
    '2024-02-01',
    0,
    { status: valid, expiry: '2024-02-29', daysLeft: 28 },
  ],
  [
    '29 Feb + 12 months is 28 Feb',
    [done('2024-02-29')],
    12,
    '2025-02-28',
    0,
    { status: expiring, expiry: '2025-02-28', daysLeft: 0 },
  ],
  [
    'within the expiring window: Expiring',
    [done('2023-03-20')],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-20', daysLeft: 19 },
  ],
  [
    'the first day of the window',
    [done('2023-03-31')],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-31', daysLeft: 30 },
  ],
  [
    'the day before the window',
    [done('2023-04-01')],
    12,
    '2024-03-01',
    30,
    { status: valid, expiry: '2024-04-01', daysLeft: 31 },
  ],
  [
    'on the expiry day it is still held',
    [done('2023-03-01')],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-01', daysLeft: 0 },
  ],
  [
    'the day after the expiry: Expired',
    [done('2023-02-28')],
    12,
    '2024-02-29',
    30,
    { status: expired, expiry: '2024-02-28', daysLeft: -1 },
  ],
  [
    'a window of 0 days: Expiring on the expiry day only',
    [done('2023-03-02')],
    12,
    '2024-03-01',
    0,
    { status: valid, expiry: '2024-03-02', daysLeft: 1 },
  ],
  [
    'a special expiration wins over the validity',
    [done('2023-06-15', '2024-03-10')],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-10', daysLeft: 9 },
  ],
  [
    'a special expiration gives an expiry to a training that never expires',
    [done('2020-06-15', '2023-06-15')],
    null,
    '2024-03-01',
    30,
    { status: expired, expiry: '2023-06-15', daysLeft: -260 },
  ],
  [
    'the latest completion decides: a renewal makes it valid again',
    [done('2022-01-10'), done('2023-12-01')],
    12,
    '2024-03-01',
    30,
    { status: valid, expiry: '2024-12-01', daysLeft: 275 },
  ],
  [
    "an older completion's special expiration never revives a newer one that has expired",
    [done('2021-01-10', '2030-01-01'), done('2022-05-01')],
    12,
    '2024-03-01',
    30,
    { status: expired, expiry: '2023-05-01', daysLeft: -305 },
  ],
  [
    'the same day: the later created decides',
    [done('2023-06-15', '2024-03-05', 2), done('2023-06-15', null, 1)],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-05', daysLeft: 4 },
  ],
  [
    'the same day and entered at the same moment: the one listed first (the newest on the tab) decides',
    [done('2023-06-15', '2024-03-05', 1), done('2023-06-15', null, 1)],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-05', daysLeft: 4 },
  ],
  [
    'the same day, listed the other way round',
    [done('2023-06-15', null, 1), done('2023-06-15', '2024-03-05', 2)],
    12,
    '2024-03-01',
    30,
    { status: expiring, expiry: '2024-03-05', daysLeft: 4 },
  ],
  [
    'as of a day before a renewal: the completion held then decides',
    [done('2022-01-10'), done('2023-12-01')],
    12,
    '2023-02-01',
    30,
    { status: expired, expiry: '2023-01-10', daysLeft: -22 },
  ],
  [
    'as of a day before every completion: Not done',
    [done('2022-01-10')],
    12,
    '2022-01-09',
    30,
    { status: notDone, expiry: null, daysLeft: null },
  ],
  [
    'as of the completion day itself: done',
    [done('2022-01-10')],
    12,
    '2022-01-10',
    30,
    { status: valid, expiry: '2023-01-10', daysLeft: 365 },
  ],
];

test.each(cases)('%s', (_name, completions, validityMonths, day, expiringDays, expected) => {
  expect(status(completions, validityMonths, day, expiringDays)).toEqual(expected);
});

test.each([
  [valid, true],
  [validNoExpiry, true],
  [expiring, true],
  [expired, false],
  [notDone, false],
])('%s counts as compliant: %s', (seen, compliant) => {
  expect(isCompliant(seen)).toBe(compliant);
});

test('Expired and Expiring are the words inspections use', () => {
  expect([expired, expiring]).toEqual(['Expired', 'Expiring']);
});

test('the status words are the ones the matrix, the lists and the custom functions show', () => {
  expect(Object.values(TrainingStatus)).toEqual([
    'Valid',
    'Valid (no expiry)',
    'Expiring',
    'Expired',
    'Not done',
    'Due by',
    'Not required',
    'Exempt',
  ]);
});

test('a pair not done: Not done when required now, Due by until the due day (included), Not required when nothing asks it', () => {
  const today = date('2026-03-10');
  expect(statusNotDone(REQUIRED_NOW, today)).toEqual({ status: notDone, expiry: null, daysLeft: null });
  expect(statusNotDone({ required: true, dueBy: date('2026-03-12') }, today)).toEqual({
    status: 'Due by',
    expiry: date('2026-03-12'),
    daysLeft: 2,
  });
  expect(statusNotDone({ required: true, dueBy: today }, today).status).toBe('Due by');
  expect(statusNotDone({ required: true, dueBy: date('2026-03-09') }, today).status).toBe(notDone);
  expect(statusNotDone(NOT_REQUIRED, today)).toEqual({
    status: 'Not required',
    expiry: null,
    daysLeft: null,
  });
  // A completion decides whatever the obligation says.
  const held = { completed: date('2026-01-01'), specialExpiration: null, created: 0 };
  expect(statusOf(held, { validityMonths: 12, expiringDays: 30 }, today, NOT_REQUIRED).status).toBe(valid);
  expect(['Due by', 'Not required'].some((status) => isCompliant(status as TrainingStatus))).toBe(false);
});
