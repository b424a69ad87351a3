/**
 * The e-mail digest's rules, pure: which open items (expired and expiring inspections and trainings)
 * a scheduled run reports, and when it reports nothing.
 *
 * - With each scheduled run that changes something: the items that were not open at the last
 *   digest (new, or whose status changed, Expiring → Expired), from the run that finds them;
 *   nothing otherwise.
 * - Daily: everything still open, once a day (the spreadsheet's day), from its first scheduled run.
 *   Only here is an open item repeated day after day.
 * - Weekly: everything open, from the first scheduled run seven days after the last digest, unless
 *   nothing changed since that digest.
 * - Nothing at all when nothing is open among what the user chose to include.
 *
 * A digest lists at most MAX_LISTED items of each kind, the most urgent first; its counts cover all.
 */
import { type CalendarDate, daysBetween } from '../lib/dates';
import { fingerprint } from '../lib/fingerprint';
import type { DigestFrequency, DigestTopic, NotificationSettings } from './notification-settings';

export const MAX_LISTED = 20;
/**
 * Open items remembered for "with each run", the most urgent first: the spreadsheet's developer
 * metadata holds 30,000 characters in all, shared with the imports' state, so at most this many
 * (6 characters each). Beyond it, an item not remembered counts as new the next time the open set
 * changes.
 */
const MAX_REMEMBERED = 400;
const IDENTITY_CHARS = 6;
const WEEK_DAYS = 7;

export type ItemKind = 'inspection' | 'training';
export type ItemStatus = 'Expired' | 'Expiring';

/** One open item, as its tab (Upcoming inspections, Expiring trainings) shows it. */
export interface DigestItem {
  kind: ItemKind;
  status: ItemStatus;
  /** The row's hidden key on its tab: what identifies it across refreshes. */
  key: string;
  /**
   * What it is, in words: "Forklift: Monthly check", "Anna Müller: First aid". Empty for a training
   * when the mail names nobody (Settings: counts only): then its words are never read.
   */
  title: string;
  /** Its due or expiry date, ISO. */
  date: string;
  /** Days until the date: negative when overdue. */
  daysLeft: number;
  /** The row on its tab. */
  link: string;
}

/** What the last digests left behind, kept in the spreadsheet's document state. */
export interface DigestMemory {
  /** With each run: the identities of the items open at the last digest, IDENTITY_CHARS each. */
  reported: string;
  /** Fingerprint of everything open at the last digest: "nothing changed" compares with it. */
  openFingerprint: string | null;
  /** The spreadsheet's day of the last digest. */
  lastDay: CalendarDate | null;
}

export const EMPTY_MEMORY: DigestMemory = { reported: '', openFingerprint: null, lastDay: null };

export interface DigestSection {
  topic: DigestTopic;
  /** Every open item of this kind and status. */
  total: number;
  /** The ones listed: the most urgent first, at most MAX_LISTED. */
  listed: DigestItem[];
}

export interface DigestPlan {
  frequency: Exclude<DigestFrequency, 'off'>;
  /** Only the items no digest reported yet (with each run), or everything open. */
  onlyNew: boolean;
  sections: DigestSection[];
  /** The memory to keep once the digest is sent. */
  memory: DigestMemory;
}

function topicOf(item: Pick<DigestItem, 'kind' | 'status'>): DigestTopic {
  if (item.kind === 'inspection')
    return item.status === 'Expired' ? 'expiredInspections' : 'expiringInspections';
  return item.status === 'Expired' ? 'expiredTrainings' : 'expiringTrainings';
}

/** A short fingerprint of the item and its status: Expiring → Expired is news. */
function identityOf(item: DigestItem): string {
  return fingerprint(`${item.kind}\u0000${item.status}\u0000${item.key}`)
    .padStart(IDENTITY_CHARS, '0')
    .slice(-IDENTITY_CHARS);
}

function identitiesIn(reported: string): Set<string> {
  const identities = new Set<string>();
  for (let at = 0; at < reported.length; at += IDENTITY_CHARS) {
    identities.add(reported.slice(at, at + IDENTITY_CHARS));
  }
  return identities;
}

function mostUrgentFirst(a: DigestItem, b: DigestItem): number {
  return a.daysLeft - b.daysLeft;
}

/** Whether a digest may go today: any day with each run, a new day daily, seven days on weekly. */
export function isDigestDue(
  settings: NotificationSettings,
  memory: DigestMemory,
  today: CalendarDate,
): boolean {
  const { frequency } = settings;
  if (frequency === 'off' || settings.recipients.length === 0) return false;
  if (frequency === 'each-run' || memory.lastDay === null) return true;
  const days = daysBetween(memory.lastDay, today);
  return frequency === 'daily' ? days >= 1 : days >= WEEK_DAYS;
}

/** What to send now, or null when nothing is to be sent. */
export function planDigest(
  settings: NotificationSettings,
  items: readonly DigestItem[],
  memory: DigestMemory,
  today: CalendarDate,
): DigestPlan | null {
  const { frequency } = settings;
  if (frequency === 'off' || !isDigestDue(settings, memory, today)) return null;
  const open = items.filter((item) => settings.topics.includes(topicOf(item)));
  const identities = new Map(open.map((item) => [item, identityOf(item)]));
  const openFingerprint = fingerprint([...identities.values()].sort().join(','));
  // Nothing changed since the last digest (daily repeats what is open regardless).
  if (frequency !== 'daily' && openFingerprint === memory.openFingerprint) return null;
  const onlyNew = frequency === 'each-run';
  const reported = identitiesIn(memory.reported);
  const candidates = onlyNew ? open.filter((item) => !reported.has(identities.get(item)!)) : open;
  if (candidates.length === 0) return null;

  // "Refresh failures" has no items: its section is never kept.
  const sections = settings.topics
    .map((topic): DigestSection => {
      const ofTopic = candidates.filter((item) => topicOf(item) === topic);
      // Array.prototype.sort is stable: a tie keeps the tab's order.
      const listed = [...ofTopic].sort(mostUrgentFirst).slice(0, MAX_LISTED);
      return { topic, total: ofTopic.length, listed };
    })
    .filter((section) => section.total > 0);
  const remembered = onlyNew
    ? [...open]
        .sort(mostUrgentFirst)
        .slice(0, MAX_REMEMBERED)
        .map((item) => identities.get(item)!)
        .join('')
    : '';
  return { frequency, onlyNew, sections, memory: { reported: remembered, openFingerprint, lastDay: today } };
}
