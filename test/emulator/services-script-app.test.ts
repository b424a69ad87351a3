/**
 * ScriptApp's time-driven triggers under the add-on rules.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function createHourly(hours) { return ScriptApp.newTrigger('refresh').timeBased().everyHours(hours).create().getUniqueId(); }
  function createDaily() {
    return ScriptApp.newTrigger('refresh').timeBased().everyDays(1).atHour(6).nearMinute(30).inTimezone('Pacific/Pago_Pago').create().getUniqueId();
  }
  function createWeekly() { return ScriptApp.newTrigger('refresh').timeBased().everyWeeks(1).onWeekDay(ScriptApp.WeekDay.MONDAY).create().getUniqueId(); }
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
