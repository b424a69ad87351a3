/**
 * The words and HTML of the messages (src/refresh/notification-mail.ts): every string from the
 * service, a cell or a user reaches the HTML body escaped, and the plain body as it was.
 */
import type { CalendarDate } from '../../src/lib/dates';
import type { DigestItem, DigestPlan } from '../../src/refresh/digest';
import { alertMail, digestMail, type MailSetting } from '../../src/refresh/notification-mail';

const HOSTILE = `<img src=x onerror="alert(1)"> & 'Ops' =HYPERLINK("x")`;
const ESCAPED =
  '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Ops&#39; =HYPERLINK(&quot;x&quot;)';

const setting: MailSetting = {
  spreadsheetUrl: 'https://docs.google.com/spreadsheets/d/abc/edit',
  tabs: [{ name: HOSTILE, url: 'https://docs.google.com/spreadsheets/d/abc/edit#gid=1' }],
  scheduleOwner: 'owner+"x"@example.com',
};

function item(daysLeft: number, kind: DigestItem['kind'] = 'inspection'): DigestItem {
  return {
    kind,
    status: daysLeft < 0 ? 'Expired' : 'Expiring',
    key: 'k',
    title: HOSTILE,
    date: '2024-03-01',
    daysLeft,
    link: 'https://docs.google.com/spreadsheets/d/abc/edit#gid=1&range=A2',
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
  expect(mail.htmlBody).toContain(
    'href="https://docs.google.com/spreadsheets/d/abc/edit#gid=1&amp;range=A2"',
  );
  expect(mail.htmlBody).toContain('owner+&quot;x&quot;@example.com');
});

test('an alert says the same in both bodies, escaped in the HTML', () => {
  const mail = alertMail('Subject', [`Failed with ${HOSTILE}.`], setting);
  expect(mail.body).toMatch(new RegExp(`^Failed with ${HOSTILE.replace(/[()]/g, '\\$&')}\\.\\n`));
  expect(mail.htmlBody).toContain(`<p>Failed with ${ESCAPED}.</p>`);
  expect(mail.htmlBody).not.toContain('<img');
});
