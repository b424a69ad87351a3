/**
 * A spreadsheet shared by many editors, one of whom owns the scheduled refresh: what runs as the
 * owner (their token, their mail quota, their account sending the mail) does only what the owner
 * chose. End to end: the built add-on in the emulator, the owner and an editor each saving through
 * the Settings and Schedule dialogs' server functions, the owner's trigger fired as Google fires it.
 */
import type { SentMail } from '../../dev/emulator';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { syncLog } from '../support/equipment-tabs';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const COMPLETIONS_TAB = 'Completed trainings';

let harness: AddonHarness;

async function setUp(emulator: HarnessOptions['emulator'] = {}): Promise<void> {
  harness = await createAddonHarness({
    dataset: { seed: 26, completions: 60, equipmentTypes: 2 },
    emulator,
  });
  harness.connect();
  harness.emulator.users.add(EDITOR);
  // Inspections overdue and due soon: every digest has something to say.
  harness.clickMenu('Import equipment types');
}

afterEach(async () => {
  const token = harness.dataset.tokens.valid;
  for (const mail of harness.emulator.mail.sent) expect(JSON.stringify(mail)).not.toContain(token);
  expect(JSON.stringify(syncLog(harness))).not.toContain(token);
  await harness.done();
});

type Caller = Pick<AddonHarness, 'callServer'>;

function owner(): Caller {
  return harness;
}

function editor(): Caller {
  return harness.asUser(EDITOR);
}

/** Saves Settings as this user would: their own connection (any token will do for an editor). */
function save(as: Caller, fields: Record<string, unknown>) {
  const { baseUrl } = harness.callServer('getSettings');
  return as.callServer('saveSettings', { baseUrl, token: as === harness ? '' : 'editor-token', ...fields });
}

function mailDaily(as: Caller, recipients: string, extra: Record<string, unknown> = {}) {
  return save(as, { notifyRecipients: recipients, notifyFrequency: 'daily', ...extra });
}

function schedule(as: Caller = owner()): void {
  expect(as.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
}

/** Fires every schedule trigger there is (a replaced one deletes itself) and returns the mail sent. */
function fire(): SentMail[] {
  const before = harness.emulator.mail.sent.length;
  for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
  return harness.emulator.mail.sent.slice(before);
}

/** The next day's run: a daily digest is due again. */
function fireNextDay(): SentMail[] {
  harness.emulator.clock.advance(24 * 3_600_000);
  return fire();
}

function recipientsOf(mails: SentMail[]): string[] {
  return mails.flatMap((mail) => [...mail.to, ...mail.cc, ...mail.bcc]);
}

function completionRows(): number {
  return harness.displayed(COMPLETIONS_TAB).length - 1;
}

function firstUserId(): string {
  const [header, first] = harness.displayed(COMPLETIONS_TAB);
  return first![header!.indexOf('User ID')]!;
}

describe('mail: only what the schedule owner confirmed', () => {
  beforeEach(() => setUp());

  test("an editor's recipients are a proposal: the owner's runs mail only the owner's, until the owner confirms", () => {
    mailDaily(owner(), 'safety@example.com');
    schedule();
    expect(recipientsOf(fire())).toEqual(['safety@example.com']);

    const outcome = mailDaily(editor(), 'leak@example.com');
    expect(outcome).toMatchObject({ ok: true, savedAsProposal: true });
    // The editor's own view says whose runs these are; it offers the editor nothing to confirm.
    const editorView = editor().callServer('getSettings');
    expect(editorView.sharing).toMatchObject({
      scheduleOwner: OWNER,
      youOwnTheSchedule: false,
      proposal: null,
    });
    expect(editorView.sharing.notes.join(' ')).toMatch(/proposal/);

    expect(recipientsOf(fireNextDay())).toEqual(['safety@example.com']);
    const changed = syncLog(harness).find((line) => line[0] === 'Settings changed');
    expect(changed?.join(' ')).toContain('leak@example.com');
    expect(changed?.join(' ')).toMatch(/proposal/i);

    // The owner sees who changed what, and confirms the new address one by one.
    const view = owner().callServer('getSettings').sharing;
    expect(view.proposal!.changes).toEqual([
      expect.objectContaining({ group: 'notifications', changedBy: EDITOR }),
    ]);
    expect(view.proposal!.newAddresses).toEqual([{ address: 'leak@example.com', allowed: true }]);
    owner().callServer('confirmSettings', ['leak@example.com']);
    expect(owner().callServer('getSettings').sharing.proposal).toBeNull();
    expect(recipientsOf(fireNextDay())).toEqual(['leak@example.com']);
  });

  test("clearing the mail is a proposal too; Discard puts the owner's settings back", () => {
    mailDaily(owner(), 'safety@example.com');
    schedule();
    save(editor(), { notifyFrequency: 'off' });
    expect(recipientsOf(fire())).toEqual(['safety@example.com']);
    owner().callServer('discardSettings');
    expect(owner().callServer('getSettings').notifications).toMatchObject({
      frequency: 'daily',
      recipients: ['safety@example.com'],
    });
    expect(syncLog(harness)[0]![0]).toBe('Settings proposal discarded');
  });

  test('an unticked address is not confirmed and leaves the list; an editor cannot confirm', () => {
    mailDaily(owner(), 'safety@example.com');
    schedule();
    mailDaily(editor(), 'safety@example.com, other@example.com');
    expect(() => editor().callServer('confirmSettings', ['other@example.com'])).toThrow(
      /Only owner@example\.com/,
    );
    owner().callServer('confirmSettings', []);
    expect(owner().callServer('getSettings').notifications.recipients).toEqual(['safety@example.com']);
    expect(recipientsOf(fire())).toEqual(['safety@example.com']);
  });

  test('an editor who replaces the schedule owns it and starts with mail off until they confirm their own', () => {
    mailDaily(owner(), 'safety@example.com');
    schedule();
    // The editor's schedule runs with the editor's own connection.
    save(editor(), { token: harness.dataset.tokens.valid });
    schedule(editor());
    expect(fire()).toEqual([]);
    expect(harness.emulator.triggers()).toEqual([expect.objectContaining({ owner: EDITOR })]);
    const view = editor().callServer('getSettings').sharing;
    expect(view.youOwnTheSchedule).toBe(true);
    expect(view.proposal!.newAddresses).toEqual([{ address: 'safety@example.com', allowed: true }]);
    editor().callServer('confirmSettings', ['safety@example.com']);
    const sent = fireNextDay();
    expect(recipientsOf(sent)).toEqual(['safety@example.com']);
    expect(sent.every((mail) => mail.from === EDITOR)).toBe(true);
  });
});

describe("recipients keep to the owner's domain", () => {
  test('a Workspace owner: outside addresses are refused until the owner allows them with the separate switch', async () => {
    await setUp();
    schedule();
    const refused = mailDaily(owner(), 'safety@example.com, someone@elsewhere.net');
    expect(refused).toEqual({
      ok: false,
      field: 'notifyRecipients',
      message: expect.stringContaining('"someone@elsewhere.net" is outside example.com'),
    });
    expect(owner().callServer('getSettings').notifications.recipients).toEqual([]);
    expect(mailDaily(owner(), 'someone@elsewhere.net', { notifyAllowOutside: true })).toMatchObject({
      ok: true,
    });
    expect(recipientsOf(fire())).toEqual(['someone@elsewhere.net']);
  });

  test('a consumer account mails only the addresses it confirmed one by one', async () => {
    await setUp({ owner: 'safety.lead@gmail.com' });
    schedule();
    mailDaily(editor(), 'first@example.com, second@example.org');
    const view = owner().callServer('getSettings').sharing;
    expect(view.ownerDomain).toBeNull();
    expect(view.proposal!.newAddresses.map((address) => address.address)).toEqual([
      'first@example.com',
      'second@example.org',
    ]);
    owner().callServer('confirmSettings', ['second@example.org']);
    expect(recipientsOf(fire())).toEqual(['second@example.org']);
  });
});

describe("a run spends at most the owner's share of their mail quota", () => {
  test('the default share holds 20 recipients a run: 25 are skipped with the reason in the Sync log', async () => {
    await setUp();
    const many = Array.from({ length: 25 }, (_, index) => `person${index}@example.com`).join(', ');
    mailDaily(owner(), many);
    schedule();
    expect(fire()).toEqual([]);
    const skipped = syncLog(harness).find((line) => line[0] === 'E-mail digest');
    expect(skipped?.join(' ')).toMatch(
      /goes to 25 recipients and the schedule owner's share for a run is 20/,
    );
    expect(harness.emulator.mail.remainingToday(OWNER, harness.emulator.clock.now())).toBe(100);
  });

  test("an editor raising the share changes nothing until the owner confirms; half of what is left stays the owner's", async () => {
    await setUp({ mailDailyQuota: 30 });
    const twelve = Array.from({ length: 12 }, (_, index) => `person${index}@example.com`).join(', ');
    mailDaily(owner(), twelve);
    schedule();
    save(editor(), { notifyMaxPerRun: 50, notifySharePercent: 100 });
    // 50% of 30 is 15: twelve go; the next day the quota is renewed.
    expect(recipientsOf(fire())).toHaveLength(12);
    harness.emulator.mail.spend(OWNER, 10, harness.emulator.clock.now() + 24 * 3_600_000);
    // 50% of the 20 left is 10 < 12: skipped, though the editor proposed 100%.
    expect(fireNextDay()).toEqual([]);
    owner().callServer('confirmSettings', []);
    harness.emulator.clock.advance(3_600_000);
    expect(recipientsOf(fire())).toHaveLength(12);
  });
});

describe("the completions filter: the owner's scheduled imports never read beyond what the owner confirmed", () => {
  test("an editor clearing the owner's filter pauses the owner's scheduled imports until the owner confirms", async () => {
    await setUp();
    harness.clickMenu('Reconcile completed trainings');
    const userId = firstUserId();
    save(owner(), { userId });
    harness.clickMenu('Reconcile completed trainings');
    const filtered = completionRows();
    schedule();

    save(editor(), { userId: '' });
    harness.emulator.clock.advance(25 * 3_600_000);
    fire();
    expect(completionRows()).toBe(filtered);
    const paused = syncLog(harness).find((line) => /completed trainings/.test(line[0]!));
    expect(paused?.[5]).toBe('Skipped');
    expect(paused?.join(' ')).toContain(`changed by ${EDITOR}`);
    expect(owner().callServer('getSchedule').lastRunSummary).toMatch(
      /paused: the completions filter was changed by/,
    );

    // A manual run goes on with the spreadsheet's filter and the runner's own token.
    owner().callServer('confirmSettings', []);
    harness.emulator.clock.advance(25 * 3_600_000);
    fire();
    expect(completionRows()).toBeGreaterThan(filtered);
  });
});
