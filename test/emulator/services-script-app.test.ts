/**
 * ScriptApp's time-driven triggers under the add-on rules.
 */
import { seeded, sequenceSeeds } from '../support/seeded-random';
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function createHourly(hours) { return ScriptApp.newTrigger('refresh').timeBased().everyHours(hours).create().getUniqueId(); }
  function createDaily() {
    return ScriptApp.newTrigger('refresh').timeBased().everyDays(1).atHour(6).nearMinute(30).inTimezone('Pacific/Pago_Pago').create().getUniqueId();
  }
  function createWeekly() { return ScriptApp.newTrigger('refresh').timeBased().everyWeeks(1).onWeekDay(ScriptApp.WeekDay.MONDAY).create().getUniqueId(); }
  function createMonthly(day, hour, timeZone) {
    return ScriptApp.newTrigger('refresh').timeBased().onMonthDay(day).atHour(hour).inTimezone(timeZone).create().getUniqueId();
  }
  function createMonthlyEveryDay() { ScriptApp.newTrigger('refresh').timeBased().everyDays(1).onMonthDay(15).create(); }
  function createEveryMinutes() { ScriptApp.newTrigger('refresh').timeBased().everyMinutes(30).create(); }
  function createHourlyAtHour() { ScriptApp.newTrigger('refresh').timeBased().everyHours(1).atHour(3).create(); }
  function createWithoutSchedule() { ScriptApp.newTrigger('refresh').timeBased().create(); }
  function describeTriggers() {
    return ScriptApp.getProjectTriggers().map(function (t) {
      return [t.getUniqueId(), t.getHandlerFunction(), t.getEventType() === ScriptApp.EventType.CLOCK,
              t.getTriggerSource() === ScriptApp.TriggerSource.CLOCK, t.getTriggerSourceId()];
    });
  }
  function documentTriggerIds() {
    return ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).map(function (t) { return t.getUniqueId(); });
  }
  function deleteAll() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
  function deleteTwice() { var t = ScriptApp.getProjectTriggers()[0]; ScriptApp.deleteTrigger(t); ScriptApp.deleteTrigger(t); }
  function deleteNotATrigger() { ScriptApp.deleteTrigger({ getUniqueId: function () { return '1'; } }); }
  function refresh() {}
`;

describe('time-driven triggers for an add-on', () => {
  it('run at most hourly, in the intervals Google allows', () => {
    const emulator = emulate(SCRIPT);
    const id = emulator.createSpreadsheet();
    expect(() => emulator.run('createEveryMinutes', [], { spreadsheetId: id })).toThrow(
      "Add-ons can't create time-based triggers that run more frequently than once per hour.",
    );
    expect(() => emulator.run('createHourly', [3], { spreadsheetId: id })).toThrow(
      'The number of hours must be 1, 2, 4, 6, 8 or 12.',
    );
    expect(() => emulator.run('createHourlyAtHour', [], { spreadsheetId: id })).toThrow(
      'atHour needs everyDays or everyWeeks',
    );
    expect(() => emulator.run('createWithoutSchedule', [], { spreadsheetId: id })).toThrow(
      'needs everyHours',
    );
    expect(emulator.triggers()).toEqual([]);
    emulator.run('createHourly', [12], { spreadsheetId: id });
  });

  it('keep their schedule, creator and document', () => {
    const emulator = emulate(SCRIPT);
    const daily = emulator.createSpreadsheet();
    const weekly = emulator.createSpreadsheet();
    emulator.run('createDaily', [], { spreadsheetId: daily });
    emulator.run('createWeekly', [], { spreadsheetId: weekly });
    expect(
      emulator.triggers().map(({ spreadsheetId, owner, schedule }) => ({ spreadsheetId, owner, schedule })),
    ).toEqual([
      {
        spreadsheetId: daily,
        owner: 'owner@example.com',
        schedule: {
          every: 'days',
          interval: 1,
          atHour: 6,
          nearMinute: 30,
          weekDay: null,
          monthDay: null,
          timeZone: 'Pacific/Pago_Pago',
        },
      },
      {
        spreadsheetId: weekly,
        owner: 'owner@example.com',
        schedule: {
          every: 'weeks',
          interval: 1,
          atHour: null,
          nearMinute: null,
          weekDay: 'MONDAY',
          monthDay: null,
          timeZone: 'Europe/London',
        },
      },
    ]);
  });

  it('are limited to one per user per document', () => {
    const emulator = emulate(SCRIPT);
    const id = emulator.createSpreadsheet();
    emulator.run('createHourly', [1], { spreadsheetId: id });
    expect(() => emulator.run('createDaily', [], { spreadsheetId: id })).toThrow(
      'This add-on has already created a time-based trigger for this document',
    );
    emulator.asUser('editor@example.com').run('createHourly', [1], { spreadsheetId: id });
    emulator.run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() });
    expect(emulator.triggers()).toHaveLength(3);
  });

  it('are limited to 20 per user per script', () => {
    const emulator = emulate(SCRIPT);
    for (let i = 0; i < 20; i++)
      emulator.run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() });
    expect(() => emulator.run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() })).toThrow(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    emulator
      .asUser('editor@example.com')
      .run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() });
  });

  it('are listed per user, and per document for getUserTriggers (where it lists clock triggers)', () => {
    const emulator = emulate(SCRIPT, { readings: { userTriggersListClockTriggers: true } });
    const first = emulator.createSpreadsheet();
    const second = emulator.createSpreadsheet();
    const firstUid = emulator.run('createHourly', [1], { spreadsheetId: first });
    const secondUid = emulator.run('createHourly', [2], { spreadsheetId: second });
    emulator.asUser('editor@example.com').run('createHourly', [1], { spreadsheetId: first });
    expect(emulator.run('describeTriggers')).toEqual([
      [firstUid, 'refresh', true, true, null],
      [secondUid, 'refresh', true, true, null],
    ]);
    expect(emulator.run('documentTriggerIds', [], { spreadsheetId: first })).toEqual([firstUid]);
  });

  it('are deleted by the user who sees them, once', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() });
    emulator
      .asUser('editor@example.com')
      .run('createHourly', [1], { spreadsheetId: emulator.createSpreadsheet() });
    emulator.run('deleteAll');
    expect(emulator.triggers().map((trigger) => trigger.owner)).toEqual(['editor@example.com']);
    expect(() => emulator.asUser('editor@example.com').run('deleteTwice')).toThrow('does not exist');
    expect(() => emulator.run('deleteNotATrigger')).toThrow(
      "don't match the method signature for ScriptApp.deleteTrigger",
    );
  });
});

describe('a time-driven trigger on a day of the month', () => {
  it('takes a day from 1 to 31, and no other recurrence beside it', () => {
    const emulator = emulate(SCRIPT);
    const id = emulator.createSpreadsheet();
    for (const day of [0, 32, 1.5]) {
      expect(() => emulator.run('createMonthly', [day, 6, 'Europe/London'], { spreadsheetId: id })).toThrow(
        'Invalid argument: day',
      );
    }
    expect(() => emulator.run('createMonthly', ['15', 6, 'Europe/London'], { spreadsheetId: id })).toThrow(
      "don't match the method signature for ClockTriggerBuilder.onMonthDay",
    );
    expect(() => emulator.run('createMonthlyEveryDay', [], { spreadsheetId: id })).toThrow(
      'Invalid argument: onMonthDay cannot be combined with everyHours, everyDays or everyWeeks',
    );
    expect(emulator.triggers()).toEqual([]);
    emulator.run('createMonthly', [31, 6, 'Pacific/Kiritimati'], { spreadsheetId: id });
    expect(emulator.triggers()[0]!.schedule).toEqual({
      every: 'months',
      interval: 1,
      atHour: 6,
      nearMinute: null,
      weekDay: null,
      monthDay: 31,
      timeZone: 'Pacific/Kiritimati',
    });
  });

  it("fires on that day in the trigger's time zone, not on UTC's", () => {
    // Kiritimati is UTC+14: 06:00 there on the 15th is 16:00 UTC on the 14th.
    const emulator = emulate(SCRIPT, { startTime: Date.UTC(2024, 0, 20) });
    const uid = emulator.run('createMonthly', [15, 6, 'Pacific/Kiritimati'], {
      spreadsheetId: emulator.createSpreadsheet(),
    });
    const fired = emulator.runClockUntil(Date.UTC(2024, 4, 1));
    expect(fired).toEqual([
      { uid, atMs: Date.UTC(2024, 1, 14, 16) },
      { uid, atMs: Date.UTC(2024, 2, 14, 16) },
      { uid, atMs: Date.UTC(2024, 3, 14, 16) },
    ]);
    expect(emulator.clock.now()).toBeGreaterThanOrEqual(Date.UTC(2024, 4, 1));
  });

  it('on day 31, skips the months without one (Google does not say: the stricter reading)', () => {
    // Auckland is UTC+13 in summer and UTC+12 from April: 06:00 on the 31st is 17:00 or 18:00 UTC on the 30th.
    const emulator = emulate(SCRIPT, { startTime: Date.UTC(2024, 0, 1) });
    emulator.run('createMonthly', [31, 6, 'Pacific/Auckland'], {
      spreadsheetId: emulator.createSpreadsheet(),
    });
    const fired = emulator.runClockUntil(Date.UTC(2024, 7, 1)).map((firing) => firing.atMs);
    expect(fired).toEqual([
      Date.UTC(2024, 0, 30, 17),
      Date.UTC(2024, 2, 30, 17),
      Date.UTC(2024, 4, 30, 18),
      Date.UTC(2024, 6, 30, 18),
    ]);
  });

  it('runs each trigger of the other kinds at its own moments, earliest first', () => {
    const emulator = emulate(SCRIPT, { startTime: Date.UTC(2024, 2, 1, 12) });
    // Pago Pago is UTC-11: 06:30 there is 17:30 UTC the same day.
    const daily = emulator.run('createDaily', [], { spreadsheetId: emulator.createSpreadsheet() });
    const everySix = emulator.run('createHourly', [6], { spreadsheetId: emulator.createSpreadsheet() });
    const fired = emulator.runClockUntil(Date.UTC(2024, 2, 2, 19));
    expect(fired).toEqual([
      { uid: daily, atMs: Date.UTC(2024, 2, 1, 17, 30) },
      { uid: everySix, atMs: Date.UTC(2024, 2, 1, 18) },
      { uid: everySix, atMs: Date.UTC(2024, 2, 2, 0) },
      { uid: everySix, atMs: Date.UTC(2024, 2, 2, 6) },
      { uid: everySix, atMs: Date.UTC(2024, 2, 2, 12) },
      { uid: daily, atMs: Date.UTC(2024, 2, 2, 17, 30) },
      { uid: everySix, atMs: Date.UTC(2024, 2, 2, 18) },
    ]);
  });
});

describe('onMonthDay, model-based: fires exactly on the months that have the day, at its hour there', () => {
  // Zones without daylight saving, far from UTC and off the whole hour, so that every wall time exists once.
  const ZONES = [
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
    'Asia/Kathmandu',
    'Pacific/Marquesas',
    'Asia/Kolkata',
  ];
  const { seeds } = sequenceSeeds('MONTH_DAY_TRIGGER', 30);

  /** The oracle's wall time, from Intl alone: "2024-03-15 06:00". */
  function wallTime(timeZone: string, epochMs: number): string {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(epochMs)
        .map((part) => [part.type, part.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  }

  const pad = (value: number) => String(value).padStart(2, '0');

  for (const seed of seeds) {
    it(`seed ${seed}`, () => {
      const random = seeded(seed);
      const timeZone = random.pick(ZONES);
      const day = random.int(1, 31);
      const hour = random.int(0, 23);
      const startMs = Date.UTC(
        random.int(2024, 2028),
        random.int(0, 11),
        random.int(1, 28),
        random.int(0, 23),
      );
      const untilMs = startMs + random.int(300, 500) * 86_400_000;
      const steps = `seed ${seed}: onMonthDay(${day}).atHour(${hour}) in ${timeZone} from ${new Date(startMs).toISOString()} to ${new Date(untilMs).toISOString()}`;

      const emulator = emulate(SCRIPT, { startTime: startMs });
      emulator.run('createMonthly', [day, hour, timeZone], { spreadsheetId: emulator.createSpreadsheet() });
      const fired = emulator.runClockUntil(untilMs).map((firing) => wallTime(timeZone, firing.atMs));

      const expected: string[] = [];
      const first = wallTime(timeZone, startMs);
      const last = wallTime(timeZone, untilMs);
      for (let year = Number(first.slice(0, 4)); year <= Number(last.slice(0, 4)); year++) {
        for (let month = 1; month <= 12; month++) {
          const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
          const wall = `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:00`;
          if (day <= daysInMonth && wall > first && wall <= last) expected.push(wall);
        }
      }
      expect({ steps, fired }).toEqual({ steps, fired: expected });
    });
  }
});
