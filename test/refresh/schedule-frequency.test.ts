/**
 * The refresh frequency's rules on their own (src/refresh/schedule-frequency.ts): what the dialog
 * offers, how its form is read and refused, how a schedule is described, how far apart its runs may
 * be, the dialog's fields for it, and what older versions stored. The trigger it builds and the "last
 * day" runs are driven end to end in test/refresh/schedule.test.ts.
 */
import {
  configureTrigger,
  describeFrequency,
  type Frequency,
  frequencyFields,
  frequencyFromForm,
  intervalMs,
  readStoredFrequency,
  scheduleOptions,
} from '../../src/refresh/schedule-frequency';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The field a form is refused on, and the sentence the dialog shows under it. */
function refusal(form: Parameters<typeof frequencyFromForm>[0]): { field: unknown; message: string } {
  try {
    frequencyFromForm(form);
  } catch (error) {
    return { field: (error as { field?: unknown }).field, message: (error as Error).message };
  }
  throw new Error(`${JSON.stringify(form)} was accepted`);
}

describe('what the dialog offers', () => {
  const options = scheduleOptions();

  test('off, the six hourly intervals Apps Script allows, every day and every month, with the fields each uses', () => {
    expect(options.every).toEqual([
      { value: 'off', label: 'Off', uses: [] },
      { value: '1', label: 'Every hour', uses: [] },
      { value: '2', label: 'Every 2 hours', uses: [] },
      { value: '4', label: 'Every 4 hours', uses: [] },
      { value: '6', label: 'Every 6 hours', uses: [] },
      { value: '8', label: 'Every 8 hours', uses: [] },
      { value: '12', label: 'Every 12 hours', uses: [] },
      { value: 'daily', label: 'Every day', uses: ['atHour'] },
      { value: 'monthly', label: 'Every month', uses: ['monthDay', 'atHour'] },
    ]);
  });

  test('every hour of the day, written 00:00 to 23:00', () => {
    expect(options.atHour).toHaveLength(24);
    expect(options.atHour[0]).toEqual({ value: '0', label: '00:00' });
    expect(options.atHour[9]).toEqual({ value: '9', label: '09:00' });
    expect(options.atHour[10]).toEqual({ value: '10', label: '10:00' });
    expect(options.atHour[23]).toEqual({ value: '23', label: '23:00' });
  });

  test('days 1 to 28, which every month has, then the last day', () => {
    expect(options.monthDay.map((day) => day.value)).toEqual([
      ...Array.from({ length: 28 }, (_, index) => String(index + 1)),
      'last',
    ]);
    expect(options.monthDay[0]).toEqual({ value: '1', label: '1' });
    expect(options.monthDay[28]).toEqual({ value: 'last', label: 'Last day' });
  });

  test('every choice offered is one the form accepts', () => {
    for (const every of options.every) {
      for (const atHour of options.atHour) {
        for (const monthDay of options.monthDay) {
          expect(() =>
            frequencyFromForm({ every: every.value, atHour: atHour.value, monthDay: monthDay.value }),
          ).not.toThrow();
        }
      }
    }
  });
});

describe('reading the form', () => {
  test('off is no schedule', () => {
    expect(frequencyFromForm({ every: 'off' })).toBeNull();
  });

  test.each([1, 2, 4, 6, 8, 12] as const)('every %i hours', (hours) => {
    expect(frequencyFromForm({ every: String(hours), atHour: '5', monthDay: '3' })).toEqual({
      kind: 'hourly',
      hours,
    });
  });

  test('daily at an hour, given as text or as a number; the day of the month is not its concern', () => {
    expect(frequencyFromForm({ every: 'daily', atHour: '0' })).toEqual({ kind: 'daily', hour: 0 });
    expect(frequencyFromForm({ every: 'daily', atHour: 23, monthDay: 'nonsense' })).toEqual({
      kind: 'daily',
      hour: 23,
    });
  });

  test('monthly on a day from 1 to 28, or the last day, at an hour', () => {
    expect(frequencyFromForm({ every: 'monthly', atHour: '6', monthDay: '1' })).toEqual({
      kind: 'monthly',
      day: 1,
      hour: 6,
    });
    expect(frequencyFromForm({ every: 'monthly', atHour: '18', monthDay: 28 })).toEqual({
      kind: 'monthly',
      day: 28,
      hour: 18,
    });
    expect(frequencyFromForm({ every: 'monthly', atHour: '7', monthDay: 'last' })).toEqual({
      kind: 'monthly',
      day: 'last',
      hour: 7,
    });
  });

  test.each(['3', '24', '0.5', '', 'weekly', 'Daily'])(
    'refuses "%s" as how often, naming every choice',
    (every) => {
      expect(refusal({ every, atHour: '6', monthDay: '1' })).toEqual({
        field: 'every',
        message: 'Choose every 1, 2, 4, 6, 8 or 12 hours, daily, monthly, or off.',
      });
    },
  );

  test('refuses a form without how often, or no form at all', () => {
    expect(refusal({} as never).field).toBe('every');
    expect(refusal(null as never).field).toBe('every');
  });

  test.each([['-1'], ['24'], ['6.5'], [''], ['six'], [undefined]])(
    'refuses %p as the hour of a daily or monthly refresh',
    (atHour) => {
      const message = 'Choose the hour of the day, from 00:00 to 23:00.';
      expect(refusal({ every: 'daily', atHour })).toEqual({ field: 'atHour', message });
      expect(refusal({ every: 'monthly', atHour, monthDay: '1' })).toEqual({ field: 'atHour', message });
    },
  );

  test.each([['0'], ['29'], ['31'], ['1.5'], [''], ['Last'], [undefined]])(
    'refuses %p as the day of the month',
    (monthDay) => {
      expect(refusal({ every: 'monthly', atHour: '6', monthDay })).toEqual({
        field: 'monthDay',
        message: 'Choose a day of the month from 1 to 28, or the last day.',
      });
    },
  );
});

describe('a schedule described', () => {
  const zone = 'Pacific/Kiritimati';

  test.each<[Frequency, string]>([
    [{ kind: 'hourly', hours: 1 }, 'every hour'],
    [{ kind: 'hourly', hours: 4 }, 'every 4 hours'],
    [{ kind: 'daily', hour: 6 }, 'daily between 06:00 and 07:00 (Pacific/Kiritimati)'],
    [{ kind: 'daily', hour: 23 }, 'daily between 23:00 and 00:00 (Pacific/Kiritimati)'],
    [{ kind: 'daily', hour: 9 }, 'daily between 09:00 and 10:00 (Pacific/Kiritimati)'],
    [
      { kind: 'monthly', day: 15, hour: 10 },
      'monthly on day 15 between 10:00 and 11:00 (Pacific/Kiritimati)',
    ],
    [
      { kind: 'monthly', day: 'last', hour: 0 },
      'monthly on the last day between 00:00 and 01:00 (Pacific/Kiritimati)',
    ],
  ])('%j: "%s"', (frequency, text) => {
    expect(describeFrequency(frequency, zone)).toBe(text);
  });
});

describe('how far apart runs may be', () => {
  test('the hours of an hourly schedule, a day, and the longest month', () => {
    expect(intervalMs({ kind: 'hourly', hours: 1 })).toBe(HOUR);
    expect(intervalMs({ kind: 'hourly', hours: 12 })).toBe(12 * HOUR);
    expect(intervalMs({ kind: 'daily', hour: 6 })).toBe(DAY);
    expect(intervalMs({ kind: 'monthly', day: 1, hour: 6 })).toBe(31 * DAY);
    expect(intervalMs({ kind: 'monthly', day: 'last', hour: 6 })).toBe(31 * DAY);
  });
});

describe("the dialog's fields", () => {
  test('no schedule shows off, 06:00 and day 1', () => {
    expect(frequencyFields(null)).toEqual({ every: 'off', atHour: 6, monthDay: '1' });
  });

  test('each kind shows its own choices, the others their defaults', () => {
    expect(frequencyFields({ kind: 'hourly', hours: 8 })).toEqual({ every: '8', atHour: 6, monthDay: '1' });
    expect(frequencyFields({ kind: 'daily', hour: 21 })).toEqual({
      every: 'daily',
      atHour: 21,
      monthDay: '1',
    });
    expect(frequencyFields({ kind: 'monthly', day: 'last', hour: 3 })).toEqual({
      every: 'monthly',
      atHour: 3,
      monthDay: 'last',
    });
    expect(frequencyFields({ kind: 'monthly', day: 12, hour: 0 })).toEqual({
      every: 'monthly',
      atHour: 0,
      monthDay: '12',
    });
  });

  test('the fields shown read back as the same frequency', () => {
    const frequencies: Frequency[] = [
      { kind: 'hourly', hours: 2 },
      { kind: 'daily', hour: 0 },
      { kind: 'monthly', day: 28, hour: 23 },
      { kind: 'monthly', day: 'last', hour: 12 },
    ];
    for (const frequency of frequencies)
      expect(frequencyFromForm(frequencyFields(frequency))).toEqual(frequency);
  });
});

describe('what older versions stored', () => {
  test('every N hours and daily at an hour read as the same schedules', () => {
    expect(readStoredFrequency({ everyHours: 4 })).toEqual({ kind: 'hourly', hours: 4 });
    expect(readStoredFrequency({ dailyAtHour: 6 })).toEqual({ kind: 'daily', hour: 6 });
  });

  test('a frequency stored with its kind reads as itself', () => {
    const monthly: Frequency = { kind: 'monthly', day: 'last', hour: 5 };
    expect(readStoredFrequency(monthly)).toEqual(monthly);
  });
});

describe('a frequency of a kind this version does not know (saved by a newer one, say)', () => {
  const unknown = { kind: 'weekly', weekday: 2 } as never;

  test('is named, not taken for another kind, wherever it is used', () => {
    const named = 'Unknown refresh frequency: {"kind":"weekly","weekday":2}';
    expect(() => intervalMs(unknown)).toThrow(named);
    expect(() => describeFrequency(unknown, 'Europe/London')).toThrow(named);
    expect(() => frequencyFields(unknown)).toThrow(named);
    expect(() => configureTrigger({} as GoogleAppsScript.Script.ClockTriggerBuilder, unknown, 'UTC')).toThrow(
      named,
    );
  });
});
