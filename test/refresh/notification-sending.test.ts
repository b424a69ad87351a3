/**
 * How a scheduled run's mail goes out, on a small workbook (the built add-on in the emulator): the
 * Sync log's line for a message sent to one recipient, a message Google refuses at the last moment
 * (the owner's other scripts spent their quota meanwhile) and sent by the next run, and an equipment
 * type whose title would fill the digest, cut short. What a digest lists and when is driven in
 * test/refresh/notifications.test.ts.
 */
import type { SentMail } from '../../dev/emulator';
import type { AddonHarness } from '../support/addon-harness';
import { harnessWithDigest } from '../support/digest-harness';
import { syncLog, UPCOMING_TAB } from '../support/equipment-tabs';

const HOUR = 3_600_000;

let harness: AddonHarness;

beforeEach(async () => {
  harness = await harnessWithDigest('each-run');
});

afterEach(async () => {
  await harness.done();
});

/** The next hour's scheduled run; returns the mail it sent. */
function fireNextHour(): SentMail[] {
  harness.emulator.clock.advance(HOUR);
  const before = harness.emulator.mail.sent.length;
  for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
  return harness.emulator.mail.sent.slice(before);
}

/** The Sync log's lines of the e-mails, oldest first: [action, outcome, details]. */
function mailLog(): string[][] {
  return syncLog(harness)
    .filter((line) => line[0]!.startsWith('E-mail'))
    .map((line) => [line[0]!, line[5]!, line[8]!])
    .reverse();
}

test('a message to one recipient: the Sync log names them, in the singular', () => {
  const [digest] = fireNextHour();
  expect(digest!.to).toEqual(['safety@example.com']);
  expect(digest!.name).toBe('Safety Sync');
  expect(mailLog()).toEqual([
    ['E-mail digest', 'Success', `"${digest!.subject}" sent to 1 recipient: safety@example.com.`],
  ]);
});

test('Google refusing the message at the last moment: the Sync log says why, and a run once the quota is renewed sends it', () => {
  const owner = harness.emulator.users.owner;
  // The owner's other scripts spend the day's quota between the run's check and its message.
  harness.emulator.beforeNextCall('MailApp.sendEmail', () => {
    harness.emulator.mail.spend(
      owner,
      harness.emulator.mail.remainingToday(owner, harness.emulator.clock.now()),
      harness.emulator.clock.now(),
    );
  });
  expect(fireNextHour()).toEqual([]);
  expect(mailLog()).toEqual([
    [
      'E-mail digest',
      'Failed',
      expect.stringMatching(
        /^"Safety Sync(, new)?: .+" was not sent: Service invoked too many times for one day: email\.$/,
      ),
    ],
  ]);

  // A day later the quota is back: the digest the failed run owed goes out.
  harness.emulator.clock.advance(24 * HOUR);
  const [digest] = fireNextHour();
  expect(digest!.subject).toMatch(/^Safety Sync(, new)?: /);
});

/** `text` matched literally inside a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('an equipment type titled at length: its name is cut short with an ellipsis, its schedule still named', async () => {
  const [header, ...rows] = harness.displayed(UPCOMING_TAB);
  const column = (title: string) => header!.indexOf(title);
  const due = rows.find(
    (row) => row[column('Status')] === 'Expired' || row[column('Status')] === 'Expiring',
  )!;
  const longTitle = `Forklift ${'with a very long description '.repeat(10)}`.trim();
  await harness.dataset.mutate({
    renameEquipmentTypes: [{ id: due[column('Equipment type ID')]!, title: longTitle }],
  });
  const [digest] = fireNextHour();
  const line = digest!.body.split('\n').find((text) => text.startsWith('- Forklift with'))!;
  // The type's name is cut to 79 characters; the schedule's name follows it whole.
  expect(line).toMatch(
    new RegExp(`^- ${escapeRegExp(longTitle.slice(0, 78))}…: ${escapeRegExp(due[column('Schedule')]!)}`),
  );
  expect(digest!.body).not.toContain(longTitle.slice(0, 79));
});
