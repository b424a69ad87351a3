/**
 * The words of every message Safety Sync sends: the digest, the alert after repeated failures and the
 * notice that the schedule paused itself. Each has a plain body and an HTML body. Each says whose
 * schedule sends it and links to the spreadsheet and its tabs. Pure: the caller gives the links and
 * the owner.
 *
 * What leaves the spreadsheet is kept to what the recipients need:
 * - Personal data only when Settings allow it: with "counts" (the default), a training section
 *   gives its count and a link to the Expiring trainings tab, never a person's name or a training.
 *   Inspections carry no personal data and are listed either way.
 * - No link but the add-on's own (the spreadsheet and its tabs, built by the caller from ids): every
 *   other string, whether the sheet, the service, a user or the caller's sentences gave it, is
 *   defanged (src/lib/defang.ts) in the subject and both bodies, so that text typed in a cell
 *   ("sign in at https://evil.example") cannot reach a reader as a link sent by Safety Sync; in the
 *   HTML it is then escaped, and the add-on's links are its only `<a href>`.
 */
import { defang } from '../lib/defang';
import type { DigestItem, DigestPlan, DigestSection } from './digest';
import type { DigestTopic, PersonalDataInMail } from './notification-settings';

export interface Mail {
  subject: string;
  body: string;
  htmlBody: string;
}

/** One of the add-on's own links: `url` is built from the spreadsheet's and the tab's ids. */
export interface TabLink {
  /** The tab's name, as the user named it. */
  name: string;
  url: string;
}

/** Where a message points, who sends it and what it may say about people. */
export interface MailSetting {
  spreadsheetUrl: string;
  /** The tabs worth opening from the message: Upcoming inspections, Expiring trainings, Sync log. */
  tabs: TabLink[];
  /** The Expiring trainings tab, where a digest without names sends its reader; null when missing. */
  trainingsTab: TabLink | null;
  /** The e-mail of the user whose scheduled refresh sends it. */
  scheduleOwner: string;
  /** Whether a digest names each person and training, or gives the trainings' counts only. */
  personalData: PersonalDataInMail;
}

const TOPIC_TITLES: Record<Exclude<DigestTopic, 'refreshFailures'>, string> = {
  expiredInspections: 'Expired inspections',
  expiringInspections: 'Expiring inspections',
  expiredTrainings: 'Expired trainings',
  expiringTrainings: 'Expiring trainings',
};

const TRAINING_TOPICS: readonly DigestTopic[] = ['expiredTrainings', 'expiringTrainings'];

const FREQUENCY_WORDS: Record<DigestPlan['frequency'], string> = {
  'each-run': 'with each scheduled refresh that finds something new',
  daily: 'daily',
  weekly: 'weekly',
};

/** Outside text for the subject or the plain body. */
const plainText = defang;

/** Outside text for the HTML body: defanged, then escaped. */
function htmlText(text: string): string {
  return escapeHtml(defang(text));
}

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

/** The add-on's own link in HTML: its URL as the href, its text defanged. */
function linkHtml(text: string, url: string): string {
  return `<a href="${escapeHtml(url)}">${htmlText(text)}</a>`;
}

function linksPlain(setting: MailSetting): string[] {
  return [
    `Open the spreadsheet: ${setting.spreadsheetUrl}`,
    ...setting.tabs.map((tab) => `${plainText(tab.name)}: ${tab.url}`),
  ];
}

function linksHtml(setting: MailSetting): string {
  const links = [{ name: 'Open the spreadsheet', url: setting.spreadsheetUrl }, ...setting.tabs].map((tab) =>
    linkHtml(tab.name, tab.url),
  );
  return `<p>${links.join(' · ')}</p>`;
}

function htmlPage(paragraphs: string[], setting: MailSetting): string {
  return [
    '<div style="font-family:Arial,sans-serif;font-size:14px;color:#202124">',
    ...paragraphs,
    linksHtml(setting),
    `<p style="color:#5f6368;font-size:12px">${htmlText(sentBy(setting))}</p>`,
    '</div>',
  ].join('\n');
}

/** Whether a section lists its items: inspections always, trainings only when names may be sent. */
function listsItems(section: DigestSection, setting: MailSetting): boolean {
  return !TRAINING_TOPICS.includes(section.topic) || setting.personalData === 'names';
}

/** "1 expired inspection", "25 expiring trainings": each title is a plural noun. */
function countOf(section: DigestSection): string {
  return plural(section.total, sectionTitle(section).toLowerCase().replace(/s$/, ''));
}

function countsOf(plan: DigestPlan): string {
  return plan.sections.map(countOf).join(', ');
}

/**
 * A training section of a digest that names nobody, in one sentence: "12 expiring trainings: see the
 * Expiring trainings tab", with the tab's link.
 */
function countWithoutNames(section: DigestSection, tab: TabLink | null): { plain: string; html: string } {
  const count = `${countOf(section)}: see the `;
  if (!tab) return { plain: `${count}Expiring trainings tab.`, html: `${count}Expiring trainings tab.` };
  return {
    plain: `${count}${plainText(tab.name)} tab: ${tab.url}`,
    html: `${count}${linkHtml(tab.name, tab.url)} tab.`,
  };
}

export function digestMail(plan: DigestPlan, setting: MailSetting): Mail {
  const counts = countsOf(plan);
  const intro =
    (plan.onlyNew ? `New since the last digest: ${counts}.` : `Open now: ${counts}.`) +
    ` This digest comes ${FREQUENCY_WORDS[plan.frequency]}.`;
  const plain: string[] = [intro, ''];
  const html: string[] = [`<p>${escapeHtml(intro)}</p>`];
  for (const section of plan.sections) {
    if (!listsItems(section, setting)) {
      const count = countWithoutNames(section, setting.trainingsTab);
      plain.push(count.plain, '');
      html.push(`<p>${count.html}</p>`);
      continue;
    }
    const more = section.total - section.listed.length;
    const heading = `${sectionTitle(section)} (${section.total}${more > 0 ? `, the ${section.listed.length} most urgent shown` : ''})`;
    plain.push(heading);
    html.push(`<h3 style="margin:16px 0 4px">${escapeHtml(heading)}</h3>`, '<ul>');
    for (const item of section.listed) {
      const when = `${describeDays(item)} (${item.date})`;
      plain.push(`- ${plainText(item.title)}: ${when} ${item.link}`);
      html.push(`<li>${linkHtml(item.title, item.link)}: ${escapeHtml(when)}</li>`);
    }
    html.push('</ul>');
    if (more > 0) plain.push(`… and ${more} more on the tab.`);
    plain.push('');
  }
  plain.push(...linksPlain(setting), '', plainText(sentBy(setting)));
  return {
    subject: plainText(`Safety Sync digest: ${counts}`),
    body: plain.join('\n'),
    htmlBody: htmlPage(html, setting),
  };
}

/** An alert: a subject and sentences (which may quote the service), the same in both bodies. */
export function alertMail(subject: string, sentences: string[], setting: MailSetting): Mail {
  return {
    subject: plainText(subject),
    body: [...sentences.map(plainText), '', ...linksPlain(setting), '', plainText(sentBy(setting))].join(
      '\n',
    ),
    htmlBody: htmlPage(
      sentences.map((sentence) => `<p>${htmlText(sentence)}</p>`),
      setting,
    ),
  };
}
