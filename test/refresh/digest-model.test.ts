/**
 * The digest's rules (src/refresh/digest.ts) under change, against an independent oracle that keeps
 * whole sets where the add-on keeps fingerprints: seeded sequences of scheduled runs, days passing,
 * items opening, closing and turning from Expiring to Expired, and digests the quota held back.
 * Now and then a run could not recompute the training tabs for today: trainings are left out and
 * said to be, and a later run that day that knows them completes the digest.
 * After every run the oracle says whether a digest goes and what it lists: inspections most overdue
 * first, schedules never inspected in the tab's order, trainings expiring first (soonest first), then
 * lapses of the last 90 days (most recent first), older lapses only counted. A failure names its
 * seed and step; DIGEST_SEED=n replays one sequence.
 */
import { SeededRandom } from '../../dev/sample-service/random';
import type { CalendarDate } from '../../src/lib/dates';
import {
  type DigestItem,
  type DigestMemory,
  EMPTY_MEMORY,
  type ItemKind,
  type ItemStatus,
  planDigest,
} from '../../src/refresh/digest';
import {
  type DigestFrequency,
  type DigestTopic,
  type NotificationSettings,
} from '../../src/refresh/notification-settings';

const SEEDS = process.env['DIGEST_SEED']
  ? [Number(process.env['DIGEST_SEED'])]
  : Array.from({ length: 300 }, (_, index) => index + 1);
const STEPS = 40;
const KEYS = 30;
/** docs/admin.md, Limits: "a digest lists at most 20 items of each kind". */
const MAX_LISTED = 20;
/** docs/user-guide.md: trainings that lapsed more than 90 days ago are counted, not listed. */
const RECENT_LAPSE_DAYS = 90;
/** What a digest may be about, in the order a digest shows them ("Refresh failures": alerts only). */
const TOPICS: readonly DigestTopic[] = [
  'expiredInspections',
  'expiringInspections',
  'neverInspected',
  'expiringTrainings',
  'expiredTrainings',
  'refreshFailures',
];

interface OpenItem {
  kind: ItemKind;
  key: string;
  status: ItemStatus;
  /** Null: no inspection recorded. */
  daysLeft: number | null;
}

const TOPIC_OF: Record<string, DigestTopic> = {
  'inspection|Expired': 'expiredInspections',
  'inspection|Expiring': 'expiringInspections',
  'inspection|No inspection recorded': 'neverInspected',
  'training|Expired': 'expiredTrainings',
  'training|Expiring': 'expiringTrainings',
};

const identity = (item: OpenItem) => `${item.kind}|${item.status}|${item.key}`;

/**
 * What the oracle remembers of the last digest sent: the day, every item open then (trainings left
 * out were not), what "with each run" has reported (trainings left out keep what was reported of
 * them), and the day when it left trainings out.
 */
interface OracleMemory {
  day: number | null;
  open: Set<string> | null;
  reported: Set<string>;
  leftOutOn: number | null;
}

interface Expected {
  topic: DigestTopic;
  total: number;
  listed: string[];
  olderLapses: number;
}

/**
 * How a section orders its items: a sort key, smaller first. Expired trainings: the most recent
 * lapse first; everything else: the fewest days left first (never inspected: all alike).
 */
function sortKey(item: OpenItem): number {
  if (item.daysLeft === null) return 0;
  return item.kind === 'training' && item.status === 'Expired' ? -item.daysLeft : item.daysLeft;
}

/** What the oracle expects of a run: the digest's sections, and whether it says trainings are left out. */
interface ExpectedDigest {
  sections: Expected[];
  trainingsLeftOut: boolean;
}

/** Whether the user chose a kind of training news, so that trainings left out are theirs to know. */
function choseTrainings(settings: NotificationSettings): boolean {
  return settings.topics.some((topic) => topic.endsWith('Trainings'));
}

function oracle(
  settings: NotificationSettings,
  items: readonly OpenItem[],
  memory: OracleMemory,
  today: number,
  trainingTabsStale: boolean,
): ExpectedDigest | null {
  const leftOut = trainingTabsStale && choseTrainings(settings);
  const byFrequency =
    memory.day === null ||
    settings.frequency === 'each-run' ||
    (settings.frequency === 'daily' ? today > memory.day : today - memory.day >= 7);
  // Not due by its frequency: only a digest that left trainings out earlier today goes again,
  // once trainings are known.
  if (!byFrequency && (memory.leftOutOn !== today || leftOut)) return null;
  const open = items.filter(
    (item) =>
      settings.topics.includes(TOPIC_OF[`${item.kind}|${item.status}`]!) &&
      !(leftOut && item.kind === 'training'),
  );
  const openSet = new Set(open.map(identity));
  const sameAsLast =
    memory.open !== null &&
    memory.open.size === openSet.size &&
    [...openSet].every((id) => memory.open!.has(id));
  if (settings.frequency !== 'daily' && sameAsLast && !leftOut) return null;
  const reported =
    settings.frequency === 'each-run' ? open.filter((item) => !memory.reported.has(identity(item))) : open;
  // Trainings left out are news only for a digest of everything open.
  if (reported.length === 0 && (settings.frequency === 'each-run' || !leftOut)) return null;
  const sections: Expected[] = [];
  for (const topic of TOPICS.filter((topic) => settings.topics.includes(topic))) {
    const ofTopic = reported.filter((item) => TOPIC_OF[`${item.kind}|${item.status}`] === topic);
    if (ofTopic.length === 0) continue;
    const older = ofTopic.filter(
      (item) => item.kind === 'training' && item.daysLeft !== null && item.daysLeft < -RECENT_LAPSE_DAYS,
    );
    const listable = ofTopic.filter((item) => !older.includes(item));
    // Equal keys keep the tab's order (a stable sort, spelt out).
    const ordered = listable
      .map((item, index) => ({ item, index }))
      .sort((a, b) => sortKey(a.item) - sortKey(b.item) || a.index - b.index)
      .map(({ item }) => item.key);
    sections.push({
      topic,
      total: listable.length,
      listed: ordered.slice(0, MAX_LISTED),
      olderLapses: older.length,
    });
  }
  return { sections, trainingsLeftOut: leftOut };
}

function randomSettings(random: SeededRandom): NotificationSettings {
  const frequency = random.pick<DigestFrequency>(['each-run', 'daily', 'weekly']);
  const topics = TOPICS.filter(() => random.chance(0.7));
  if (!topics.some((topic) => topic !== 'refreshFailures')) topics.unshift('expiredTrainings');
  return {
    recipients: ['safety@example.com'],
    frequency,
    topics,
    // What the digest plans does not depend on these: any values do.
    personalData: 'counts',
    allowOutsideDomain: false,
    mailShare: { maxRecipientsPerRun: 20, percentOfRemaining: 50 },
    teamDigests: false,
    escalationDays: 0,
  };
}

/** A change to what is open, as refreshes and people bring them. */
function change(random: SeededRandom, items: Map<string, OpenItem>): void {
  for (let edits = random.int(0, 4); edits > 0; edits--) {
    const kind = random.pick<ItemKind>(['inspection', 'training']);
    const key = `${kind === 'inspection' ? 'sch' : 'pair'}-${random.int(1, KEYS)}`;
    const id = `${kind}|${key}`;
    const existing = items.get(id);
    if (existing && random.chance(0.4)) items.delete(id);
    else if (existing && existing.status === 'Expiring')
      items.set(id, { ...existing, status: 'Expired', daysLeft: -1 });
    else if (existing && existing.status === 'No inspection recorded')
      // Someone entered Last inspected: the schedule is due, or overdue.
      items.set(id, { ...existing, status: 'Expiring', daysLeft: random.int(0, 30) });
    else if (existing && existing.daysLeft !== null && existing.daysLeft <= 0)
      // Days pass: a lapse grows older, across the 90 days now and then.
      items.set(id, { ...existing, daysLeft: existing.daysLeft - random.pick([1, 30, 89]) });
    else if (!existing) {
      const statuses: ItemStatus[] = ['Expired', 'Expiring'];
      if (kind === 'inspection') statuses.push('No inspection recorded');
      const status = random.pick(statuses);
      items.set(id, {
        kind,
        key,
        status,
        daysLeft:
          status === 'No inspection recorded'
            ? null
            : status === 'Expired'
              ? -random.pick([random.int(1, 100), random.int(85, 95), random.int(1, 400)])
              : random.int(0, 30),
      });
    }
  }
}

test.each(SEEDS)('seed %i: each run sends what the oracle says, and lists it the same way', (seed) => {
  const random = new SeededRandom(seed, 'digest');
  const settings = randomSettings(random);
  // Many open items in some sequences, so that the 20-a-kind cut matters.
  const items = new Map<string, OpenItem>();
  for (let start = random.chance(0.3) ? random.int(20, 60) : 0; start > 0; start--) change(random, items);
  let memory: DigestMemory = EMPTY_MEMORY;
  let known: OracleMemory = { day: null, open: null, reported: new Set(), leftOutOn: null };
  let today = 19_800;
  const steps: string[] = [];
  for (let step = 1; step <= STEPS; step++) {
    today += random.pick([0, 0, 1, 1, 2, 3, 7]);
    change(random, items);
    // Now and then the run could not recompute the training tabs for today.
    const trainingTabsStale = random.chance(0.2);
    const open = [...items.values()];
    const digestItems: DigestItem[] = open.map((item) => ({
      ...item,
      // A digest that names nobody reads no training's words: the rules go by keys alone.
      title: item.kind === 'training' ? '' : item.key,
      id: '',
      date: '',
      link: '',
    }));
    const leftOut = trainingTabsStale
      ? [{ kind: 'training' as const, computedFor: (today - 1) as CalendarDate }]
      : [];
    const plan = planDigest(settings, digestItems, memory, today as CalendarDate, leftOut);
    const expected = oracle(settings, open, known, today, trainingTabsStale);
    const got = plan && {
      sections: plan.sections.map((section) => ({
        topic: section.topic,
        total: section.total,
        listed: section.listed.map((item) => item.key),
        olderLapses: section.olderLapses,
      })),
      trainingsLeftOut: plan.leftOut.some((part) => part.kind === 'training'),
    };
    steps.push(
      `day ${today}: ${open.length} open${trainingTabsStale ? ', training tabs stale' : ''}, ${got ? 'sent' : 'nothing'}`,
    );
    try {
      expect(got ?? null).toEqual(expected);
    } catch (error) {
      throw new Error(
        `DIGEST_SEED=${seed} (${settings.frequency}, ${settings.topics.join(' ')}) at step ${step}:\n` +
          `${steps.join('\n')}\n${(error as Error).message}`,
      );
    }
    // Now and then the quota holds a digest back: it is as if it had not been planned.
    if (plan && random.chance(0.85)) {
      memory = plan.memory;
      const leftOutNow = expected!.trainingsLeftOut;
      const openNow = new Set(
        open
          .filter(
            (item) =>
              settings.topics.includes(TOPIC_OF[`${item.kind}|${item.status}`]!) &&
              !(leftOutNow && item.kind === 'training'),
          )
          .map(identity),
      );
      known = {
        day: today,
        open: openNow,
        reported: leftOutNow ? new Set([...openNow, ...known.reported]) : openNow,
        leftOutOn: leftOutNow ? today : null,
      };
    }
  }
});
