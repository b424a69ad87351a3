/**
 * The words of every message Safety Sync sends: the digest, the alert after repeated failures and the
 * notice that the schedule paused itself. Each has a plain body and an HTML body; every string that
 * came from the service, the sheet or a user is escaped in the HTML. Each says whose schedule sends
 * it and links to the spreadsheet and its tabs. Pure: the caller gives the links and the owner.
 */
import type { DigestItem, DigestPlan, DigestSection } from './digest';
import type { DigestTopic } from './notification-settings';

export interface Mail {
  subject: string;
  body: string;
  htmlBody: string;
}

export interface TabLink {
  name: string;
  url: string;
}

/** Where a message points and who sends it. */
export interface MailSetting {
  spreadsheetUrl: string;
  /** The tabs worth opening from the message: Upcoming inspections, Expiring trainings, Sync log. */
  tabs: TabLink[];
  /** The e-mail of the user whose scheduled refresh sends it. */
  scheduleOwner: string;
}

const TOPIC_TITLES: Record<Exclude<DigestTopic, 'refreshFailures'>, string> = {
  expiredInspections: 'Expired inspections',
  expiringInspections: 'Expiring inspections',
  expiredTrainings: 'Expired trainings',
  expiringTrainings: 'Expiring trainings',
};

const FREQUENCY_WORDS: Record<DigestPlan['frequency'], string> = {
  'each-run': 'with each scheduled refresh that finds something new',
  daily: 'daily',
  weekly: 'weekly',
};

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "3 days overdue", "due today", "12 days left" (trainings: "expires today"). */
function describeDays(item: Pick<DigestItem, 'daysLeft' | 'kind'>): string {
  if (item.daysLeft < 0) return `${plural(-item.daysLeft, 'day')} overdue`;
  if (item.daysLeft === 0) return item.kind === 'inspection' ? 'due today' : 'expires today';
  return `${plural(item.daysLeft, 'day')} left`;
}

function sectionTitle(section: DigestSection): string {
  return TOPIC_TITLES[section.topic as keyof typeof TOPIC_TITLES];
}

function sentBy(setting: MailSetting): string {
  return `Sent by the scheduled refresh of ${setting.scheduleOwner || 'the schedule’s owner'} (Safety Sync → Schedule refresh…). Change who receives it, how often and what it includes in Safety Sync → Settings… → Notifications.`;
}

function linksPlain(setting: MailSetting): string[] {
  return [
    `Open the spreadsheet: ${setting.spreadsheetUrl}`,
    ...setting.tabs.map((tab) => `${tab.name}: ${tab.url}`),
  ];
}

function linksHtml(setting: MailSetting): string {
  const links = [{ name: 'Open the spreadsheet', url: setting.spreadsheetUrl }, ...setting.tabs].map(
    (tab) => `<a href="${escapeHtml(tab.url)}">${escapeHtml(tab.name)}</a>`,
  );
  return `<p>${links.join(' · ')}</p>`;
}

function htmlPage(paragraphs: string[], setting: MailSetting): string {
  return [
    '<div style="font-family:Arial,sans-serif;font-size:14px;color:#202124">',
    ...paragraphs,
    linksHtml(setting),
    `<p style="color:#5f6368;font-size:12px">${escapeHtml(sentBy(setting))}</p>`,
    '</div>',
  ].join('\n');
}

function countsOf(plan: DigestPlan): string {
  // "1 expired inspection", "25 expiring trainings": each title is a plural noun.
  return plan.sections
    .map((section) => plural(section.total, sectionTitle(section).toLowerCase().replace(/s$/, '')))
    .join(', ');
}

export function digestMail(plan: DigestPlan, setting: MailSetting): Mail {
  const counts = countsOf(plan);
  const intro =
    (plan.onlyNew ? `New since the last digest: ${counts}.` : `Open now: ${counts}.`) +
    ` This digest comes ${FREQUENCY_WORDS[plan.frequency]}.`;
  const plain: string[] = [intro, ''];
  const html: string[] = [`<p>${escapeHtml(intro)}</p>`];
  for (const section of plan.sections) {
    const more = section.total - section.listed.length;
    const heading = `${sectionTitle(section)} (${section.total}${more > 0 ? `, the ${section.listed.length} most urgent shown` : ''})`;
    plain.push(heading);
    html.push(`<h3 style="margin:16px 0 4px">${escapeHtml(heading)}</h3>`, '<ul>');
    for (const item of section.listed) {
      const when = `${describeDays(item)} (${item.date})`;
      plain.push(`- ${item.title}: ${when} ${item.link}`);
      html.push(
        `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.title)}</a>: ${escapeHtml(when)}</li>`,
      );
    }
    html.push('</ul>');
    if (more > 0) plain.push(`… and ${more} more on the tab.`);
    plain.push('');
  }
  plain.push(...linksPlain(setting), '', sentBy(setting));
  return {
    subject: `Safety Sync digest: ${counts}`,
    body: plain.join('\n'),
    htmlBody: htmlPage(html, setting),
  };
}

/** An alert: a subject and sentences, the same in both bodies. */
export function alertMail(subject: string, sentences: string[], setting: MailSetting): Mail {
  return {
    subject,
    body: [...sentences, '', ...linksPlain(setting), '', sentBy(setting)].join('\n'),
    htmlBody: htmlPage(
      sentences.map((sentence) => `<p>${escapeHtml(sentence)}</p>`),
      setting,
    ),
  };
}
