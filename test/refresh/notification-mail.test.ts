/**
 * The words and HTML of the messages (src/refresh/notification-mail.ts): every string from the
 * service, a cell or a user reaches the HTML body escaped; no such string forms a link in any part of
 * a message, whose only links are the add-on's own; and a digest names people and trainings only
 * when Settings allow it.
 */
import type { CalendarDate } from '../../src/lib/dates';
import type { DigestItem, DigestPlan } from '../../src/refresh/digest';
import { alertMail, digestMail, type Mail, type MailSetting } from '../../src/refresh/notification-mail';
import { foreignLinksInMail } from '../support/link-finder';

const HOSTILE = `<img src=x onerror="alert(1)"> & 'Ops' =HYPERLINK("x")`;
const ESCAPED =
  '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Ops&#39; =HYPERLINK(&quot;x&quot;)';
const SPREADSHEET_URL = 'https://docs.google.com/spreadsheets/d/abc/edit';
const TRAININGS_TAB = { name: 'Expiring trainings', url: `${SPREADSHEET_URL}#gid=2` };

const setting: MailSetting = {
  spreadsheetUrl: SPREADSHEET_URL,
  tabs: [{ name: HOSTILE, url: `${SPREADSHEET_URL}#gid=1` }, TRAININGS_TAB],
  trainingsTab: TRAININGS_TAB,
  scheduleOwner: 'owner+"x"@example.com',
  personalData: 'names',
};

function item(daysLeft: number, kind: DigestItem['kind'] = 'inspection', title = HOSTILE): DigestItem {
  return {
    kind,
    status: daysLeft < 0 ? 'Expired' : 'Expiring',
    key: 'k',
    title,
    id: '',
    date: '2024-03-01',
    daysLeft,
    link: `${SPREADSHEET_URL}#gid=1&range=A2`,
  };
}

const plan: DigestPlan = {
  frequency: 'daily',
  onlyNew: false,
  sections: [
    { topic: 'expiredInspections', total: 25, listed: [item(-3), item(-1)], olderLapses: 0 },
    { topic: 'expiringTrainings', total: 1, listed: [item(0, 'training')], olderLapses: 0 },
  ],
  leftOut: [],
  items: [],
  memory: { reported: '', openFingerprint: null, lastDay: 0 as CalendarDate },
};

test('a digest escapes every outside string in its HTML and keeps it as it was in its plain body', () => {
  const mail = digestMail(plan, setting);
  expect(mail.subject).toBe('Safety Sync: 25 expired, 1 expiring');
  expect(mail.body).toContain(`- ${HOSTILE}: 3 days overdue (2024-03-01) ${item(-3).link}`);
  expect(mail.body).toContain(`- ${HOSTILE}: 1 day overdue (2024-03-01)`);
  expect(mail.body).toContain(`- ${HOSTILE}: expires today (2024-03-01)`);
  expect(mail.body).toContain('Expired inspections (25, the 2 most urgent shown)');
  expect(mail.htmlBody).not.toContain('<img');
  expect(mail.htmlBody).toContain(`>${ESCAPED}</a>: 3 days overdue (2024-03-01)</li>`);
  expect(mail.htmlBody).toContain(`href="${SPREADSHEET_URL}#gid=1&amp;range=A2"`);
  expect(mail.htmlBody).toContain('owner+&quot;x&quot;@example[.]com');
});

test('an alert says the same in both bodies, escaped in the HTML', () => {
  const mail = alertMail('Subject', [`Failed with ${HOSTILE}.`], setting);
  expect(mail.body).toMatch(new RegExp(`^Failed with ${HOSTILE.replace(/[()]/g, '\\$&')}\\.\\n`));
  expect(mail.htmlBody).toContain(`<p>Failed with ${ESCAPED}.</p>`);
  expect(mail.htmlBody).not.toContain('<img');
});

describe('personal data', () => {
  const PEOPLE = ['Anna Müller', 'Jonas Weber'];
  const TRAININGS = ['First aid', 'Forklift licence'];
  const peoplePlan: DigestPlan = {
    ...plan,
    sections: [
      {
        topic: 'expiredInspections',
        total: 1,
        listed: [item(-2, 'inspection', 'Forklift: Monthly check')],
        olderLapses: 0,
      },
      {
        topic: 'expiringTrainings',
        total: 12,
        listed: [item(4, 'training', `${PEOPLE[1]}: ${TRAININGS[1]}`)],
        olderLapses: 0,
      },
      {
        topic: 'expiredTrainings',
        total: 1,
        listed: [item(-5, 'training', `${PEOPLE[0]}: ${TRAININGS[0]}`)],
        olderLapses: 0,
      },
    ],
  };
  const partsOf = (mail: Mail) => [mail.subject, mail.body, mail.htmlBody];

  test('counts only (the default): no person and no training in any part, a count and the tab instead', () => {
    const mail = digestMail(peoplePlan, { ...setting, personalData: 'counts' });
    for (const part of partsOf(mail)) {
      for (const word of [...PEOPLE, ...TRAININGS]) expect(part).not.toContain(word);
    }
    expect(mail.subject).toBe('Safety Sync: 2 expired, 12 expiring');
    expect(mail.body).toContain(
      `12 expiring trainings: see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`,
    );
    expect(mail.body).toContain(
      `1 training lapsed in the last 90 days: see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`,
    );
    expect(mail.htmlBody).toContain(
      `<p>12 expiring trainings: see the <a href="${TRAININGS_TAB.url}">Expiring trainings</a> tab.</p>`,
    );
    expect(mail.body).not.toMatch(/^Expi\w+ trainings \(/m);
    // Inspections carry no personal data: listed as before.
    expect(mail.body).toContain('Expired inspections (1)\n- Forklift: Monthly check: 2 days overdue');
    expect(mail.htmlBody).toContain('>Forklift: Monthly check</a>');
  });

  test('names: each training listed with its person', () => {
    const mail = digestMail(peoplePlan, setting);
    expect(mail.body).toContain(
      `Expired trainings, lapsed in the last 90 days (1)\n- ${PEOPLE[0]}: ${TRAININGS[0]}: 5 days overdue`,
    );
    expect(mail.body).toContain(
      `Expiring trainings (12, the 1 most urgent shown)\n- ${PEOPLE[1]}: ${TRAININGS[1]}: 4 days left`,
    );
    expect(mail.htmlBody).toContain(`>${PEOPLE[1]}: ${TRAININGS[1]}</a>: 4 days left`);
    expect(mail.body).not.toContain('see the Expiring trainings tab');
  });
});

describe('no link but the add-on’s own', () => {
  const LURES = [
    'Action needed: sign in at https://evil.example/login',
    'evil.example',
    '<a href="https://evil.example">Open</a>',
    'www.evil.example',
    'mailto:it@evil.example',
    'Renew at evil.example/renew',
  ];
  const lured: MailSetting = {
    spreadsheetUrl: SPREADSHEET_URL,
    tabs: LURES.map((name, index) => ({ name, url: `${SPREADSHEET_URL}#gid=${index + 10}` })),
    trainingsTab: { name: LURES[0]!, url: `${SPREADSHEET_URL}#gid=10` },
    scheduleOwner: 'owner@evil.example',
    personalData: 'names',
  };
  const lurePlan: DigestPlan = {
    ...plan,
    sections: [
      {
        topic: 'expiredInspections',
        total: 6,
        listed: LURES.map((lure) => item(-1, 'inspection', lure)),
        olderLapses: 0,
      },
      {
        topic: 'expiringTrainings',
        total: 6,
        listed: LURES.map((lure) => item(3, 'training', lure)),
        olderLapses: 0,
      },
    ],
  };

  test.each(['names', 'counts'] as const)('a digest, %s', (personalData) => {
    const mail = digestMail(lurePlan, { ...lured, personalData });
    expect(foreignLinksInMail(mail, SPREADSHEET_URL)).toEqual([]);
    // Still readable: the brackets only.
    expect(mail.body).toContain('Action needed: sign in at https[:]//evil[.]example/login');
    expect(mail.htmlBody).toContain('&lt;a href=&quot;https[:]//evil[.]example&quot;&gt;Open&lt;/a&gt;');
    expect(mail.body).toContain('Sent by the scheduled refresh of owner@evil[.]example');
  });

  test('an alert quoting the service', () => {
    const mail = alertMail(
      'Safety Sync: the scheduled refresh failed twice in a row',
      LURES.map((lure) => `The last run failed with ${lure} (request ID evil.example).`),
      lured,
    );
    expect(foreignLinksInMail(mail, SPREADSHEET_URL)).toEqual([]);
    expect(mail.body).toContain('failed with evil[.]example (request ID evil[.]example).');
  });

  test('the finder sees a foreign link wherever one would be', () => {
    const clean = alertMail('Subject', ['Nothing here.'], lured);
    expect(foreignLinksInMail(clean, SPREADSHEET_URL)).toEqual([]);
    for (const mail of [
      { ...clean, subject: 'Sign in at evil.example' },
      { ...clean, body: `${clean.body}\nhttps://evil.example` },
      { ...clean, htmlBody: `${clean.htmlBody}<a href="https://evil.example">x</a>` },
      { ...clean, htmlBody: `${clean.htmlBody}<p>see www.evil.example</p>` },
    ]) {
      expect(foreignLinksInMail(mail, SPREADSHEET_URL)).not.toEqual([]);
    }
  });
});

describe('what a recipient acts on', () => {
  const section = (
    topic: DigestPlan['sections'][number]['topic'],
    listed: DigestItem[],
    olderLapses = 0,
  ) => ({
    topic,
    total: listed.length,
    listed,
    olderLapses,
  });

  test('two schedules that read alike carry their ids; one that reads like no other does not', () => {
    const harness = (id: string, daysLeft: number) => ({
      ...item(daysLeft, 'inspection', 'Harness & lanyard: Prüfung (jährlich)'),
      id,
    });
    const mail = digestMail(
      {
        ...plan,
        sections: [
          section('expiredInspections', [harness('S-1', -1)]),
          section('expiringInspections', [
            harness('S-2', 2),
            { ...item(3, 'inspection', 'Forklift: Monthly'), id: 'S-3' },
          ]),
        ],
      },
      setting,
    );
    expect(mail.body).toContain('- Harness & lanyard: Prüfung (jährlich) (S-1): 1 day overdue');
    expect(mail.body).toContain('- Harness & lanyard: Prüfung (jährlich) (S-2): 2 days left');
    expect(mail.body).toContain('- Forklift: Monthly: 3 days left');
    expect(mail.htmlBody).toContain('>Harness &amp; lanyard: Prüfung (jährlich) (S-2)</a>');
  });

  test('schedules never inspected: a section that says what to enter, counted in the subject', () => {
    const never = {
      ...item(0, 'inspection', 'Ladder: Visual check'),
      status: 'No inspection recorded' as const,
      daysLeft: null,
      date: '',
    };
    const mail = digestMail({ ...plan, sections: [section('neverInspected', [never, never])] }, setting);
    expect(mail.subject).toBe('Safety Sync: 2 never inspected');
    expect(mail.body).toContain(
      `Never inspected: enter Last inspected (2)\n- Ladder: Visual check: no inspection recorded: enter Last inspected ${never.link}`,
    );
    expect(mail.body).toMatch(/^Open now: 2 schedules never inspected\./);
  });

  test('older lapses: counted, not listed, with where to see them; named or not', () => {
    const lapsed = item(-3, 'training', 'Anna Müller (U-12): First aid (TR-8)');
    const olderPlan: DigestPlan = { ...plan, sections: [section('expiredTrainings', [lapsed], 373)] };
    const named = digestMail(olderPlan, setting);
    expect(named.subject).toBe('Safety Sync: 1 expired');
    expect(named.body).toContain(
      `- Anna Müller (U-12): First aid (TR-8): 3 days overdue (2024-03-01) ${lapsed.link}\n` +
        `And 373 trainings lapsed more than 90 days ago, not listed: see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`,
    );
    expect(named.htmlBody).toContain(
      `<p>And 373 trainings lapsed more than 90 days ago, not listed: see the <a href="${TRAININGS_TAB.url}">Expiring trainings</a> tab.</p>`,
    );
    const counted = digestMail(olderPlan, { ...setting, personalData: 'counts' });
    expect(counted.body).toContain(
      `1 training lapsed in the last 90 days (and 373 trainings lapsed more than 90 days ago): see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`,
    );
    expect(counted.body).not.toContain('Anna');

    const onlyOlder = digestMail({ ...plan, sections: [section('expiredTrainings', [], 373)] }, setting);
    expect(onlyOlder.subject).toBe('Safety Sync: 373 lapsed more than 90 days ago');
    expect(onlyOlder.body).toContain('\n373 trainings lapsed more than 90 days ago, not listed: see the');
  });

  test('the subject stays under 70 characters, the most urgent first, however large the counts', () => {
    const many = (topic: DigestPlan['sections'][number]['topic'], total: number) => ({
      topic,
      total,
      listed: [],
      olderLapses: 0,
    });
    const mail = (total: number, onlyNew = false) =>
      digestMail(
        {
          ...plan,
          onlyNew,
          sections: [
            many('expiredInspections', total),
            many('expiringInspections', total),
            many('neverInspected', total),
            many('expiringTrainings', total),
            many('expiredTrainings', total),
          ],
        },
        setting,
      ).subject;
    expect(mail(3)).toBe('Safety Sync: 6 expired, 6 expiring, 3 never inspected');
    expect(mail(3, true)).toBe('Safety Sync, new: 6 expired, 6 expiring, 3 never inspected');
    expect(mail(500_000, true)).toBe('Safety Sync, new: 1000000 expired, 1000000 expiring');
    for (const total of [1, 9_999, 500_000]) expect(mail(total, true).length).toBeLessThan(70);
  });
});

test('a part left out is named first, with the day its tab holds and what brings it back', () => {
  const mail = digestMail(
    {
      ...plan,
      sections: [plan.sections[0]!],
      leftOut: [{ kind: 'training', computedFor: 19_783 as CalendarDate }],
    },
    setting,
  );
  expect(mail.subject).toBe('Safety Sync: 25 expired, trainings left out');
  expect(mail.body).toMatch(
    /^Open now: 25 expired inspections\. This digest comes daily\.\n\nTrainings are left out: the training tabs hold their days left for 2024-03-01, and this run could not recompute them for today\. .*Safety Sync → Show training status recomputes them\.\n/,
  );
  expect(mail.htmlBody).toContain('<p><strong>Trainings are left out: ');
});
