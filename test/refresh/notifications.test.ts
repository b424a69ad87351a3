/**
 * The e-mail digest and alerts end to end: the built add-on in the emulator, Settings → Notifications
 * saved through the dialog's server function, the schedule's trigger fired as Google fires it, and
 * MailApp's messages read back from the emulator. What a digest should list is computed here from
 * the tabs the user sees (Upcoming inspections, Expiring trainings), not from the add-on's code:
 * inspections always, trainings with their people only when Settings allow names (by default, their
 * counts). Whatever an editor types or the service sends, no message links anywhere but to the
 * spreadsheet.
 */
import type { SentMail } from '../../dev/emulator';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { SCHEDULES_TAB, syncLog, UPCOMING_TAB } from '../support/equipment-tabs';
import { foreignLinksInMail } from '../support/link-finder';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const EXPIRING_TAB = 'Expiring trainings';
const RECIPIENTS = ['safety@example.com', 'Manager@Example.org'];
const ALL_TOPICS = [
  'expiredInspections',
  'expiringInspections',
  'neverInspected',
  'expiredTrainings',
  'expiringTrainings',
  'refreshFailures',
];

let harness: AddonHarness;

async function setUp(options: HarnessOptions['emulator'] = {}): Promise<void> {
  harness = await createAddonHarness({
    dataset: { seed: 71, completions: 300, equipmentTypes: 12 },
    emulator: options,
  });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Import equipment types');
  // Every training valid for a year: some have expired by now, some are about to.
  const trainings = harness.displayed('Trainings').length - 1;
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  workbook.typeValues(
    `Trainings!E2:E${trainings + 1}`,
    Array.from({ length: trainings }, () => [12]),
  );
  harness.clickMenu('Show training status');
}

afterEach(async () => {
  // Whatever a test sent: never the token, in no part of any message.
  for (const mail of harness.emulator.mail.sent) {
    expect(JSON.stringify(mail)).not.toContain(harness.dataset.tokens.valid);
  }
  await harness.done();
});

type PersonalData = 'counts' | 'names';

/** Saves Settings → Notifications; `personalData` left out keeps what is saved (at first: counts). */
function notify(
  frequency: string,
  topics = ALL_TOPICS,
  recipients = RECIPIENTS.join(', '),
  personalData?: PersonalData,
) {
  const { baseUrl } = harness.callServer('getSettings');
  return harness.callServer('saveSettings', {
    baseUrl,
    token: '',
    notifyRecipients: recipients,
    notifyFrequency: frequency,
    notifyTopics: topics,
    // One recipient is outside the owner's domain (example.com): the owner allows it.
    notifyAllowOutside: true,
    ...(personalData && { notifyPersonalData: personalData }),
  });
}

function schedule(every = '1'): void {
  expect(harness.callServer('saveSchedule', { every })).toMatchObject({ ok: true });
}

function fire(): SentMail[] {
  const before = harness.emulator.mail.sent.length;
  const [trigger] = harness.emulator.triggers();
  harness.emulator.fireTrigger(trigger!.uid);
  return harness.emulator.mail.sent.slice(before);
}

function workbook() {
  return harness.emulator.workbooks.get(harness.spreadsheetId)!;
}

interface ExpectedItem {
  title: string;
  days: string;
  date: string;
  gid: number;
  row: number;
}

interface Section {
  heading: string;
  total: number;
  items: ExpectedItem[];
  /** Trainings that lapsed more than 90 days ago: counted, not listed. */
  olderLapses: number;
}

/** docs/user-guide.md: a digest lists trainings that lapsed in the last 90 days, and counts older ones. */
const RECENT_LAPSE_DAYS = 90;
const HEADINGS = {
  expiredInspections: 'Expired inspections',
  expiringInspections: 'Expiring inspections',
  neverInspected: 'Never inspected: enter Last inspected',
  expiringTrainings: 'Expiring trainings',
  expiredTrainings: 'Expired trainings, lapsed in the last 90 days',
};

/** "3 days overdue", "1 day left", "due today": the days as a reader wants them. */
function daysInWords(daysLeft: number, today: string): string {
  const days = (count: number) => `${count} day${count === 1 ? '' : 's'}`;
  if (daysLeft < 0) return `${days(-daysLeft)} overdue`;
  return daysLeft === 0 ? today : `${days(daysLeft)} left`;
}

/**
 * A "Days left" cell as displayed: a number, or in words ("10 days left", "10 days overdue",
 * "today"); null when empty (no due date).
 */
function daysShown(text: string): number | null {
  if (text === '') return null;
  if (text === 'today') return 0;
  const words = /^(\d+) days? (left|overdue)$/.exec(text);
  if (words) return words[2] === 'left' ? Number(words[1]) : -Number(words[1]);
  expect(text).toMatch(/^-?\d+$/);
  return Number(text);
}

/** "Anna Müller (U-12)"; the id alone where there is no name. */
function nameWithId(name: string, id: string): string {
  return name === '' || name === id ? id : `${name} (${id})`;
}

/**
 * What a digest should hold, from the tabs as the user sees them, in the order a manager acts on
 * them: inspections overdue (the longest overdue first), due soon (the soonest first), never
 * inspected (the tab's order); then trainings expiring (the soonest first) and lapsed in the last
 * 90 days (the most recent first), older lapses only counted. At most 20 listed a section (a tie in
 * the tab's order); trainings without names only as a count (no rows). An inspection line carries
 * its schedule's id where another line would read alike.
 */
function expectedSections(topics = ALL_TOPICS, personalData: PersonalData = 'counts'): Section[] {
  const kinds = [
    { topic: 'expiredInspections', tab: UPCOMING_TAB, status: 'Expired' },
    { topic: 'expiringInspections', tab: UPCOMING_TAB, status: 'Expiring' },
    { topic: 'neverInspected', tab: UPCOMING_TAB, status: 'No inspection recorded' },
    { topic: 'expiringTrainings', tab: EXPIRING_TAB, status: 'Expiring' },
    { topic: 'expiredTrainings', tab: EXPIRING_TAB, status: 'Expired' },
  ] as const;
  const sections = kinds
    .filter((kind) => topics.includes(kind.topic))
    .map((kind) => {
      const [header, ...rows] = harness.displayed(kind.tab);
      const column = (title: string) => header!.indexOf(title);
      const inspection = kind.tab === UPCOMING_TAB;
      const all = rows
        .map((row, index) => ({ row, number: index + 2 }))
        .filter(({ row }) => row[column('Status')] === kind.status)
        .map(({ row, number }) => {
          const cell = (title: string) => row[column(title)]!;
          const daysLeft = daysShown(cell('Days left'));
          return {
            title: inspection
              ? `${cell('Equipment type')}: ${cell('Schedule')}`
              : `${nameWithId(cell('User name'), cell('User ID'))}: ${nameWithId(cell('Training'), cell('Training ID'))}`,
            scheduleId: inspection ? cell('Schedule ID') : '',
            daysLeft,
            days:
              daysLeft === null
                ? 'no inspection recorded: enter Last inspected'
                : daysInWords(daysLeft, inspection ? 'due today' : 'expires today'),
            date: daysLeft === null ? '' : cell(inspection ? 'Due date' : 'Expires'),
            gid: workbook().sheet(kind.tab).gid,
            row: number,
          };
        });
      const older = all.filter((item) => !inspection && item.daysLeft! < -RECENT_LAPSE_DAYS);
      const items = all
        .filter((item) => !older.includes(item))
        .sort((a, b) =>
          kind.topic === 'expiredTrainings'
            ? b.daysLeft! - a.daysLeft!
            : (a.daysLeft ?? 0) - (b.daysLeft ?? 0),
        );
      const listed = inspection || personalData === 'names' ? items.slice(0, 20) : [];
      return { heading: HEADINGS[kind.topic], total: items.length, items: listed, olderLapses: older.length };
    })
    .filter((section) => section.total + section.olderLapses > 0);
  // Inspection lines that would read alike carry their schedule's id.
  const inspections = sections.flatMap((section) => section.items.filter((item) => item.scheduleId !== ''));
  return sections.map((section) => ({
    ...section,
    items: section.items.map(({ scheduleId, daysLeft: _daysLeft, ...item }) => ({
      ...item,
      title: asShown(
        inspections.filter((other) => other.title === item.title).length > 1
          ? `${item.title} (${scheduleId})`
          : item.title,
      ),
    })),
  }));
}

/** The subject of a digest of these sections: the most urgent counts first. */
function expectedSubject(sections: Section[], onlyNew = false): string {
  const total = (...headings: string[]) =>
    sections
      .filter((section) => headings.includes(section.heading))
      .reduce((sum, section) => sum + section.total, 0);
  const parts = [
    [total(HEADINGS.expiredInspections, HEADINGS.expiredTrainings), 'expired'],
    [total(HEADINGS.expiringInspections, HEADINGS.expiringTrainings), 'expiring'],
    [total(HEADINGS.neverInspected), 'never inspected'],
  ].filter(([count]) => count !== 0);
  return `Safety Sync${onlyNew ? ', new' : ''}: ${parts.map(([count, words]) => `${count} ${words}`).join(', ')}`;
}

const ITEM =
  /^- (.+): (\d+ days? overdue|\d+ days? left|due today|expires today) \((\d{4}-\d\d-\d\d)\) (\S+)$/;
const UNDATED_ITEM = /^- (.+): (no inspection recorded: enter Last inspected) (\S+)$/;
const HEADING = new RegExp(
  `^(${Object.values(HEADINGS)
    .map((heading) => heading.replace(/[()]/g, '\\$&'))
    .join('|')}) \\((\\d+)`,
);
const OLDER = '(\\d+) trainings? lapsed more than 90 days ago';
const TAB_LINK = ': see the Expiring trainings tab: \\S+#gid=(\\d+)$';
/** A training section without names: "12 expiring trainings: see the Expiring trainings tab: <link>". */
const COUNT_ONLY = new RegExp(
  `^(\\d+) (expiring trainings?|trainings? lapsed in the last 90 days)(?: \\(and ${OLDER}\\))?${TAB_LINK}`,
);
/** Older lapses alone: "373 trainings lapsed more than 90 days ago[, not listed]: see …". */
const OLDER_ONLY = new RegExp(`^(?:And )?${OLDER}(?:, not listed)?${TAB_LINK}`);

/** The sections of a digest's plain body, read back as a reader would. */
function sectionsOf(mail: SentMail): Section[] {
  const sections: Section[] = [];
  const expiringGid = workbook().sheet(EXPIRING_TAB).gid;
  for (const line of mail.body.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading)
      sections.push({ heading: heading[1]!, total: Number(heading[2]), items: [], olderLapses: 0 });
    const count = COUNT_ONLY.exec(line);
    if (count) {
      expect(Number(count[4])).toBe(expiringGid);
      const heading = count[2]!.startsWith('expiring')
        ? HEADINGS.expiringTrainings
        : HEADINGS.expiredTrainings;
      sections.push({ heading, total: Number(count[1]), items: [], olderLapses: Number(count[3] ?? 0) });
      continue;
    }
    const older = OLDER_ONLY.exec(line);
    if (older) {
      expect(Number(older[2])).toBe(expiringGid);
      // After the listed lapses ("And …"), or a section of older lapses alone.
      if (!line.startsWith('And ')) {
        sections.push({ heading: HEADINGS.expiredTrainings, total: 0, items: [], olderLapses: 0 });
      }
      sections[sections.length - 1]!.olderLapses = Number(older[1]);
    }
    const item = ITEM.exec(line);
    const undated = UNDATED_ITEM.exec(line);
    if (item || undated) {
      const [title, days, date, link] = item ? item.slice(1) : [undated![1], undated![2], '', undated![3]];
      const at = /#gid=(\d+)&range=A(\d+)$/.exec(link!)!;
      sections[sections.length - 1]!.items.push({
        title: title!,
        days: days!,
        date: date!,
        gid: Number(at[1]),
        row: Number(at[2]),
      });
    }
  }
  return sections;
}

function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  };
  return text.replace(/[&<>"']/g, (character) => entities[character]!);
}

/** The people and trainings named on the Expiring trainings tab: what a digest without names omits. */
function namesOnExpiringTab(): string[] {
  const [header, ...rows] = harness.displayed(EXPIRING_TAB);
  const columns = ['User name', 'Training'].map((title) => header!.indexOf(title));
  return [...new Set(rows.flatMap((row) => columns.map((column) => row[column]!)))].filter(
    (name) => name !== '',
  );
}

/** The owner's address as a message shows it: its dots bracketed, so that it is no link. */
function ownerAsShown(): string {
  return harness.emulator.users.owner.replace(/\./g, '[.]');
}

/** The Sync log's lines of the e-mails, newest first: [action, outcome, details]. */
function mailLog(): string[][] {
  return syncLog(harness)
    .filter((line) => line[0]!.startsWith('E-mail'))
    .map((line) => [line[0]!, line[5]!, line[8]!]);
}

/** Types a "Last inspected" date on the first rolling schedule due every `frequency` days or less. */
function recordOldInspection(daysAgo: number): string {
  const [header, ...rows] = harness.displayed(SCHEDULES_TAB);
  const column = (title: string) => header!.indexOf(title);
  const index = rows.findIndex(
    (row) =>
      row[column('Timing')] === 'rolling' &&
      Number(row[column('Frequency (days)')]) > 0 &&
      Number(row[column('Frequency (days)')]) < daysAgo &&
      row[column('Last inspected')] === '',
  );
  expect(index).toBeGreaterThanOrEqual(0);
  const date = new Date(harness.emulator.clock.now() - daysAgo * DAY).toISOString().slice(0, 10);
  const letter = String.fromCharCode(65 + column('Last inspected'));
  workbook().typeValues(`'${SCHEDULES_TAB}'!${letter}${index + 2}`, [[date]]);
  return `${rows[index]![column('Equipment type ID')]}`;
}

describe('the digest', () => {
  beforeEach(() => setUp());

  test('is off until someone turns it on: no settings, no mail', () => {
    expect(harness.callServer('getSettings').notifications).toMatchObject({
      recipients: [],
      frequency: 'off',
      topics: ALL_TOPICS,
      personalData: 'counts',
    });
    schedule();
    for (let run = 0; run < 3; run++) {
      harness.emulator.clock.advance(DAY);
      expect(fire()).toEqual([]);
    }
    expect(mailLog()).toEqual([]);
  });

  test('daily: everything open, once a day, as the tabs show it, from the schedule owner, trainings counted without names', () => {
    expect(notify('daily')).toMatchObject({ ok: true });
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest, ...others] = fire();
    expect(others).toEqual([]);
    expect(digest).toMatchObject({
      from: harness.emulator.users.owner,
      to: ['safety@example.com', 'manager@example.org'],
    });
    const expected = expectedSections();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(sectionsOf(digest!)).toEqual(expected);
    expect(digest!.subject).toBe(expectedSubject(expected));
    expect(digest!.subject.length).toBeLessThan(70);
    expect(expected.map((section) => section.heading)).toContain(HEADINGS.expiredTrainings);
    expect(digest!.body).toContain(`Sent by the scheduled refresh of ${ownerAsShown()}`);
    expect(digest!.body).toContain(`https://docs.google.com/spreadsheets/d/${harness.spreadsheetId}/edit`);
    // No person and no training leaves the spreadsheet by default.
    const names = namesOnExpiringTab();
    expect(names.length).toBeGreaterThan(2);
    for (const part of [digest!.subject, digest!.body, digest!.htmlBody]) {
      for (const name of names) expect(part).not.toContain(name);
    }
    expect(mailLog()).toEqual([
      [
        'E-mail digest',
        'Success',
        expect.stringMatching(
          /^"Safety Sync: .*" sent to 2 recipients: safety@example\.com, manager@example\.org\.$/,
        ),
      ],
    ]);

    // The same day: nothing more.
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
    // The next day: what is still open comes again.
    harness.emulator.clock.advance(DAY);
    const [again] = fire();
    expect(sectionsOf(again!)).toEqual(expectedSections());
  });

  test('with names allowed: each training listed with its person, escaped in the HTML', () => {
    expect(notify('daily', ALL_TOPICS, RECIPIENTS.join(', '), 'names')).toMatchObject({
      ok: true,
      settings: { notifications: { personalData: 'names' } },
    });
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();
    const expected = expectedSections(ALL_TOPICS, 'names');
    expect(sectionsOf(digest!)).toEqual(expected);
    const trainings = expected.filter((section) => section.heading.includes('trainings'));
    expect(trainings.flatMap((section) => section.items).length).toBeGreaterThan(0);
    // Service and user strings are escaped in the HTML body ("Harness & lanyard", "O'Brien", "=…").
    for (const item of expected.flatMap((section) => section.items)) {
      expect(digest!.htmlBody).toContain(`>${escapeHtml(item.title)}</a>`);
    }
    expect(digest!.htmlBody).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
  });

  test('a tab renamed, a training named and an equipment type titled like links: no link but to the spreadsheet', async () => {
    const LURE_TAB = 'Action needed: sign in at https://evil.example';
    const LURE_TRAINING = 'https://evil.example/renew';
    const LURE_TYPE = 'Renew at evil.example/login';
    notify('daily', ALL_TOPICS, RECIPIENTS.join(', '), 'names');
    // An editor names an expiring training with a URL on the Trainings tab…
    const [expiringHeader, ...expiringRows] = harness.displayed(EXPIRING_TAB);
    const trainingId = expiringRows[0]![expiringHeader!.indexOf('Training ID')]!;
    const [catalogueHeader, ...catalogue] = harness.displayed('Trainings');
    const nameColumn = String.fromCharCode(65 + catalogueHeader!.indexOf('Name'));
    const trainingRow = catalogue.findIndex((row) => row[0] === trainingId) + 2;
    workbook().typeValues(`Trainings!${nameColumn}${trainingRow}`, [[LURE_TRAINING]]);
    // …the service titles an equipment type with a due inspection like a link…
    const [upcomingHeader, ...upcoming] = harness.displayed(UPCOMING_TAB);
    const typeId = upcoming.find((row) => row[upcomingHeader!.indexOf('Status')] !== 'OK')![0]!;
    await harness.dataset.mutate({ renameEquipmentTypes: [{ id: typeId, title: LURE_TYPE }] });
    // …and an editor renames the Upcoming inspections tab.
    workbook().sheet(UPCOMING_TAB).rename(LURE_TAB);
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();

    expect(
      foreignLinksInMail(digest!, `https://docs.google.com/spreadsheets/d/${harness.spreadsheetId}/edit`),
    ).toEqual([]);
    expect(JSON.stringify(digest)).not.toContain('evil.example');
    // Each is there, readable, only not a link.
    expect(digest!.body).toMatch(/\): https\[:\]\/\/evil\[\.\]example\/renew \(\w+\): /);
    expect(digest!.body).toContain('- Renew at evil[.]example/login: ');
    expect(digest!.body).toContain(
      'Action needed: sign in at https[:]//evil[.]example: https://docs.google.com/',
    );
    expect(digest!.htmlBody).toContain('>Action needed: sign in at https[:]//evil[.]example</a>');
  });

  test('with each run that changes something: only what is new, and nothing when nothing changed', () => {
    notify('each-run');
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [first] = fire();
    expect(sectionsOf(first!)).toEqual(expectedSections());
    expect(first!.body).toMatch(/^New since the last digest: /);

    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);

    // A manager records an inspection long ago: the next run finds it overdue, and says only that.
    // An item is new in its section: a schedule never inspected that now is overdue is news.
    const listedAs = (heading: string, title: string) => `${heading}\n${title}`;
    const before = new Set(
      expectedSections().flatMap((section) =>
        section.items.map((item) => listedAs(section.heading, item.title)),
      ),
    );
    recordOldInspection(400);
    harness.emulator.clock.advance(HOUR);
    const [second, ...others] = fire();
    expect(others).toEqual([]);
    const added = expectedSections()
      .map((section) => ({
        ...section,
        items: section.items.filter((item) => !before.has(listedAs(section.heading, item.title))),
      }))
      .filter((section) => section.items.length > 0)
      .map((section) => ({ ...section, total: section.items.length }));
    expect(added).toEqual([expect.objectContaining({ heading: 'Expired inspections', total: 1 })]);
    expect(sectionsOf(second!)).toEqual(added);
    expect(second!.subject).toBe('Safety Sync, new: 1 expired');
  });

  test('weekly: everything open, seven days apart, and nothing when nothing changed', () => {
    notify('weekly', ['expiredTrainings']);
    schedule('12');
    harness.emulator.clock.advance(HOUR);
    const [first] = fire();
    expect(sectionsOf(first!)).toEqual(expectedSections(['expiredTrainings']));
    for (let day = 1; day <= 7; day++) {
      harness.emulator.clock.advance(DAY);
      expect(fire()).toEqual([]);
    }
    // A training's validity shortened: more have expired, and the next run says so, with the rest.
    workbook().typeValues('Trainings!E2', [[1]]);
    harness.emulator.clock.advance(HOUR);
    const [second] = fire();
    const expected = expectedSections(['expiredTrainings']);
    const lapses = (section: Section) => section.total + section.olderLapses;
    expect(lapses(expected[0]!)).toBeGreaterThan(lapses(sectionsOf(first!)[0]!));
    expect(sectionsOf(second!)).toEqual(expected);
    expect(second!.body).toMatch(/^Open now: /);
  });

  test('reading for the digest and sending it add no commit to the scheduled run', () => {
    schedule();
    const commitsOfRun = () => {
      harness.emulator.clock.advance(HOUR);
      harness.emulator.counter.reset();
      const sent = fire();
      return { sent: sent.length, commits: harness.emulator.counter.commits() };
    };
    const off = commitsOfRun();
    notify('daily');
    const on = commitsOfRun();
    expect(off.sent).toBe(0);
    expect(on.sent).toBe(1);
    expect(on.commits).toBe(off.commits);
  });

  test('an exhausted daily quota skips the digest, says so in the Sync log, and the next day sends it', () => {
    notify('daily');
    schedule();
    harness.emulator.clock.advance(HOUR);
    harness.emulator.mail.spend(harness.emulator.users.owner, 99, harness.emulator.clock.now());
    expect(fire()).toEqual([]);
    expect(mailLog()).toEqual([
      [
        'E-mail digest',
        'Skipped',
        expect.stringMatching(
          /was not sent: it goes to 2 recipients and the schedule owner's share for a run is 0 recipients \(at most 20 a run and 50% of the 1 left in their daily quota.*the next scheduled run tries again\./,
        ),
      ],
    ]);
    harness.emulator.clock.advance(DAY);
    const [digest] = fire();
    expect(sectionsOf(digest!)).toEqual(expectedSections());
  });
});

/** The column letter of a header on a tab, as the user sees it. */
function columnLetter(tab: string, title: string): string {
  const column = harness.displayed(tab)[0]!.indexOf(title);
  expect(column).toBeGreaterThanOrEqual(0);
  return String.fromCharCode(65 + column);
}

/** Types `value` into a column of the Trainings tab, on every training's row. */
function typeOnEveryTraining(title: string, value: string | number): void {
  const count = harness.displayed('Trainings').length - 1;
  const letter = columnLetter('Trainings', title);
  workbook().typeValues(
    `Trainings!${letter}2:${letter}${count + 1}`,
    Array.from({ length: count }, () => [value]),
  );
}

/**
 * Text as a message shows it: a URL's scheme and a domain's dots bracketed, so that it is no link
 * (what the test dataset's names need; test/support/link-finder.ts checks the rule at large).
 */
function asShown(text: string): string {
  return text.replace(/:(?=\/\/)/g, '[:]').replace(/(?<=\w)\.(?=[A-Za-z])/g, '[.]');
}

/** The spreadsheet's day as the digest writes it, `days` from the clock's. */
function isoDay(days = 0): string {
  return new Date(harness.emulator.clock.now() + days * DAY).toISOString().slice(0, 10);
}

describe('what a manager acts on', () => {
  beforeEach(() => setUp());

  test('trainings expiring first, then the last 90 days’ lapses, the older ones counted; each named with its ids', () => {
    // A long expiring window: trainings still valid are expiring, next to lapses old and recent.
    typeOnEveryTraining('Expiring window (days)', 400);
    // Every other training named, the others known by their ids alone.
    const catalogue = harness.displayed('Trainings').length - 1;
    const names = columnLetter('Trainings', 'Name');
    workbook().typeValues(
      `Trainings!${names}2:${names}${catalogue + 1}`,
      Array.from({ length: catalogue }, (_, index) => [index % 2 === 0 ? `First aid ${index}` : '']),
    );
    harness.clickMenu('Show training status');
    notify('daily', ALL_TOPICS, RECIPIENTS.join(', '), 'names');
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();
    const expected = expectedSections(ALL_TOPICS, 'names');
    expect(sectionsOf(digest!)).toEqual(expected);
    const trainings = expected.filter((section) => section.heading.includes('trainings'));
    expect(trainings.map((section) => section.heading)).toEqual([
      'Expiring trainings',
      'Expired trainings, lapsed in the last 90 days',
    ]);
    const older = trainings[1]!.olderLapses;
    expect(older).toBeGreaterThan(0);
    expect(digest!.body).toContain(
      `And ${older} trainings lapsed more than 90 days ago, not listed: see the Expiring trainings tab: `,
    );
    // Both ways a training is named: "Anna Müller (U-12): First aid (TR-8)", and its id where it has no name.
    const [header, ...rows] = harness.displayed(EXPIRING_TAB);
    const cell = (row: string[], title: string) => row[header!.indexOf(title)]!;
    const listed = trainings.flatMap((section) => section.items.map((item) => item.row));
    const named = rows.filter(
      (row, index) => listed.includes(index + 2) && cell(row, 'Training') !== cell(row, 'Training ID'),
    );
    const unnamed = rows.filter(
      (row, index) => listed.includes(index + 2) && cell(row, 'Training') === cell(row, 'Training ID'),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(unnamed.length).toBeGreaterThan(0);
    const person = named[0]!;
    expect(digest!.body).toContain(
      `- ${cell(person, 'User name')} (${cell(person, 'User ID')}): ${cell(person, 'Training')} (${cell(person, 'Training ID')}): `,
    );
    expect(digest!.body).toContain(`: ${cell(unnamed[0]!, 'Training ID')}: `);
    expect(digest!.subject.length).toBeLessThan(70);
    expect(digest!.subject).toBe(expectedSubject(expected));
  });

  test('a training named at length: its name is cut short with an ellipsis, its id still in brackets', () => {
    typeOnEveryTraining('Expiring window (days)', 400);
    const longName = `First aid ${'at work, a refresher with a practical assessment '.repeat(4)}`.trim();
    typeOnEveryTraining('Name', longName);
    harness.clickMenu('Show training status');
    notify('daily', ['expiringTrainings'], RECIPIENTS.join(', '), 'names');
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();
    const [header, ...rows] = harness.displayed(EXPIRING_TAB);
    const cell = (row: string[], title: string) => row[header!.indexOf(title)]!;
    const expiring = rows.find((row) => cell(row, 'Status') === 'Expiring')!;
    const person = nameWithId(cell(expiring, 'User name'), cell(expiring, 'User ID'));
    const line = digest!.body.split('\n').find((text) => text.startsWith(`- ${person}: First aid`))!;
    const rest = line.slice(`- ${person}: `.length);
    const id = cell(expiring, 'Training ID');
    const training = rest.slice(0, rest.indexOf(` (${id}): `) + ` (${id})`.length);
    // The name gives way to its id: the two together take at most 79 characters.
    expect(training.endsWith(`… (${id})`)).toBe(true);
    expect(training.length).toBeLessThanOrEqual(79);
    expect(longName.startsWith(training.slice(0, training.indexOf('…')))).toBe(true);
  });

  test('two schedules that read alike: each line carries its schedule’s id', async () => {
    const [header, ...rows] = harness.displayed(UPCOMING_TAB);
    const cell = (row: string[], title: string) => row[header!.indexOf(title)]!;
    const due = rows.filter((row) => ['Expired', 'Expiring'].includes(cell(row, 'Status')));
    const first = due[0]!;
    const second = due.find((row) => cell(row, 'Equipment type ID') !== cell(first, 'Equipment type ID'))!;
    // Another type titled like the first, with a schedule named like the first's.
    await harness.dataset.mutate({
      renameEquipmentTypes: [{ id: cell(second, 'Equipment type ID'), title: cell(first, 'Equipment type') }],
      editSchedules: [
        {
          typeId: cell(second, 'Equipment type ID'),
          scheduleId: cell(second, 'Schedule ID'),
          fields: { name: cell(first, 'Schedule') },
        },
      ],
    });
    notify('daily', ['expiredInspections', 'expiringInspections']);
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();
    const alike = `${cell(first, 'Equipment type')}: ${cell(first, 'Schedule')}`;
    expect(sectionsOf(digest!)).toEqual(expectedSections(['expiredInspections', 'expiringInspections']));
    for (const row of [first, second]) {
      expect(digest!.body).toContain(`- ${alike} (${cell(row, 'Schedule ID')}): `);
    }
  });

  test('schedules never inspected: a section of their own, counted in the subject, saying what to enter', () => {
    // Upcoming inspections lists them as "No inspection recorded" with no days left, as the
    // schedules tab says of them.
    const [schedulesHeader, ...schedules] = harness.displayed(SCHEDULES_TAB);
    const scheduleCell = (row: string[], title: string) => row[schedulesHeader!.indexOf(title)]!;
    const never = schedules.filter((row) => scheduleCell(row, 'Status') === 'No inspection recorded');
    expect(never.length).toBeGreaterThan(1);
    const [header, ...listed] = harness.displayed(UPCOMING_TAB);
    expect(listed.filter((row) => row[header!.indexOf('Status')] === 'No inspection recorded')).toHaveLength(
      never.length,
    );
    notify('each-run', ['expiredInspections', 'neverInspected']);
    schedule();
    harness.emulator.clock.advance(HOUR);
    const [digest] = fire();
    const expected = expectedSections(['expiredInspections', 'neverInspected']);
    expect(expected.map((section) => [section.heading, section.total])).toContainEqual([
      'Never inspected: enter Last inspected',
      never.length,
    ]);
    expect(sectionsOf(digest!)).toEqual(expected);
    expect(digest!.subject).toBe(expectedSubject(expected, true));
    expect(digest!.subject).toMatch(new RegExp(`${never.length} never inspected$`));
  });
});

describe('a digest states only what the run knows today', () => {
  beforeEach(() => setUp());

  test('a day the training tabs are refused (a Validity cell): trainings left out and said why; fixed, the same day brings them', () => {
    notify('daily', ALL_TOPICS, RECIPIENTS.join(', '), 'names');
    schedule();
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toHaveLength(1);
    const computedFor = isoDay();

    workbook().typeValues(`Trainings!${columnLetter('Trainings', 'Validity (months)')}2`, [['one year']]);
    harness.emulator.clock.advance(DAY);
    const [digest] = fire();
    expect(digest!.body).toContain(
      `Trainings are left out: the training tabs hold their days left for ${computedFor}, and this run could not recompute them for today.`,
    );
    expect(digest!.subject).toMatch(/, trainings left out$/);
    // What it lists is today's: the inspections, recomputed by this run; no training.
    const inspections = expectedSections(['expiredInspections', 'expiringInspections', 'neverInspected']);
    expect(sectionsOf(digest!)).toEqual(inspections);
    expect(digest!.body).not.toMatch(/trainings?\b.*(overdue|left|expires today) \(/);

    // Fixed: the next run that day recomputes them and sends the digest, complete.
    workbook().typeValues(`Trainings!${columnLetter('Trainings', 'Validity (months)')}2`, [[12]]);
    harness.emulator.clock.advance(HOUR);
    const [complete] = fire();
    expect(complete!.body).not.toContain('left out');
    expect(sectionsOf(complete!)).toEqual(expectedSections(ALL_TOPICS, 'names'));
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
  });

  test('a day the full read continues into the next run: the tabs it did not recompute are left out, not shifted', async () => {
    notify('daily', ALL_TOPICS, RECIPIENTS.join(', '), 'names');
    // One page a request: a slow network makes each page cost a round trip.
    harness.useBatchSize(1);
    schedule();
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toHaveLength(1);
    const computedFor = isoDay();

    // A day later the daily full read starts, over a network so slow it cannot end in one run.
    await harness.dataset.setQuirks({ pageSizeCap: 20 });
    harness.emulator.urlFetch.roundTripMs = 60_000;
    harness.emulator.clock.advance(DAY);
    const [digest] = fire();
    expect(syncLog(harness).map((line) => line[5])).toContain('Continuing');
    expect(digest!.body).toContain(
      `Trainings are left out: the training tabs hold their days left for ${computedFor}`,
    );
    expect(digest!.body).toContain(
      `Inspections are left out: the Upcoming inspections tab holds its days left for ${computedFor}`,
    );
    expect(sectionsOf(digest!)).toEqual([]);
    expect(digest!.body).not.toMatch(/^- /m);
  });
});

describe('the settings', () => {
  beforeEach(() => setUp());

  test('refuse a wrong address, too many, none, or an unknown frequency, next to the field, saving nothing', () => {
    expect(notify('daily', ALL_TOPICS, 'safety@example.com, not-an-address')).toEqual({
      ok: false,
      field: 'notifyRecipients',
      message: expect.stringMatching(/^"not-an-address" is not an e-mail address\. Enter addresses like/),
    });
    expect(notify('daily', ALL_TOPICS, '')).toEqual({
      ok: false,
      field: 'notifyRecipients',
      message: expect.stringMatching(/at least one e-mail address/),
    });
    const many = Array.from({ length: 51 }, (_, index) => `p${index}@example.com`).join(', ');
    expect(notify('daily', ALL_TOPICS, many)).toMatchObject({ ok: false, field: 'notifyRecipients' });
    expect(notify('hourly')).toMatchObject({ ok: false, field: 'notifyFrequency' });
    expect(notify('daily', [])).toMatchObject({ ok: false, field: 'notifyFrequency' });
    expect(harness.callServer('getSettings').notifications.frequency).toBe('off');

    expect(notify('weekly', ['refreshFailures'], 'a@example.com;B@example.com a@example.com')).toMatchObject({
      ok: true,
      settings: {
        notifications: {
          recipients: ['a@example.com', 'b@example.com'],
          frequency: 'weekly',
          topics: ['refreshFailures'],
        },
      },
    });
    // Saving the connection again keeps them.
    harness.connect();
    expect(harness.callServer('getSettings').notifications.frequency).toBe('weekly');
  });
});

describe('the alerts', () => {
  beforeEach(() => setUp());

  test('a failure alert after two failed runs in a row, not after one, once a streak', async () => {
    notify('daily', ['refreshFailures']);
    schedule();
    await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
    harness.emulator.clock.advance(HOUR);
    const [alert, ...others] = fire();
    expect(others).toEqual([]);
    expect(alert!.subject).toBe('Safety Sync: the scheduled refresh failed twice in a row');
    expect(alert!.body).toMatch(
      /failed in its last two runs, the last with server_error \(request ID [A-Za-z0-9]+\)\./,
    );
    expect(alert!.body).toContain(`Sent by the scheduled refresh of ${ownerAsShown()}`);
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);

    // A good run ends the streak; two more failures alert again.
    await harness.dataset.setFaults({});
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
    await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
    harness.emulator.clock.advance(HOUR);
    expect(fire()).toEqual([]);
    harness.emulator.clock.advance(HOUR);
    expect(fire().map((mail) => mail.subject)).toEqual([alert!.subject]);
  });

  test('a service whose errors quote the token again and again: neither the alert nor the Sync log it points to shows any copy', async () => {
    notify('daily', ['refreshFailures']);
    schedule();
    await harness.dataset.setQuirks({ quoteTokenInErrors: true });
    await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1_000 }] });
    harness.emulator.clock.advance(HOUR);
    fire();
    harness.emulator.clock.advance(HOUR);
    const [alert] = fire();
    expect(alert!.subject).toBe('Safety Sync: the scheduled refresh failed twice in a row');
    // The Sync log has each run's error, as the alert says: the service's words, both copies gone.
    const failed = workbook()
      .sheet('Sync log')
      .displayValues()
      .filter((line) => line[7] === 'Failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const line of failed) {
      expect(line.join(' ')).toMatch(
        /Token "\[redacted\]" \(sent as token=\[redacted\]; again:\[redacted\]\)/,
      );
      expect(line.join(' ')).not.toContain(harness.dataset.tokens.valid);
    }
  });

  test('a notice when the schedule pauses itself, and neither alert without "Refresh failures"', () => {
    notify('daily', ['refreshFailures']);
    schedule();
    const badToken = 'NotARealToken00000000000000000';
    harness.connect(badToken);
    const subjects: string[][] = [];
    for (let run = 1; run <= 3; run++) {
      harness.emulator.clock.advance(HOUR);
      subjects.push(fire().map((mail) => mail.subject));
    }
    expect(subjects).toEqual([
      [],
      ['Safety Sync: the scheduled refresh failed twice in a row'],
      ['Safety Sync: the scheduled refresh paused itself'],
    ]);
    const notice = harness.emulator.mail.sent[harness.emulator.mail.sent.length - 1]!;
    expect(notice.body).toMatch(/paused itself: 3 runs in a row failed with token_invalid/);
    expect(notice.body).toMatch(/Save a working token in Safety Sync → Settings…/);
    for (const mail of harness.emulator.mail.sent) expect(JSON.stringify(mail)).not.toContain(badToken);

    // Resumed, without refresh failures chosen: the same failures send nothing.
    harness.connect();
    notify('daily', ['expiredInspections']);
    schedule();
    harness.connect(badToken);
    for (let run = 1; run <= 3; run++) {
      harness.emulator.clock.advance(HOUR);
      expect(fire()).toEqual([]);
    }
  });
});
