/**
 * A schedule's owner who authorised Safety Sync before it asked to send mail has not granted
 * script.send_mail: Google runs their trigger anyway and refuses the mail. The scheduled run still
 * refreshes, sends nothing, and says so once in the Sync log; the owner's Settings says where to
 * authorise; once the owner opens a menu item (Google's consent screen, accepted) the next run mails.
 * End to end: the built add-on in the emulator, the owner's trigger fired as Google fires it.
 */
import type { SentMail } from '../../dev/emulator';
import { AUTHORIZATION_URL } from '../../dev/emulator/runtime/script-app';
import { MAIL_NEEDS_AUTHORIZATION } from '../../src/refresh/mail-authorization';
import type { AddonHarness } from '../support/addon-harness';
import { harnessWithDigest } from '../support/digest-harness';
import { syncLog } from '../support/equipment-tabs';

const OWNER = 'owner@example.com';
const SEND_MAIL = 'https://www.googleapis.com/auth/script.send_mail';

let harness: AddonHarness;

beforeEach(async () => {
  harness = await harnessWithDigest('daily');
});

afterEach(async () => {
  await harness.done();
});

/** The owner authorised when the manifest did not ask to send mail. */
function authorisedBeforeMail(): void {
  const { grants } = harness.emulator;
  grants.set(
    OWNER,
    grants.of(OWNER).filter((scope) => scope !== SEND_MAIL),
  );
}

/** The next day's scheduled run (a daily digest is due again); returns the mail it sent. */
function fireNextDay(): SentMail[] {
  harness.emulator.clock.advance(24 * 3_600_000);
  const before = harness.emulator.mail.sent.length;
  for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
  return harness.emulator.mail.sent.slice(before);
}

const linesSaying = (text: string) => syncLog(harness).filter((line) => line.join(' ').includes(text));

test('the scheduled run refreshes without the mail, says so once, and mails once the owner authorises again', () => {
  authorisedBeforeMail();
  const refreshesBefore = linesSaying('Scheduled refresh').length;

  expect(fireNextDay()).toEqual([]);
  expect(fireNextDay()).toEqual([]);
  // Both runs refreshed the tabs: each import logged its own line.
  expect(linesSaying('Scheduled refresh').length).toBeGreaterThan(refreshesBefore + 1);
  expect(linesSaying(MAIL_NEEDS_AUTHORIZATION)).toHaveLength(1);

  // The owner's Settings (a dialog open since before: it cannot ask) says where to authorise.
  const sharing = harness.callServer('getSettings').sharing;
  expect(sharing.notes.join(' ')).toContain(AUTHORIZATION_URL);
  expect(sharing.mailQuotaLeft).toBeNull();

  // Opening the menu: Google asks, the owner accepts the manifest's scopes.
  harness.clickMenu('Settings…');
  expect(harness.emulator.grants.of(OWNER)).toContain(SEND_MAIL);
  expect(harness.callServer('getSettings').sharing.notes.join(' ')).not.toContain(AUTHORIZATION_URL);
  expect(fireNextDay().flatMap((mail) => mail.to)).toEqual(['safety@example.com']);

  // A later lapse is said again: the flag was cleared when mail was allowed.
  authorisedBeforeMail();
  expect(fireNextDay()).toEqual([]);
  expect(linesSaying(MAIL_NEEDS_AUTHORIZATION)).toHaveLength(2);
});

test('a failing run that could only alert says so under the alert, once', async () => {
  authorisedBeforeMail();
  await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
  expect(fireNextDay()).toEqual([]);
  expect(fireNextDay()).toEqual([]);
  expect(linesSaying(MAIL_NEEDS_AUTHORIZATION).map((line) => [line[0], line[5]])).toEqual([
    ['E-mail alert', 'Skipped'],
  ]);
});
