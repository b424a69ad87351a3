/**
 * What the custom functions accept as arguments, and the message a user sees for what they do not:
 * always naming the argument (and the cell of a range), never a generic failure.
 */
import {
  commonShape,
  dateCell,
  FormulaArgumentError,
  optionalChoice,
  optionalFlag,
  optionalId,
  optionalLimit,
  single,
} from '../../src/formulas/arguments';
import { inspectionStatusCells, nextInspectionCells } from '../../src/formulas/inspection-formulas';
import { type CalendarDate, fromIsoDate, type UtcOffsetAt } from '../../src/lib/dates';
import { nextInspection, statusOfDueDate } from '../../src/equipment/inspections';

const utc: UtcOffsetAt = () => 0;
const kolkata: UtcOffsetAt = () => 330;
/** A spreadsheet in UTC, as is the script. */
const inUtc = { utcOffsetAt: utc, scriptUtcOffsetAt: utc };
const day = (iso: string): CalendarDate => fromIsoDate(iso)!;
/** The serial of a date-only cell. */
const serial = (iso: string): number => day(iso) + 25_569;

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaArgumentError);
    return (error as Error).message;
  }
  throw new Error('expected a FormulaArgumentError');
}

describe('single values', () => {
  test('a range where one value is expected is refused, naming the argument and the range size', () => {
    expect(messageOf(() => optionalId([['a'], ['b'], ['c']], 'user_id'))).toBe(
      'user_id must be one value, not a range (3×1 cells)',
    );
    expect(messageOf(() => optionalLimit([[1, 2]]))).toMatch(
      /^limit must be one value, not a range \(1×2 cells\)/,
    );
  });

  test('a one-cell range is that cell', () => {
    expect(single([['u1']], 'user_id')).toBe('u1');
  });

  test('ids: text is kept exactly, a number becomes its digits, an empty cell or a left-out argument means none', () => {
    expect(optionalId('  00042 ', 'user_id')).toBe('  00042 ');
    expect(optionalId(42, 'user_id')).toBe('42');
    expect(optionalId('', 'user_id')).toBeUndefined();
    expect(optionalId(undefined, 'user_id')).toBeUndefined();
    expect(optionalId(null, 'user_id')).toBeUndefined();
  });

  test('ids: a date or TRUE/FALSE is not an id', () => {
    expect(messageOf(() => optionalId(new Date(2024, 0, 1), 'training_id'))).toBe(
      'training_id must be an id (text or a number), not a date',
    );
    expect(messageOf(() => optionalId(true, 'user_id'))).toBe(
      'user_id must be an id (text or a number), not true',
    );
  });

  test.each([0, 1001, 2.5, -3, 'many', true])('limit %p is refused with the allowed range', (limit) => {
    expect(messageOf(() => optionalLimit(limit))).toMatch(
      /^limit must be a whole number from 1 to 1000, not /,
    );
  });

  test('limit: 1 to 1000, numeric text too, left out for all', () => {
    expect(optionalLimit(1)).toBe(1);
    expect(optionalLimit(1000)).toBe(1000);
    expect(optionalLimit(' 50 ')).toBe(50);
    expect(optionalLimit('')).toBeUndefined();
  });

  test('flags: TRUE/FALSE, 1/0 or the words; the default when left out; anything else is refused', () => {
    expect(optionalFlag(false, 'with_header', true)).toBe(false);
    expect(optionalFlag(1, 'with_header', false)).toBe(true);
    expect(optionalFlag(' False ', 'with_header', true)).toBe(false);
    expect(optionalFlag(undefined, 'with_header', true)).toBe(true);
    expect(messageOf(() => optionalFlag('yes', 'with_header', true))).toBe(
      'with_header must be TRUE or FALSE, not "yes"',
    );
  });

  test('choices are case-insensitive and listed when missed', () => {
    expect(optionalChoice(' Name ', 'field', ['name', 'id'], 'id')).toBe('name');
    expect(optionalChoice('', 'field', ['name', 'id'], 'name')).toBe('name');
    expect(messageOf(() => optionalChoice('email', 'field', ['name', 'id'], 'name'))).toBe(
      'field must be one of "name", "id", not "email"',
    );
  });
});

describe('dates', () => {
  test('a date cell (midnight in the spreadsheet zone), a whole serial or ISO text is that day', () => {
    // 2024-03-01 00:00 in Kolkata is 2024-02-29 18:30 UTC.
    const kolkataSheet = { utcOffsetAt: kolkata, scriptUtcOffsetAt: utc };
    expect(dateCell(new Date(Date.UTC(2024, 1, 29, 18, 30)), 'today', kolkataSheet)).toBe(day('2024-03-01'));
    expect(dateCell(serial('2024-02-29'), 'today', inUtc)).toBe(day('2024-02-29'));
    expect(dateCell('2024-12-31', 'today', inUtc)).toBe(day('2024-12-31'));
    expect(dateCell('', 'today', inUtc)).toBeNull();
  });

  /**
   * Google does not document whether a date cell reaches a custom function as midnight of the
   * spreadsheet's zone or of the script's: either is the cell's day, for a spreadsheet west or east
   * of the script, also more than 12 hours apart, across the year's last day.
   */
  test.each([
    ['west of the script: New York (UTC−5) with a script in UTC', -300, 0],
    ['east of the script: Kolkata (UTC+5:30) with a script in UTC', 330, 0],
    ['east by almost 12 hours: Auckland (UTC+13) with a script in UTC+1:30', 780, 90],
    ['west by almost 12 hours: Honolulu (UTC−10) with a script in UTC+1:30', -600, 90],
    ['east by 13 hours: Auckland (UTC+13) with a script in UTC', 780, 0],
    ['west by 23 hours: Honolulu (UTC−10) with a script in UTC+13', -600, 780],
  ])('a date cell in a spreadsheet %s is its day in either zone', (_name, sheetOffset, scriptOffset) => {
    const zones = { utcOffsetAt: () => sheetOffset, scriptUtcOffsetAt: () => scriptOffset };
    for (const iso of ['2024-12-31', '2025-01-01']) {
      const [year, month, date] = iso.split('-').map(Number) as [number, number, number];
      const midnightIn = (offsetMinutes: number) =>
        new Date(Date.UTC(year, month - 1, date) - offsetMinutes * 60_000);
      expect([iso, dateCell(midnightIn(sheetOffset), 'today', zones)]).toEqual([iso, day(iso)]);
      expect([iso, dateCell(midnightIn(scriptOffset), 'today', zones)]).toEqual([iso, day(iso)]);
    }
  });

  test('something that is not a date is refused with what was given and an example', () => {
    expect(messageOf(() => dateCell('next week', 'due_date', inUtc))).toBe(
      'due_date is not a date: "next week". Give a date cell, DATE(2024, 3, 1) or "2024-03-01"',
    );
    expect(messageOf(() => dateCell(true, 'due_date', inUtc))).toMatch(/^due_date is not a date: true/);
  });

  test('a time of day, as NOW() gives, is refused: the formula would never settle', () => {
    const now = new Date(Date.UTC(2024, 2, 1, 14, 5));
    expect(messageOf(() => dateCell(now, 'today', inUtc))).toMatch(
      /^today has a time of day, as NOW\(\) gives.*TODAY\(\)/,
    );
    // Neither a midnight of the spreadsheet's zone (New York) nor of the script's (UTC).
    const newYork = { utcOffsetAt: () => -300, scriptUtcOffsetAt: utc };
    expect(messageOf(() => dateCell(new Date(Date.UTC(2024, 2, 1, 3)), 'today', newYork))).toMatch(
      /^today has a time of day/,
    );
    expect(messageOf(() => dateCell(serial('2024-03-01') + 0.25, 'last_inspected', inUtc))).toMatch(
      /^last_inspected has a time of day/,
    );
  });
});

describe('ranges', () => {
  test('ranges of different sizes are refused, naming both', () => {
    expect(
      messageOf(() =>
        commonShape({ timing: [['dow'], ['dom']], timing_date: [[1], [2], [3]], frequency_days: 7 }),
      ),
    ).toBe('timing_date is a 3×1 range but timing is 2×1: give ranges of the same size, or one value');
  });

  test('one value applies to every row of the ranges', () => {
    expect(commonShape({ timing: 'dow', frequency_days: [[7], [14]] })).toEqual({ rows: 2, columns: 1 });
    expect(commonShape({ timing: 'dow' })).toEqual({ rows: 1, columns: 1 });
  });
});

describe('SAFETY_NEXT_INSPECTION and SAFETY_INSPECTION_STATUS follow the inspection rules', () => {
  const clock = { ...inUtc, today: () => day('2024-03-10') };

  test.each([
    ['dow', '2024-01-01', 7, '', '2024-03-11'],
    ['dow', '2024-01-01', 7, '2024-03-04', '2024-03-11'],
    ['dom', '2024-01-31', 30, '', '2024-03-31'],
    ['dom', '2024-01-31', 30, '2024-01-31', '2024-02-29'],
    ['rolling', '', 30, '2024-02-01', '2024-03-02'],
  ])(
    '%s from %s every %d days, last inspected %p: due %s, as the model says',
    (timing, anchor, frequency, last, due) => {
      const [cells] = nextInspectionCells(
        { timing, timing_date: anchor, frequency_days: frequency, last_inspected: last, today: undefined },
        clock,
      );
      expect(cells).toEqual([day(due)]);
      const model = nextInspection({
        trigger: {
          type: 'time',
          timing,
          timingDateNumber: anchor ? Number(anchor.replace(/-/g, '')) : undefined,
          frequencyInDays: frequency,
          expiringPeriodInDays: 0,
        },
        lastInspected: last ? { kind: 'date', date: day(last) } : { kind: 'empty' },
        today: day('2024-03-10'),
      });
      expect(model.dueDate).toBe(day(due));
    },
  );

  test('without a due date the reason takes its place, as on the Inspection schedules tab', () => {
    const cells = nextInspectionCells(
      {
        timing: [['rolling'], ['hourly'], ['dow'], ['']],
        timing_date: [[''], [serial('2024-01-01')], [''], ['']],
        frequency_days: [[30], [1], [7], ['']],
        last_inspected: undefined,
        today: undefined,
      },
      clock,
    );
    expect(cells).toEqual([
      ['No inspection recorded'],
      ['Unsupported schedule'],
      ['Unsupported schedule'],
      [''],
    ]);
  });

  test('a bad cell of a range is named with its row', () => {
    const run = () =>
      nextInspectionCells(
        {
          timing: [['dow'], ['dow']],
          timing_date: [['2024-01-01'], ['soon']],
          frequency_days: 7,
          last_inspected: undefined,
          today: undefined,
        },
        clock,
      );
    expect(messageOf(run)).toMatch(/^timing_date \(row 2 of the range\) is not a date: "soon"/);
  });

  test('timing is required; a frequency that is not a number is refused', () => {
    const noTiming = { timing: undefined, timing_date: '', frequency_days: 7, last_inspected: '', today: '' };
    expect(messageOf(() => nextInspectionCells(noTiming, clock))).toBe(
      'timing is required: rolling, dom or dow',
    );
    const wordy = { ...noTiming, timing: 'rolling', frequency_days: 'weekly', last_inspected: '2024-03-01' };
    expect(messageOf(() => nextInspectionCells(wordy, clock))).toBe(
      'frequency_days must be a number, not "weekly"',
    );
  });

  test.each([
    ['2024-03-09', 5, 'Expired'],
    ['2024-03-10', 0, 'Expiring'],
    ['2024-03-15', 5, 'Expiring'],
    ['2024-03-16', 5, 'Up to date'],
  ])('due %s with %d expiring days on 2024-03-10: %s', (due, expiring, status) => {
    expect(statusOfDueDate(day(due), expiring, day('2024-03-10'))).toBe(status);
    expect(
      inspectionStatusCells({ due_date: due, expiring_days: expiring, today: '2024-03-10' }, clock),
    ).toEqual([[status]]);
  });

  test('a last_inspected after today is flagged as on the tab, and the status function passes the flag on', () => {
    const next = nextInspectionCells(
      {
        timing: 'rolling',
        timing_date: '',
        frequency_days: 30,
        last_inspected: '2024-03-11',
        today: undefined,
      },
      clock,
    )[0]![0];
    expect(next).toBe('Check Last inspected: in the future');
    expect(inspectionStatusCells({ due_date: next, expiring_days: 7, today: undefined }, clock)).toEqual([
      ['Check Last inspected: in the future'],
    ]);
  });

  test.each([
    ['2024-03-11', 0, 'Up to date'],
    ['2024-03-12', 5, 'Expiring'],
    ['2030-01-01', 5, 'Up to date'],
  ])(
    'a due date after today is a due date, not a "Last inspected" to check: due %s, %d expiring days: %s',
    (due, expiring, status) => {
      expect(
        inspectionStatusCells({ due_date: due, expiring_days: expiring, today: undefined }, clock),
      ).toEqual([[status]]);
    },
  );

  test('a range of due dates gives a column of statuses; reasons and empty rows pass through', () => {
    const cells = inspectionStatusCells(
      {
        due_date: [[serial('2024-03-01')], ['No inspection recorded'], [''], [serial('2024-06-01')]],
        expiring_days: 14,
        today: undefined,
      },
      clock,
    );
    expect(cells).toEqual([['Expired'], ['No inspection recorded'], [''], ['Up to date']]);
  });

  test('expiring_days must be a whole number of 0 or more', () => {
    const run = (expiring: unknown) => () =>
      inspectionStatusCells({ due_date: '2024-03-01', expiring_days: expiring, today: undefined }, clock);
    expect(messageOf(run(-1))).toBe('expiring_days must be a whole number of 0 or more, not -1');
    expect(messageOf(run(undefined))).toMatch(/^expiring_days is required/);
  });
});
