/**
 * Google's daily quotas (developers.google.com/apps-script/guides/services/quotas): per user, and
 * renewed 24 hours after the first use, not at midnight Pacific time. Properties reads and writes
 * (50,000 a day on a consumer account), MailApp's recipients and the time-driven triggers' total
 * runtime (90 minutes a day; 6 hours on Workspace), each refused with Google's message.
 */
import type { Emulator } from '../../dev/emulator';
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function readProperties(count) {
    var properties = PropertiesService.getUserProperties();
    for (var i = 0; i < count; i++) properties.getProperty('k');
  }
  function send(to) { MailApp.sendEmail(to, 'Subject', 'Body'); }
  function schedule() { return ScriptApp.newTrigger('work').timeBased().everyHours(1).create().getUniqueId(); }
  function work() {
    console.log('work started');
    PropertiesService.getScriptProperties().getProperty('state');
    Utilities.sleep(300000);
    return 'done';
  }
`;
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const OWNER = 'owner@example.com';
/** 2024-03-01 12:00 in Los Angeles (PST): Pacific midnight comes 12 hours later. */
const NOON_PACIFIC = Date.UTC(2024, 2, 1, 20, 0, 0);
const NEXT_PACIFIC_MIDNIGHT = Date.UTC(2024, 2, 2, 8, 0, 0);

/**
 * Runs `use` (whose first call spends the quota for the first time, a few emulated milliseconds
 * after it starts) and checks that `refused` is refused from then on: past Pacific midnight, and a
 * second before 24 hours from the first use; and no longer a second after.
 */
function expectRenewalAfter24Hours(
  emulator: Emulator,
  use: () => void,
  refused: () => unknown,
  message: string,
): void {
  const firstUseAtEarliest = emulator.clock.now();
  use();
  expect(refused).toThrow(message);
  emulator.clock.set(NEXT_PACIFIC_MIDNIGHT + MINUTE);
  expect(refused).toThrow(message);
  emulator.clock.set(firstUseAtEarliest + DAY - SECOND);
  expect(refused).toThrow(message);
  emulator.clock.set(firstUseAtEarliest + DAY + SECOND);
  expect(refused).not.toThrow();
}

describe('Properties reads and writes', () => {
  it('are refused after 50,000 in a day, with Google’s message, until 24 hours after the first', () => {
    const emulator = emulate(SCRIPT, { startTime: NOON_PACIFIC });
    expectRenewalAfter24Hours(
      emulator,
      // 30 ms a read on Google's side: 10,000 fit in one 6-minute execution.
      () => {
        for (let run = 0; run < 5; run++) emulator.run('readProperties', [10_000]);
      },
      () => emulator.run('readProperties', [1]),
      'Service invoked too many times for one day: properties.',
    );
    expect(emulator.properties.operations.used(OWNER, emulator.clock.now())).toBe(1);
  });

  it('count per user, and a Workspace account has 500,000', () => {
    const emulator = emulate(SCRIPT, { accountKind: 'workspace' });
    emulator.properties.operations.spend(OWNER, 499_999, emulator.clock.now());
    emulator.run('readProperties', [1]);
    expect(() => emulator.run('readProperties', [1])).toThrow(
      'Service invoked too many times for one day: properties.',
    );
    expect(() => emulator.asUser('editor@example.com').run('readProperties', [1])).not.toThrow();
  });
});

describe('MailApp recipients', () => {
  it('are refused once the day’s are spent, until 24 hours after the first message', () => {
    const emulator = emulate(SCRIPT, { startTime: NOON_PACIFIC, mailDailyQuota: 1 });
    expectRenewalAfter24Hours(
      emulator,
      () => emulator.run('send', ['a@example.com']),
      () => emulator.run('send', ['b@example.com']),
      'Service invoked too many times for one day: email.',
    );
  });
});

describe('the time-driven triggers’ total runtime', () => {
  const TIME_SPENT = 'Service using too much computer time for one day.';

  function scheduled(options: Parameters<typeof emulate>[1] = {}): { emulator: Emulator; uid: string } {
    const emulator = emulate(SCRIPT, { startTime: NOON_PACIFIC, ...options });
    const id = emulator.createSpreadsheet();
    return { emulator, uid: emulator.run('schedule', [], { spreadsheetId: id }) as string };
  }

  const started = (emulator: Emulator) =>
    emulator.logs.filter((entry) => entry.text === 'work started').length;

  it('stops the run that reaches 90 minutes, then starts no code until 24 hours after the first run', () => {
    const { emulator, uid } = scheduled();
    const firstRunAt = emulator.clock.now();
    // Each run reads a property and sleeps 5 minutes: the 18th reaches 90 minutes.
    for (let run = 1; run <= 17; run++) expect(emulator.fireTrigger(uid)).toBe('done');
    expect(() => emulator.fireTrigger(uid)).toThrow(TIME_SPENT);
    expect(started(emulator)).toBe(18);

    const refusedAt = emulator.clock.now();
    expect(emulator.fireTrigger(uid)).toBeUndefined();
    emulator.clock.set(NEXT_PACIFIC_MIDNIGHT + MINUTE);
    expect(emulator.fireTrigger(uid)).toBeUndefined();
    expect(started(emulator)).toBe(18);
    const failure = { triggerUid: uid, handler: 'work', user: OWNER, message: TIME_SPENT };
    expect(emulator.triggerRuntime.failures).toEqual([
      expect.objectContaining({ ...failure, started: true }),
      { ...failure, atMs: expect.any(Number), started: false },
      { ...failure, atMs: expect.any(Number), started: false },
    ]);
    expect(emulator.triggerRuntime.failures[1]!.atMs - refusedAt).toBeLessThan(SECOND);

    emulator.clock.set(firstRunAt + DAY - SECOND);
    expect(emulator.fireTrigger(uid)).toBeUndefined();
    emulator.clock.set(firstRunAt + DAY + SECOND);
    expect(emulator.fireTrigger(uid)).toBe('done');
    expect(started(emulator)).toBe(19);
  });

  it('is 6 hours on Workspace, and per user', () => {
    const { emulator, uid } = scheduled({ accountKind: 'workspace' });
    emulator.triggerRuntime.spend(OWNER, 6 * 60 * MINUTE - 4 * MINUTE, emulator.clock.now());
    expect(() => emulator.fireTrigger(uid)).toThrow(TIME_SPENT);
    expect(emulator.fireTrigger(uid)).toBeUndefined();
    expect(emulator.triggerRuntime.remainingMs('editor@example.com', emulator.clock.now())).toBe(
      6 * 60 * MINUTE,
    );
  });
});
