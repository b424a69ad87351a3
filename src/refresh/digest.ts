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
 * - Nothing at all when nothing is open among what the user chose to include, unless a part the
 *   user chose is left out (LeftOut): a digest of everything open then says so.
 *
 * A digest lists at most MAX_LISTED items of each kind; its counts cover all. Trainings come in the
 * actionable order (src/lib/actionable-order.ts): expiring ones first, soonest first, then lapses
 * of the last 90 days, most recent first; older lapses (most likely people who left) are counted,
 * not listed. Inspections come most overdue first, however long ago: equipment overdue for an
 * inspection stays something to act on. Schedules with no inspection recorded come in the tab's
 * order.
 */
import { ActionGroup, actionGroupOf, byActionableOrder } from '../lib/actionable-order';
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
/** As the tabs say it: "No inspection recorded" is a schedule whose Last inspected is empty. */
export type ItemStatus = 'Expired' | 'Expiring' | 'No inspection recorded';

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
  /**
   * What tells it apart from an item of the same title: an inspection's schedule id. Empty when its
   * title says it all (a training's title carries its ids).
   */
  id: string;
  /** Its due or expiry date, ISO; empty when it has none (no inspection recorded). */
  date: string;
  /** Days until the date: negative when overdue; null when it has no date. */
  daysLeft: number | null;
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
  /**
   * The day of the last digest when it left a part out (LeftOut): a later run that day that knows
   * every part sends the digest again, complete. Absent otherwise.
   */
  leftOutOn?: CalendarDate;
}

/**
 * A part of the open items the run does not know for today: its tab holds days left computed for
 * an earlier day (the run could not recompute it). Its items are left out of the digest, which
 * says so: an item's days and status on the day the mail goes out are unknown.
 */
export interface LeftOut {
  kind: ItemKind;
  /** The day the tab's days left were computed for. */
  computedFor: CalendarDate;
}

export const EMPTY_MEMORY: DigestMemory = { reported: '', openFingerprint: null, lastDay: null };

export interface DigestSection {
  topic: DigestTopic;
  /** Every open item of this kind and status the section reports (older lapses aside). */
  total: number;
  /** The ones listed: in the order above, at most MAX_LISTED. */
  listed: DigestItem[];
  /**
   * Expired trainings only: how many lapsed more than RECENT_LAPSE_DAYS ago. Counted here, not in
   * `total`, and never listed: the Expiring trainings tab has them.
   */
  olderLapses: number;
}

/** What one message reports: the main digest, a manager's team digest, an escalation. */
export interface DigestContent {
  frequency: Exclude<DigestFrequency, 'off'>;
  /** Only the items no digest reported yet (with each run), or everything open. */
  onlyNew: boolean;
  sections: DigestSection[];
  /** The parts left out, of the kinds the user chose. */
  leftOut: LeftOut[];
}

export interface DigestPlan extends DigestContent {
  /** Every item the digest reports, listed or only counted: a team digest takes its people's. */
  items: DigestItem[];
  /** The memory to keep once the digest is sent. */
  memory: DigestMemory;
}

/**
 * The order of a digest's sections: inspections (overdue, due soon, never inspected), then the
 * trainings in the actionable order, expiring before lapsed.
 */
const SECTION_ORDER: readonly DigestTopic[] = [
  'expiredInspections',
  'expiringInspections',
  'neverInspected',
  'expiringTrainings',
  'expiredTrainings',
];

export function topicOf(item: Pick<DigestItem, 'kind' | 'status'>): DigestTopic {
  if (item.status === 'No inspection recorded') return 'neverInspected';
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

/** The days left of an item without a date (no inspection recorded): after every dated one. */
const UNDATED = Number.MAX_SAFE_INTEGER;

/**
 * The order a section lists its items in (all of one kind and status): trainings in the actionable
 * order, inspections most overdue first, undated ones in the tab's order.
 */
function listingOrder(a: DigestItem, b: DigestItem): number {
  const [aDays, bDays] = [a.daysLeft ?? UNDATED, b.daysLeft ?? UNDATED];
  return a.kind === 'training' ? byActionableOrder(aDays, bDays) : aDays - bDays;
}

/** A training that lapsed more than RECENT_LAPSE_DAYS ago: counted, never listed. */
function isOlderLapse(item: DigestItem): boolean {
  return (
    item.kind === 'training' &&
    item.daysLeft !== null &&
    actionGroupOf(item.daysLeft) === ActionGroup.olderLapse
  );
}

/**
 * The order open items are remembered in, when there are more than memory holds: the fewest days
 * left first, older lapses (never listed) last.
 */
function rememberingOrder(a: DigestItem, b: DigestItem): number {
  const older = Number(isOlderLapse(a)) - Number(isOlderLapse(b));
  return older !== 0 ? older : (a.daysLeft ?? UNDATED) - (b.daysLeft ?? UNDATED);
}

/**
 * Whether a digest is due today by its frequency: any day with each run, a new day daily, seven days
 * on weekly. Asked only once isDigestDue has found the digest on and with recipients.
 */
function isRegularlyDue(settings: NotificationSettings, memory: DigestMemory, today: CalendarDate): boolean {
  const { frequency } = settings;
  if (frequency === 'each-run' || memory.lastDay === null) return true;
  const days = daysBetween(memory.lastDay, today);
  return frequency === 'daily' ? days >= 1 : days >= WEEK_DAYS;
}

/**
 * Whether a digest may go today: when due by its frequency, or to complete one that left a part
 * out earlier today (it goes only once the run knows every part).
 */
export function isDigestDue(
  settings: NotificationSettings,
  memory: DigestMemory,
  today: CalendarDate,
): boolean {
  if (settings.frequency === 'off' || settings.recipients.length === 0) return false;
  return isRegularlyDue(settings, memory, today) || memory.leftOutOn === today;
}

function kindOf(topic: DigestTopic): ItemKind | null {
  if (topic === 'refreshFailures') return null;
  return topic.endsWith('Trainings') ? 'training' : 'inspection';
}

/** What to send now, or null when nothing is to be sent. */
export function planDigest(
  settings: NotificationSettings,
  items: readonly DigestItem[],
  memory: DigestMemory,
  today: CalendarDate,
  leftOutParts: readonly LeftOut[] = [],
): DigestPlan | null {
  const { frequency } = settings;
  if (frequency === 'off' || !isDigestDue(settings, memory, today)) return null;
  const chosenKinds = settings.topics.map(kindOf);
  const leftOut = leftOutParts.filter((part) => chosenKinds.includes(part.kind));
  // Completing a digest that left a part out: only once this run knows every part.
  if (!isRegularlyDue(settings, memory, today) && leftOut.length > 0) return null;
  const leftOutKinds = leftOut.map((part) => part.kind);
  const open = items.filter(
    (item) => settings.topics.includes(topicOf(item)) && !leftOutKinds.includes(item.kind),
  );
  const identities = new Map(open.map((item) => [item, identityOf(item)]));
  const openFingerprint = fingerprint([...identities.values()].sort().join(','));
  // Nothing changed since the last digest (daily repeats what is open regardless).
  if (frequency !== 'daily' && openFingerprint === memory.openFingerprint && leftOut.length === 0)
    return null;
  const onlyNew = frequency === 'each-run';
  const reported = identitiesIn(memory.reported);
  const candidates = onlyNew ? open.filter((item) => !reported.has(identities.get(item)!)) : open;
  // A part left out is news for a digest of everything open; with each run, only new items are.
  if (candidates.length === 0 && (onlyNew || leftOut.length === 0)) return null;

  const sections = sectionsOf(settings.topics, candidates);
  // A part left out is not closed: what was reported of it stays remembered.
  const kept = leftOut.length > 0 ? [...reported] : [];
  const remembered = onlyNew
    ? [...new Set([...[...open].sort(rememberingOrder).map((item) => identities.get(item)!), ...kept])]
        .slice(0, MAX_REMEMBERED)
        .join('')
    : '';
  const memoryKept: DigestMemory = { reported: remembered, openFingerprint, lastDay: today };
  return {
    frequency,
    onlyNew,
    sections,
    leftOut,
    items: candidates,
    memory: leftOut.length > 0 ? { ...memoryKept, leftOutOn: today } : memoryKept,
  };
}

/** The sections of the chosen topics that hold any of these items, in the digest's order. */
function sectionsOf(topics: readonly DigestTopic[], candidates: readonly DigestItem[]): DigestSection[] {
  // "Refresh failures" has no items: it has no section.
  return SECTION_ORDER.filter((topic) => topics.includes(topic))
    .map((topic): DigestSection => {
      const ofTopic = candidates.filter((item) => topicOf(item) === topic);
      const reported = ofTopic.filter((item) => !isOlderLapse(item));
      // Array.prototype.sort is stable: a tie keeps the tab's order.
      const listed = reported.sort(listingOrder).slice(0, MAX_LISTED);
      return { topic, total: reported.length, listed, olderLapses: ofTopic.length - reported.length };
    })
    .filter((section) => section.total + section.olderLapses > 0);
}

/**
 * A message of some items (a manager's people's, those to escalate), with the sections and order of
 * the digest; null when they fill no section. Nothing is left out of it: a team digest goes only
 * when the run knows its trainings for today.
 */
export function contentOf(
  settings: NotificationSettings,
  onlyNew: boolean,
  items: readonly DigestItem[],
): DigestContent | null {
  if (settings.frequency === 'off') return null;
  const sections = sectionsOf(settings.topics, items);
  return sections.length === 0 ? null : { frequency: settings.frequency, onlyNew, sections, leftOut: [] };
}
