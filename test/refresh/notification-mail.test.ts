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
    date: '2024-03-01',
    daysLeft,
    link: `${SPREADSHEET_URL}#gid=1&range=A2`,
  };
}

const plan: DigestPlan = {
  frequency: 'daily',
  onlyNew: false,
  sections: [
    { topic: 'expiredInspections', total: 25, listed: [item(-3), item(-1)] },
    { topic: 'expiringTrainings', total: 1, listed: [item(0, 'training')] },
  ],
  memory: { reported: '', openFingerprint: null, lastDay: 0 as CalendarDate },
};

test('a digest escapes every outside string in its HTML and keeps it as it was in its plain body', () => {
  const mail = digestMail(plan, setting);
  expect(mail.subject).toBe('Safety Sync digest: 25 expired inspections, 1 expiring training');
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
      { topic: 'expiredInspections', total: 1, listed: [item(-2, 'inspection', 'Forklift: Monthly check')] },
      {
        topic: 'expiredTrainings',
        total: 1,
        listed: [item(-5, 'training', `${PEOPLE[0]}: ${TRAININGS[0]}`)],
      },
      {
        topic: 'expiringTrainings',
        total: 12,
        listed: [item(4, 'training', `${PEOPLE[1]}: ${TRAININGS[1]}`)],
      },
    ],
  };
  const partsOf = (mail: Mail) => [mail.subject, mail.body, mail.htmlBody];

  test('counts only (the default): no person and no training in any part, a count and the tab instead', () => {
    const mail = digestMail(peoplePlan, { ...setting, personalData: 'counts' });
    for (const part of partsOf(mail)) {
      for (const word of [...PEOPLE, ...TRAININGS]) expect(part).not.toContain(word);
    }
    expect(mail.subject).toBe(
      'Safety Sync digest: 1 expired inspection, 1 expired training, 12 expiring trainings',
    );
    expect(mail.body).toContain(
      `12 expiring trainings: see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`,
    );
    expect(mail.body).toContain(`1 expired training: see the Expiring trainings tab: ${TRAININGS_TAB.url}\n`);
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
    expect(mail.body).toContain(`Expired trainings (1)\n- ${PEOPLE[0]}: ${TRAININGS[0]}: 5 days overdue`);
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
      { topic: 'expiredInspections', total: 6, listed: LURES.map((lure) => item(-1, 'inspection', lure)) },
      { topic: 'expiringTrainings', total: 6, listed: LURES.map((lure) => item(3, 'training', lure)) },
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
