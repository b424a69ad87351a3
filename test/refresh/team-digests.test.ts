/**
 * Each manager told about their own team, end to end: the built add-on in the emulator, the People
 * tab filled in as a training manager would (a Manager e-mail beside each person, a manager's own
 * row with their E-mail and their own manager), Settings → Notifications saved and the manager
 * addresses confirmed through the dialog's server functions, the schedule's trigger fired as Google
 * fires it, and the mail read back from the emulator. Who should get which items is worked out here
 * from what the test typed on People and what the Expiring trainings tab shows, not from the
 * add-on's code.
 */
import type { SentMail } from '../../dev/emulator';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { syncLog } from '../support/equipment-tabs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const SAFETY = 'safety@example.com';
const LEAD_A = 'lead.a@example.com';
const LEAD_B = 'lead.b@example.com';
const LEAD_C = 'lead.c@example.com';
const DIRECTOR = 'director@example.com';
const PEOPLE = 'People';
const EXPIRING_TAB = 'Expiring trainings';
/** docs/user-guide.md: a digest lists trainings that lapsed in the last 90 days, and counts older ones. */
const RECENT_LAPSE_DAYS = 90;

let harness: AddonHarness;

/** Each user id on People, in the tab's order. */
let userIds: string[];

async function setUp(emulator: HarnessOptions['emulator'] = {}): Promise<void> {
  harness = await createAddonHarness({
    dataset: { seed: 71, users: 12, completions: 300, equipmentTypes: 1 },
    emulator,
  });
  harness.connect();
  harness.emulator.users.add(EDITOR);
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Import equipment types');
  // Every training valid for a year: some have expired by now, some are about to.
  const trainings = harness.displayed('Trainings').length - 1;
  workbook().typeValues(
    `Trainings!E2:E${trainings + 1}`,
    Array.from({ length: trainings }, () => [12]),
  );
  harness.clickMenu('Show training status');
  userIds = harness
    .displayed(PEOPLE)
    .slice(1)
    .map((row) => row[0]!);
}

afterEach(async () => {
  // Whatever a test sent or logged: never the token.
  const token = harness.dataset.tokens.valid;
  for (const mail of harness.emulator.mail.sent) expect(JSON.stringify(mail)).not.toContain(token);
  expect(JSON.stringify(syncLog(harness))).not.toContain(token);
  await harness.done();
});

function workbook() {
  return harness.emulator.workbooks.get(harness.spreadsheetId)!;
}

/** The A1 notation of the People cell of this title on this user's row. */
function cellOnPeople(userId: string, title: string): string {
  const [header, ...rows] = harness.displayed(PEOPLE);
  const column = String.fromCharCode(65 + header!.indexOf(title));
  return `${column}${rows.findIndex((cells) => cells[0] === userId) + 2}`;
}

/** The People cell of this title on this user's row, typed as a user types it. */
function typeOnPeople(userId: string, title: string, value: string): void {
  workbook().typeValues(`${PEOPLE}!${cellOnPeople(userId, title)}`, [[value]]);
}

/** A row typed below the table: a manager with no completions of their own, their E-mail and manager. */
function addManagerRow(userId: string, email: string, managerEmail: string): void {
  const [header, ...rows] = harness.displayed(PEOPLE);
  const row = rows.length + 2;
  const cells = header!.map((title) =>
    title === 'User ID'
      ? userId
      : title === 'E-mail'
        ? email
        : title === 'Manager e-mail'
          ? managerEmail
          : '',
  );
  const last = String.fromCharCode(64 + header!.length);
  workbook().typeValues(`${PEOPLE}!A${row}:${last}${row}`, [cells]);
}

/**
 * Lead A manages the first four people, lead B the next four, lead C the next two; the rest have no
 * manager. Lead A's own row gives the director as their manager.
 */
function fillPeople(): void {
  userIds.forEach((userId, index) => {
    const lead = index < 4 ? LEAD_A : index < 8 ? LEAD_B : index < 10 ? LEAD_C : null;
    if (lead) typeOnPeople(userId, 'Manager e-mail', lead);
  });
  addManagerRow('MGR-A', LEAD_A, DIRECTOR);
}

type Caller = Pick<AddonHarness, 'callServer'>;

function saveNotifications(
  as: Caller,
  fields: { personalData?: 'counts' | 'names'; escalationDays?: string; teams?: boolean } = {},
) {
  const { baseUrl } = harness.callServer('getSettings');
  return as.callServer('saveSettings', {
    baseUrl,
    token: as === harness ? '' : 'editor-token',
    notifyRecipients: SAFETY,
    notifyFrequency: 'daily',
    notifyPersonalData: fields.personalData ?? 'names',
    notifyTeams: fields.teams ?? true,
    notifyEscalationDays: fields.escalationDays ?? '',
  });
}

function schedule(): void {
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
}

/** The owner confirms every manager address Settings shows them ("Confirm all"). */
function confirmAllManagers(): string[] {
  const waiting = harness.callServer('getSettings').sharing.managers!.waiting!;
  const addresses = waiting.map((address) => address.address);
  harness.callServer('confirmManagers', addresses);
  return addresses;
}

function fire(): SentMail[] {
  const before = harness.emulator.mail.sent.length;
  for (const trigger of harness.emulator.triggers()) harness.emulator.fireTrigger(trigger.uid);
  return harness.emulator.mail.sent.slice(before);
}

function fireNextDay(): SentMail[] {
  harness.emulator.clock.advance(DAY);
  return fire();
}

/** The mail sent to this address alone. */
function mailTo(mails: SentMail[], address: string): SentMail[] {
  return mails.filter((mail) => mail.to.length === 1 && mail.to[0] === address);
}

function recipientsOf(mails: SentMail[]): string[] {
  return mails.flatMap((mail) => [...mail.to, ...mail.cc, ...mail.bcc]);
}

/** "Anna Müller (U-12)"; the id alone where there is no name. */
function nameWithId(name: string, id: string): string {
  return name === '' || name === id ? id : `${name} (${id})`;
}

function daysShown(text: string): number {
  if (text === 'today') return 0;
  const words = /^(\d+) days? (left|overdue)$/.exec(text);
  if (words) return words[2] === 'left' ? Number(words[1]) : -Number(words[1]);
  return Number(text);
}

interface OpenTraining {
  userId: string;
  userName: string;
  training: string;
  /** As a names digest lists it: "Anna Müller (U-12): First aid (T-3)". */
  title: string;
  status: 'Expired' | 'Expiring';
  /** Lapsed more than 90 days ago: counted, never listed. */
  olderLapse: boolean;
}

/** The open trainings the Expiring trainings tab shows now. */
function openTrainings(): OpenTraining[] {
  const [header, ...rows] = harness.displayed(EXPIRING_TAB);
  const column = (title: string) => header!.indexOf(title);
  return rows
    .filter((row) => row[column('Status')] === 'Expired' || row[column('Status')] === 'Expiring')
    .map((row) => {
      const cell = (title: string) => row[column(title)]!;
      return {
        userId: cell('User ID'),
        userName: cell('User name'),
        training: cell('Training'),
        title: `${nameWithId(cell('User name'), cell('User ID'))}: ${nameWithId(cell('Training'), cell('Training ID'))}`,
        status: cell('Status') as OpenTraining['status'],
        olderLapse: daysShown(cell('Days left')) < -RECENT_LAPSE_DAYS,
      };
    });
}

/** Each manager's active people, from what the People tab shows (Manager e-mail, Active). */
function teamsOnPeople(): Map<string, Set<string>> {
  const [header, ...rows] = harness.displayed(PEOPLE);
  const column = (title: string) => header!.indexOf(title);
  const teams = new Map<string, Set<string>>();
  for (const row of rows) {
    const manager = row[column('Manager e-mail')]!.trim().toLowerCase();
    if (manager === '' || row[column('Active')] === 'no') continue;
    teams.set(manager, (teams.get(manager) ?? new Set()).add(row[0]!));
  }
  return teams;
}

/** The trainings a daily names digest to this manager lists: their active people's, lapsed recently or expiring. */
function expectedListed(manager: string): string[] {
  const team = teamsOnPeople().get(manager) ?? new Set();
  return openTrainings()
    .filter((training) => team.has(training.userId) && !training.olderLapse)
    .map((training) => training.title)
    .sort();
}

/** The items a digest lists, by their title: each "- title: when link" line. */
function listedTitles(mail: SentMail): string[] {
  return mail.body
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).replace(/: (\d+ days? (left|overdue)|expires today) \(.*$/, ''))
    .sort();
}

describe('team digests: each confirmed manager gets only their own people’s trainings', () => {
  beforeEach(async () => {
    await setUp();
    fillPeople();
  });

  test('an unconfirmed manager address receives nothing; once the owner confirms all, each manager receives exactly their people’s items', () => {
    expect(saveNotifications(harness)).toMatchObject({ ok: true });
    schedule();
    const before = fire();
    expect(recipientsOf(before)).toEqual([SAFETY]);
    // The Sync log says how many wait for the owner, never which token.
    const waitingLine = syncLog(harness).find((line) => line[0] === 'E-mail team digests');
    expect(waitingLine?.join(' ')).toContain(
      `4 manager addresses on the People tab receive nothing until ${OWNER} confirms them`,
    );
    // Settings shows the owner which addresses wait (the director too: lead A's manager).
    expect(confirmAllManagers()).toEqual([DIRECTOR, LEAD_A, LEAD_B, LEAD_C]);
    expect(harness.callServer('getSettings').sharing.managers).toEqual({
      onPeople: 4,
      waiting: [],
      problem: null,
    });

    const sent = fireNextDay();
    expect(mailTo(sent, SAFETY)).toHaveLength(1);
    for (const lead of [LEAD_A, LEAD_B, LEAD_C]) {
      const expected = expectedListed(lead);
      // Each team has something open: a manager told nothing would prove nothing.
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThanOrEqual(20);
      const [mail, ...more] = mailTo(sent, lead);
      expect(more).toEqual([]);
      expect(mail!.subject).toMatch(/^Safety Sync, your team: /);
      expect(listedTitles(mail!)).toEqual(expected);
    }
    // No escalation was set, and the people with no manager go to no one but the main digest.
    expect(mailTo(sent, DIRECTOR)).toEqual([]);
    expect(recipientsOf(sent).sort()).toEqual([LEAD_A, LEAD_B, LEAD_C, SAFETY]);
  });

  test('an inactive person’s items go to no manager', () => {
    const inactive = userIds[1]!;
    expect(openTrainings().some((training) => training.userId === inactive && !training.olderLapse)).toBe(
      true,
    );
    typeOnPeople(inactive, 'Active', 'no');
    saveNotifications(harness);
    schedule();
    confirmAllManagers();
    const sent = fire();
    const [mail] = mailTo(sent, LEAD_A);
    expect(listedTitles(mail!)).toEqual(expectedListed(LEAD_A));
    for (const teamMail of sent.filter((one) => one.to[0] !== SAFETY)) {
      expect(teamMail.body).not.toContain(`(${inactive})`);
    }
  });

  test('with "counts", a team digest gives counts and a link: no person and no training', () => {
    saveNotifications(harness, { personalData: 'counts' });
    schedule();
    confirmAllManagers();
    const [mail] = mailTo(fire(), LEAD_B);
    const team = teamsOnPeople().get(LEAD_B)!;
    const theirs = openTrainings().filter((training) => team.has(training.userId));
    const expiring = theirs.filter((training) => training.status === 'Expiring').length;
    expect(expiring).toBeGreaterThan(0);
    expect(listedTitles(mail!)).toEqual([]);
    expect(mail!.body).toMatch(new RegExp(`Open now: (.*, )?${expiring} expiring trainings?\\b`));
    for (const training of theirs) {
      expect(mail!.body).not.toContain(training.userId);
      if (training.userName !== '') expect(mail!.body).not.toContain(training.userName);
      expect(mail!.htmlBody).not.toContain(training.userId);
    }
    expect(mail!.body).toContain(`#gid=${workbook().sheet(EXPIRING_TAB).gid}`);
  });

  test('a Manager e-mail an editor changes receives nothing until the owner confirms it; the people moved leave the old team', () => {
    saveNotifications(harness);
    schedule();
    confirmAllManagers();
    fire();
    const moved = userIds[4]!;
    const newLead = 'lead.new@example.com';
    typeOnPeople(moved, 'Manager e-mail', newLead);
    const sent = fireNextDay();
    expect(mailTo(sent, newLead)).toEqual([]);
    expect(listedTitles(mailTo(sent, LEAD_B)[0]!)).toEqual(expectedListed(LEAD_B));
    expect(listedTitles(mailTo(sent, LEAD_B)[0]!).join(' ')).not.toContain(`(${moved})`);
    expect(
      syncLog(harness)
        .find((line) => line[0] === 'E-mail team digests')
        ?.join(' '),
    ).toContain('1 manager address on the People tab receives nothing until');
    // An editor cannot confirm it; the owner sees it waiting and confirms it.
    expect(() => harness.asUser(EDITOR).callServer('confirmManagers', [newLead])).toThrow(
      /Only owner@example\.com/,
    );
    expect(harness.asUser(EDITOR).callServer('getSettings').sharing.managers).toMatchObject({
      waiting: null,
    });
    expect(confirmAllManagers()).toEqual([newLead]);
    const after = fireNextDay();
    expect(listedTitles(mailTo(after, newLead)[0]!)).toEqual(expectedListed(newLead));
  });
});

describe("manager addresses keep to the owner's domain", () => {
  test('an address outside it is shown as not allowed, is not confirmed even when asked, and receives nothing', async () => {
    await setUp();
    fillPeople();
    const outside = 'lead.c@elsewhere.net';
    for (const userId of userIds.slice(8, 10)) typeOnPeople(userId, 'Manager e-mail', outside);
    saveNotifications(harness);
    schedule();
    const waiting = harness.callServer('getSettings').sharing.managers!.waiting!;
    expect(waiting).toContainEqual({ address: outside, allowed: false });
    // Asked by a crafted call as well as by Confirm all: the rule is the server's.
    harness.callServer(
      'confirmManagers',
      waiting.map((address) => address.address),
    );
    expect(harness.callServer('getSettings').sharing.managers!.waiting).toEqual([
      { address: outside, allowed: false },
    ]);
    const sent = fire();
    expect(mailTo(sent, outside)).toEqual([]);
    expect(recipientsOf(sent).sort()).toEqual([LEAD_A, LEAD_B, SAFETY]);
    expect(
      syncLog(harness)
        .find((line) => line[0] === 'E-mail team digests')
        ?.join(' '),
    ).toContain(`1 manager address on the People tab is outside the domain of ${OWNER}`);
  });
});

describe('escalation to the manager’s manager', () => {
  test('items still open 3 days after lead A’s first team digest go to the director on the third day, not before, and once', async () => {
    await setUp();
    fillPeople();
    saveNotifications(harness, { escalationDays: '3' });
    schedule();
    confirmAllManagers();
    const first = mailTo(fire(), LEAD_A)[0]!;
    const toldOnDayZero = new Set(listedTitles(first));
    expect(toldOnDayZero.size).toBeGreaterThan(0);
    for (let day = 1; day <= 2; day += 1) expect(mailTo(fireNextDay(), DIRECTOR)).toEqual([]);
    const dayThree = fireNextDay();
    const [escalation, ...more] = mailTo(dayThree, DIRECTOR);
    expect(more).toEqual([]);
    expect(escalation!.subject).toMatch(/^Safety Sync, open 3\+ days: /);
    expect(escalation!.body).toContain(LEAD_A);
    // What lead A was told on day 0 and is still open (and recent enough to be listed) today.
    expect(listedTitles(escalation!)).toEqual(
      expectedListed(LEAD_A).filter((title) => toldOnDayZero.has(title)),
    );
    // Lead B and C have no manager on People: nothing of theirs goes up.
    expect(escalation!.body).not.toContain(LEAD_B);
    // Once: the next day's run does not escalate the same items again.
    const dayFour = mailTo(fireNextDay(), DIRECTOR);
    for (const mail of dayFour) {
      for (const title of listedTitles(mail)) expect(toldOnDayZero.has(title)).toBe(false);
    }
  });
});

describe('with each scheduled run that changes something', () => {
  test('a manager is told of their people’s items once, when they are new; a run with nothing new tells no one', async () => {
    await setUp();
    fillPeople();
    const { baseUrl } = harness.callServer('getSettings');
    harness.callServer('saveSettings', {
      baseUrl,
      token: '',
      notifyRecipients: SAFETY,
      notifyFrequency: 'each-run',
      notifyPersonalData: 'names',
      notifyTeams: true,
    });
    schedule();
    confirmAllManagers();
    let first: SentMail[] = [];
    const logged = mailLinesAddedBy(() => {
      first = fire();
    });
    // Nothing waits (every manager confirmed, the share ample): no summary line.
    expect(logged.filter((line) => line[0] === 'E-mail team digests')).toEqual([]);
    expect(first[0]!.subject).toMatch(/^Safety Sync, new: /);
    const [mail] = mailTo(first, LEAD_B);
    expect(mail!.subject).toMatch(/^Safety Sync, your team, new: /);
    expect(listedTitles(mail!)).toEqual(expectedListed(LEAD_B));
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
  });
});

describe('an escalation address the owner has not confirmed', () => {
  test('receives nothing; once confirmed, the next digest escalates to it', async () => {
    await setUp();
    fillPeople();
    saveNotifications(harness, { escalationDays: '1' });
    schedule();
    harness.callServer('confirmManagers', [LEAD_A, LEAD_B, LEAD_C]);
    expect(harness.callServer('getSettings').sharing.managers!.waiting).toEqual([
      { address: DIRECTOR, allowed: true },
    ]);
    const toldOnDayZero = new Set(listedTitles(mailTo(fire(), LEAD_A)[0]!));
    expect(toldOnDayZero.size).toBeGreaterThan(0);
    const dayOne = fireNextDay();
    expect(mailTo(dayOne, DIRECTOR)).toEqual([]);
    const toldByDayOne = new Set([...toldOnDayZero, ...listedTitles(mailTo(dayOne, LEAD_A)[0]!)]);
    expect(confirmAllManagers()).toEqual([DIRECTOR]);
    const [escalation] = mailTo(fireNextDay(), DIRECTOR);
    expect(listedTitles(escalation!)).toEqual(
      expectedListed(LEAD_A).filter((title) => toldByDayOne.has(title)),
    );
  });
});

describe('the mail share holds across the digest, the team digests and the escalations', () => {
  test('a share of 3 recipients: the digest and the first two managers in order, the third left for the next run', async () => {
    // 50 % of 6 left today: 3 recipients a run.
    await setUp({ mailDailyQuota: 6 });
    fillPeople();
    saveNotifications(harness);
    schedule();
    confirmAllManagers();
    const sent = fire();
    expect(recipientsOf(sent)).toEqual([SAFETY, LEAD_A, LEAD_B]);
    const summary = syncLog(harness).find((line) => line[0] === 'E-mail team digests');
    expect(summary?.join(' ')).toMatch(/1 team digest left for the next run: this run's mail share is spent/);
    expect(harness.emulator.mail.remainingToday(OWNER, harness.emulator.clock.now())).toBe(3);
    // The next hour's run sends lead C's first: 50 % of the 3 left is 1.
    harness.emulator.clock.advance(HOUR);
    const next = fire();
    expect(recipientsOf(next)).toEqual([LEAD_C]);
    expect(listedTitles(next[0]!)).toEqual(expectedListed(LEAD_C));
    expect(harness.emulator.mail.remainingToday(OWNER, harness.emulator.clock.now())).toBe(2);
  });
});

/** The Sync log's mail lines a call added, oldest first (the log is newest first). */
function mailLinesAddedBy(act: () => void): string[][] {
  const before = syncLog(harness).length;
  act();
  const log = syncLog(harness);
  return log
    .slice(0, log.length - before)
    .reverse()
    .filter((line) => line[0]!.startsWith('E-mail'));
}

describe('who goes first: the managers and their managers in the order of their addresses', () => {
  const CEO = 'ceo@example.com';

  test('team digests and escalations follow the addresses, not the order of the People rows', async () => {
    await setUp();
    // The People rows name lead B before lead A; lead C reports to the CEO, A and B to the director.
    userIds.forEach((userId, index) => {
      const lead = index < 4 ? LEAD_B : index < 8 ? LEAD_A : index < 10 ? LEAD_C : null;
      if (lead) typeOnPeople(userId, 'Manager e-mail', lead);
    });
    addManagerRow('MGR-C', LEAD_C, CEO);
    addManagerRow('MGR-B', LEAD_B, DIRECTOR);
    addManagerRow('MGR-A', LEAD_A, DIRECTOR);
    saveNotifications(harness, { escalationDays: '1' });
    schedule();
    confirmAllManagers();
    expect(recipientsOf(fire())).toEqual([SAFETY, LEAD_A, LEAD_B, LEAD_C]);

    const dayOne = fireNextDay();
    expect(recipientsOf(dayOne)).toEqual([SAFETY, LEAD_A, LEAD_B, LEAD_C, CEO, DIRECTOR]);
    const [toDirector] = mailTo(dayOne, DIRECTOR);
    expect(toDirector!.body).toContain(`(${LEAD_A}, ${LEAD_B})`);
    expect(mailTo(dayOne, CEO)[0]!.body).toContain(`(${LEAD_C})`);
  });
});

describe('mail left over for the share: one summary line, counted', () => {
  test('two team digests left, then one: the Sync log counts what went and what waits, with no line per mail held back', async () => {
    // 50 % of 4 left today: 2 recipients, then 1 of the 2 left.
    await setUp({ mailDailyQuota: 4 });
    fillPeople();
    saveNotifications(harness);
    schedule();
    confirmAllManagers();
    let sent: SentMail[] = [];
    const first = mailLinesAddedBy(() => {
      sent = fire();
    });
    expect(recipientsOf(sent)).toEqual([SAFETY, LEAD_A]);
    expect(first.filter((line) => line[0] === 'E-mail team digest')).toHaveLength(1);
    expect(first.find((line) => line[0] === 'E-mail team digests')?.join(' ')).toContain(
      "Team digests sent: 1. 2 team digests left for the next run: this run's mail share is spent " +
        "(the schedule owner's share for a run is 2 recipients",
    );

    harness.emulator.clock.advance(HOUR);
    const second = mailLinesAddedBy(() => {
      sent = fire();
    });
    // Only those waiting: lead B first, with everything of theirs still open.
    expect(recipientsOf(sent)).toEqual([LEAD_B]);
    expect(listedTitles(sent[0]!)).toEqual(expectedListed(LEAD_B));
    expect(second.map((line) => line[0])).toEqual(['E-mail team digest', 'E-mail team digests']);
    expect(second[1]!.join(' ')).toContain(
      "Team digests sent: 1. 1 team digest left for the next run: this run's mail share is spent",
    );
  });

  test('an escalation the share cannot cover waits, said once in the summary', async () => {
    // 50 % of 8: 4 recipients a run, the digest and the three managers.
    await setUp({ mailDailyQuota: 8 });
    fillPeople();
    saveNotifications(harness, { escalationDays: '1' });
    schedule();
    confirmAllManagers();
    fire();
    let sent: SentMail[] = [];
    const lines = mailLinesAddedBy(() => {
      sent = fireNextDay();
    });
    expect(recipientsOf(sent)).toEqual([SAFETY, LEAD_A, LEAD_B, LEAD_C]);
    expect(lines.some((line) => line[0] === 'E-mail escalation')).toBe(false);
    expect(lines.find((line) => line[0] === 'E-mail team digests')?.join(' ')).toContain(
      'Team digests sent: 3. 1 escalation left for a later run: the mail share is spent.',
    );
  });
});

describe('a People tab the run cannot read', () => {
  test('the digest still goes; no team digest, and the Sync log says which cell to correct', async () => {
    await setUp();
    fillPeople();
    saveNotifications(harness);
    schedule();
    confirmAllManagers();
    // The user removed the cell's date rule first, so the tab takes any text.
    workbook().sheet(PEOPLE).setDataValidation(cellOnPeople(userIds[2]!, 'Start date'), null);
    typeOnPeople(userIds[2]!, 'Start date', 'soon');
    let sent: SentMail[] = [];
    const lines = mailLinesAddedBy(() => {
      sent = fire();
    });
    expect(recipientsOf(sent)).toEqual([SAFETY]);
    const summary = lines.find((line) => line[0] === 'E-mail team digests')!.join(' ');
    expect(summary).toContain('Team digests were not sent: ');
    expect(summary).toContain('of the "People" tab Safety Sync cannot read');
    expect(summary).toContain('Correct them and choose Safety Sync → Show training status.');
  });
});
