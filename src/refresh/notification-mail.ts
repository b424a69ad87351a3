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
import { RECENT_LAPSE_DAYS } from '../lib/actionable-order';
import { defang } from '../lib/defang';
import { toIsoDate } from '../lib/dates';
import type { DigestContent, DigestItem, DigestSection, LeftOut } from './digest';
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

/** Each section's heading, and its count in words ("1 expired inspection", "25 expiring trainings"). */
const SECTION_WORDS: Record<DigestSectionTopic, { heading: string; one: string; many: string }> = {
  expiredInspections: {
    heading: 'Expired inspections',
    one: 'expired inspection',
    many: 'expired inspections',
  },
  expiringInspections: {
    heading: 'Expiring inspections',
    one: 'expiring inspection',
    many: 'expiring inspections',
  },
  neverInspected: {
    heading: 'Never inspected: enter Last inspected',
    one: 'schedule never inspected',
    many: 'schedules never inspected',
  },
  expiringTrainings: { heading: 'Expiring trainings', one: 'expiring training', many: 'expiring trainings' },
  expiredTrainings: {
    heading: `Expired trainings, lapsed in the last ${RECENT_LAPSE_DAYS} days`,
    one: `training lapsed in the last ${RECENT_LAPSE_DAYS} days`,
    many: `trainings lapsed in the last ${RECENT_LAPSE_DAYS} days`,
  },
};

type DigestSectionTopic = Exclude<DigestTopic, 'refreshFailures'>;

const TRAINING_TOPICS: readonly DigestTopic[] = ['expiredTrainings', 'expiringTrainings'];

/** A subject is kept under this many characters: a phone's list shows about that much. */
const MAX_SUBJECT_CHARS = 70;

const FREQUENCY_WORDS: Record<DigestContent['frequency'], string> = {
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

/**
 * "3 days overdue (2024-03-01)", "due today (…)", "12 days left (…)" (trainings: "expires today");
 * a schedule without a date: what to do.
 */
function describeDays(item: Pick<DigestItem, 'daysLeft' | 'kind' | 'date'>): string {
  if (item.daysLeft === null) return 'no inspection recorded: enter Last inspected';
  const date = ` (${item.date})`;
  if (item.daysLeft < 0) return `${plural(-item.daysLeft, 'day')} overdue${date}`;
  if (item.daysLeft === 0) return `${item.kind === 'inspection' ? 'due today' : 'expires today'}${date}`;
  return `${plural(item.daysLeft, 'day')} left${date}`;
}

function wordsOf(section: DigestSection) {
  return SECTION_WORDS[section.topic as DigestSectionTopic];
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

function countOf(count: number, section: DigestSection): string {
  const words = wordsOf(section);
  return `${count} ${count === 1 ? words.one : words.many}`;
}

/** "2 trainings lapsed more than 90 days ago". */
function olderLapsesOf(section: DigestSection): string {
  return `${section.olderLapses} ${section.olderLapses === 1 ? 'training' : 'trainings'} lapsed more than ${RECENT_LAPSE_DAYS} days ago`;
}

/** A section's count in words: what it reports, and the older lapses it leaves out. */
function sectionCount(section: DigestSection): string {
  if (section.total === 0) return olderLapsesOf(section);
  return (
    countOf(section.total, section) + (section.olderLapses > 0 ? ` (and ${olderLapsesOf(section)})` : '')
  );
}

/**
 * Whom a digest is for, when not the recipients Settings list: a manager (their team's items) or a
 * manager's manager (an escalation). Its words come from the add-on, its addresses from People.
 */
export interface DigestAudience {
  /** After "Safety Sync, " in the subject: "your team". */
  subject: string;
  /** The opening paragraph: who the items are of, and why this reader gets them. */
  sentence: string;
}

/**
 * Under 70 characters, the most urgent first: "Safety Sync: 3 expired, 5 expiring, 2 never
 * inspected" (inspections and trainings together; lapses of long ago are not counted).
 */
function subjectOf(plan: DigestContent, audience: DigestAudience | undefined): string {
  const total = (...topics: DigestTopic[]) =>
    plan.sections
      .filter((section) => topics.includes(section.topic))
      .reduce((sum, section) => sum + section.total, 0);
  const counts = [
    { count: total('expiredInspections', 'expiredTrainings'), words: 'expired' },
    { count: total('expiringInspections', 'expiringTrainings'), words: 'expiring' },
    { count: total('neverInspected'), words: 'never inspected' },
  ].filter(({ count }) => count > 0);
  const olderLapses = plan.sections.reduce((sum, section) => sum + section.olderLapses, 0);
  const parts = counts.length
    ? counts.map(({ count, words }) => `${count} ${words}`)
    : olderLapses > 0
      ? [`${olderLapses} lapsed more than ${RECENT_LAPSE_DAYS} days ago`]
      : [];
  // A part left out comes last: what the run knows for today leads.
  if (plan.leftOut.length > 0) {
    parts.push(
      plan.leftOut.length === 2 ? 'inspections and trainings left out' : `${plan.leftOut[0]!.kind}s left out`,
    );
  }
  const labels = [audience?.subject, plan.onlyNew ? 'new' : undefined].filter((label) => label !== undefined);
  let subject = ['Safety Sync', ...labels].join(', ') + ':';
  for (const [index, part] of parts.entries()) {
    const next = `${subject}${index === 0 ? ' ' : ', '}${part}`;
    if (next.length >= MAX_SUBJECT_CHARS) break;
    subject = next;
  }
  return subject;
}

/** A link to the Expiring trainings tab, in a sentence: "see the Expiring trainings tab". */
function seeTrainingsTab(tab: TabLink | null): { plain: string; html: string } {
  if (!tab) return { plain: 'see the Expiring trainings tab.', html: 'see the Expiring trainings tab.' };
  return {
    plain: `see the ${plainText(tab.name)} tab: ${tab.url}`,
    html: `see the ${linkHtml(tab.name, tab.url)} tab.`,
  };
}

/**
 * Each listed inspection's words, with its schedule's id where another listed inspection has the
 * same title (two schedules of one equipment type under one name): no two lines read alike.
 */
function inspectionTitles(plan: DigestContent): Map<DigestItem, string> {
  const inspections = plan.sections.flatMap((section) =>
    section.listed.filter((item) => item.kind === 'inspection'),
  );
  const seen = new Map<string, number>();
  for (const item of inspections) seen.set(item.title, (seen.get(item.title) ?? 0) + 1);
  return new Map(
    inspections.map((item) => [
      item,
      seen.get(item.title)! > 1 && item.id !== '' ? `${item.title} (${item.id})` : item.title,
    ]),
  );
}

/**
 * What a digest says of a part it left out: which, why, and what brings it back. The tab's days left
 * were counted for an earlier day; read as today's, they would be wrong.
 */
function leftOutSentence({ kind, computedFor }: LeftOut): string {
  return kind === 'training'
    ? `Trainings are left out: the training tabs hold their days left for ${toIsoDate(computedFor)}, ` +
        'and this run could not recompute them for today. The Sync log tab says why (a cell of the Trainings tab ' +
        'the add-on refuses, or an import that continues at the next run); once that is fixed, ' +
        'Safety Sync → Show training status recomputes them.'
    : `Inspections are left out: the Upcoming inspections tab holds its days left for ${toIsoDate(computedFor)}, ` +
        'and this run could not recompute it for today. The Sync log tab says why; ' +
        'the next refresh that imports equipment types recomputes it.';
}

export function digestMail(plan: DigestContent, setting: MailSetting, audience?: DigestAudience): Mail {
  const counts = plan.sections.map(sectionCount).join(', ');
  const opening = plan.sections.length
    ? plan.onlyNew
      ? `New since the last digest: ${counts}.`
      : `Open now: ${counts}.`
    : 'Nothing open is known for today.';
  const intro = `${opening} This digest comes ${FREQUENCY_WORDS[plan.frequency]}.`;
  const plain: string[] = audience ? [audience.sentence, '', intro, ''] : [intro, ''];
  const html: string[] = [
    ...(audience ? [`<p>${htmlText(audience.sentence)}</p>`] : []),
    `<p>${htmlText(intro)}</p>`,
  ];
  for (const part of plan.leftOut) {
    plain.push(leftOutSentence(part), '');
    html.push(`<p><strong>${htmlText(leftOutSentence(part))}</strong></p>`);
  }
  const inspections = inspectionTitles(plan);
  const trainingsTab = seeTrainingsTab(setting.trainingsTab);
  for (const section of plan.sections) {
    if (!listsItems(section, setting)) {
      const count = `${sectionCount(section)}: `;
      plain.push(`${count}${trainingsTab.plain}`, '');
      html.push(`<p>${htmlText(count)}${trainingsTab.html}</p>`);
      continue;
    }
    if (section.total > 0) {
      const more = section.total - section.listed.length;
      const heading = `${wordsOf(section).heading} (${section.total}${more > 0 ? `, the ${section.listed.length} most urgent shown` : ''})`;
      plain.push(heading);
      html.push(`<h3 style="margin:16px 0 4px">${htmlText(heading)}</h3>`, '<ul>');
      for (const item of section.listed) {
        const title = inspections.get(item) ?? item.title;
        const when = describeDays(item);
        plain.push(`- ${plainText(title)}: ${when} ${item.link}`);
        html.push(`<li>${linkHtml(title, item.link)}: ${escapeHtml(when)}</li>`);
      }
      html.push('</ul>');
      if (more > 0) plain.push(`… and ${more} more on the tab.`);
    }
    if (section.olderLapses > 0) {
      const older = `${section.total > 0 ? 'And ' : ''}${olderLapsesOf(section)}, not listed: `;
      plain.push(`${older}${trainingsTab.plain}`);
      html.push(`<p>${htmlText(older)}${trainingsTab.html}</p>`);
    }
    plain.push('');
  }
  plain.push(...linksPlain(setting), '', plainText(sentBy(setting)));
  return {
    subject: plainText(subjectOf(plan, audience)),
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
