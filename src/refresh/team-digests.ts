/**
 * Each manager told about their own team: with the digest, every manager the schedule's owner
 * confirmed (team-confirmation.ts) gets a digest of only their people's trainings (team-roster.ts:
 * the active People rows whose Manager e-mail is theirs), from what the digest reports: with each
 * run, their people's new items; daily or weekly, their people's open ones. Inspections are no one's
 * team: the main digest has them. The same topics, the same personal-data choice (with "counts", a
 * manager gets counts and links, no name and no training) and the same mail share as the digest:
 * the digest goes first, then the team digests in the order of the managers' addresses, then the
 * escalations. A team digest the share cannot cover waits: the next run sends it first, with
 * everything of that team still open.
 *
 * Escalation, when Settings give it days: an item still open that many days after its manager's
 * first team digest held it goes, once, to the manager's own manager (the Manager e-mail of the
 * manager's own People row, found by its E-mail), when the owner confirmed that address too.
 */
import { type CalendarDate, daysBetween, type UtcOffsetAt } from '../lib/dates';
import type { DocumentState } from '../platform/document-state';
import { UnreadableTab } from '../platform/problem-lists';
import { contentOf, type DigestItem, type DigestPlan, topicOf } from './digest';
import { allowanceOf, logMail, type MailRun, sendMail } from './mail-sender';
import { type DigestAudience, digestMail, type MailSetting } from './notification-mail';
import type { NotificationSettings } from './notification-settings';
import { recipientAllowed } from './schedule-owner';
import { readConfirmedManagers } from './team-confirmation';
import { noticeId, readTeamMemory, type TeamMemory, writeTeamMemory } from './team-notices';
import { readTeams, teamAddresses, type Teams } from './team-roster';

const TEAM_ACTION = 'E-mail team digest';
const ESCALATION_ACTION = 'E-mail escalation';
const SUMMARY_ACTION = 'E-mail team digests';

/** What a run read for the team digests, before it writes again. */
export interface TeamDigests {
  spreadsheetId: string;
  triggerUid: string;
  settings: NotificationSettings;
  teams: Teams;
  /** The manager addresses the owner confirmed. */
  confirmed: Set<string>;
  memory: TeamMemory;
  /** Each manager's open trainings of the topics chosen (everyone on People with a Manager e-mail). */
  openOf: Map<string, DigestItem[]>;
  today: CalendarDate;
}

interface TeamPhase {
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  state: DocumentState;
  triggerUid: string;
  today: CalendarDate;
  utcOffsetAt: UtcOffsetAt;
}

/** The owner's memory of the team digests when they are on for a run that refreshed; null otherwise. */
export function teamMemoryFor(
  settings: NotificationSettings,
  phase: Pick<TeamPhase, 'spreadsheet' | 'triggerUid'> & { refreshed: boolean },
): TeamMemory | null {
  if (!settings.teamDigests || !phase.refreshed) return null;
  return readTeamMemory(phase.spreadsheet.getId(), phase.triggerUid);
}

/** The user id of an Expiring trainings row's key (a JSON [user id, training id]); null for another. */
function userIdOf(key: string): string | null {
  try {
    const pair: unknown = JSON.parse(key);
    return Array.isArray(pair) && typeof pair[0] === 'string' ? pair[0] : null;
  } catch {
    return null;
  }
}

/**
 * Reads the People tab and the owner's confirmed managers; `trainings` are the open trainings the
 * run read for today. Returns why nothing can go instead when People cannot be read.
 */
export function readTeamDigests(
  phase: TeamPhase,
  settings: NotificationSettings,
  memory: TeamMemory,
  trainings: readonly DigestItem[],
): TeamDigests | { problem: string } {
  let teams: Teams;
  try {
    teams = readTeams(phase.spreadsheet, phase.state, phase.utcOffsetAt);
  } catch (error) {
    if (error instanceof UnreadableTab) return { problem: error.message };
    throw error;
  }
  const chosen = trainings.filter(
    (item) => item.kind === 'training' && settings.topics.includes(topicOf(item)),
  );
  const openOf = new Map(
    [...teams.members].map(([manager, people]) => [
      manager,
      chosen.filter((item) => people.has(userIdOf(item.key) ?? '')),
    ]),
  );
  const spreadsheetId = phase.spreadsheet.getId();
  return {
    spreadsheetId,
    triggerUid: phase.triggerUid,
    settings,
    teams,
    confirmed: readConfirmedManagers(spreadsheetId, { triggerUid: phase.triggerUid }),
    memory,
    openOf,
    today: phase.today,
  };
}

function teamAudience(manager: string): DigestAudience {
  return {
    subject: 'your team',
    sentence: `Your team's trainings only: the active people whose Manager e-mail on the People tab is ${manager}.`,
  };
}

function escalationAudience(managers: readonly string[], days: number): DigestAudience {
  return {
    subject: `open ${days}+ days`,
    sentence:
      `Still open ${days} days or more after Safety Sync first told their manager (${managers.join(', ')}): ` +
      'the People tab gives you as that manager’s manager.',
  };
}

/** What one run's team mail came to, for the Sync log's summary. */
interface TeamOutcome {
  sent: number;
  left: string[];
  escalationsLeft: number;
}

/**
 * Sends the team digests (for `sentPlan`, the digest this run sent; null when it sent none: then
 * only those waiting from an earlier run) and the escalations due, within the run's mail share; then
 * remembers what they told whom.
 */
export function sendTeamDigests(
  team: TeamDigests,
  run: MailRun,
  setting: MailSetting,
  sentPlan: DigestPlan | null,
): void {
  const allowed = (address: string) =>
    team.confirmed.has(address) &&
    recipientAllowed(address, run.scheduleOwner, team.settings.allowOutsideDomain);
  const waitingBefore = team.memory.pending.filter((manager) => allowed(manager) && team.openOf.has(manager));
  const others = sentPlan
    ? [...team.openOf.keys()].sort().filter((manager) => allowed(manager) && !waitingBefore.includes(manager))
    : [];
  const outcome: TeamOutcome = { sent: 0, left: [], escalationsLeft: 0 };
  const reported = new Set(sentPlan?.items ?? []);
  for (const manager of [...waitingBefore, ...others]) {
    const waited = waitingBefore.includes(manager);
    const open = team.openOf.get(manager)!;
    const items = waited ? open : open.filter((item) => reported.has(item));
    const content = contentOf(team.settings, waited ? false : sentPlan!.onlyNew, items);
    if (!content) continue;
    if (allowanceOf(run).left < 1) {
      outcome.left.push(manager);
      continue;
    }
    const mail = digestMail(content, setting, teamAudience(manager));
    if (
      !sendMail(run, TEAM_ACTION, mail, { to: [manager], retry: 'the next scheduled run sends it first.' })
    ) {
      outcome.left.push(manager);
      continue;
    }
    outcome.sent += 1;
    for (const item of items) {
      const id = noticeId(manager, item.key);
      if (!team.memory.notices.has(id)) team.memory.notices.set(id, { day: team.today, escalated: false });
    }
  }
  outcome.escalationsLeft = sendEscalations(team, run, setting, allowed);
  forgetClosed(team);
  team.memory.pending = outcome.left;
  writeTeamMemory(team.spreadsheetId, team.triggerUid, team.memory);
  if (sentPlan || waitingBefore.length > 0) logSummary(team, run, outcome);
}

/** Each escalation address with the managers and the items it is told of, in the addresses' order. */
function escalationsDue(
  team: TeamDigests,
  allowed: (address: string) => boolean,
): [string, { managers: string[]; items: DigestItem[]; ids: string[] }][] {
  const days = team.settings.escalationDays;
  const due = new Map<string, { managers: string[]; items: DigestItem[]; ids: string[] }>();
  if (days <= 0) return [];
  for (const [manager, open] of [...team.openOf].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const above = team.teams.managerOf.get(manager);
    if (above === undefined || !allowed(above)) continue;
    const late = open.filter((item) => {
      const notice = team.memory.notices.get(noticeId(manager, item.key));
      return notice !== undefined && !notice.escalated && daysBetween(notice.day, team.today) >= days;
    });
    if (late.length === 0) continue;
    const entry = due.get(above) ?? { managers: [], items: [], ids: [] };
    entry.managers.push(manager);
    entry.items.push(...late);
    entry.ids.push(...late.map((item) => noticeId(manager, item.key)));
    due.set(above, entry);
  }
  return [...due].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Sends the escalations due while the share lasts; returns how many wait for a later run. */
function sendEscalations(
  team: TeamDigests,
  run: MailRun,
  setting: MailSetting,
  allowed: (address: string) => boolean,
): number {
  let left = 0;
  for (const [above, { managers, items, ids }] of escalationsDue(team, allowed)) {
    const content = contentOf(team.settings, false, items);
    if (!content) continue;
    if (allowanceOf(run).left < 1) {
      left += 1;
      continue;
    }
    const mail = digestMail(content, setting, escalationAudience(managers, team.settings.escalationDays));
    if (
      !sendMail(run, ESCALATION_ACTION, mail, { to: [above], retry: 'a later scheduled run tries again.' })
    ) {
      left += 1;
      continue;
    }
    for (const id of ids) team.memory.notices.set(id, { ...team.memory.notices.get(id)!, escalated: true });
  }
  return left;
}

/** Forgets the notices of items no longer open on their manager's team (closed, moved, left). */
function forgetClosed(team: TeamDigests): void {
  const open = new Set(
    [...team.openOf].flatMap(([manager, items]) => items.map((item) => noticeId(manager, item.key))),
  );
  for (const id of [...team.memory.notices.keys()]) if (!open.has(id)) team.memory.notices.delete(id);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What the summary counts; `owner` is the schedule owner's address ('' when Apps Script hides it). */
export interface TeamMailCounts extends TeamOutcome {
  /** Manager addresses on People the owner may confirm but has not. */
  waiting: number;
  /** Manager addresses on People outside the owner's domain rule. */
  outside: number;
  owner: string;
  /** Why the run's mail share is what it is; '' before the run sent anything. */
  shareReason: string;
}

/** The summary's sentence when team mail waits (for the share, or for the owner); null when none does. */
export function teamMailSummary(counts: TeamMailCounts): string | null {
  const { waiting, outside } = counts;
  const owner = counts.owner || 'the schedule’s owner';
  const why = counts.shareReason ? ` (${counts.shareReason})` : '';
  const parts = [
    counts.left.length > 0 &&
      `${plural(counts.left.length, 'team digest', 'team digests')} left for the next run: this run's mail share is spent${why}.`,
    counts.escalationsLeft > 0 &&
      `${plural(counts.escalationsLeft, 'escalation', 'escalations')} left for a later run: the mail share is spent.`,
    waiting > 0 &&
      `${plural(waiting, 'manager address', 'manager addresses')} on the People tab ${waiting === 1 ? 'receives' : 'receive'} nothing until ${owner} confirms ${waiting === 1 ? 'it' : 'them'} in Safety Sync → Settings… → Notifications.`,
    outside > 0 &&
      `${plural(outside, 'manager address', 'manager addresses')} on the People tab ${outside === 1 ? 'is' : 'are'} outside the domain of ${owner}, whose account sends the mail: nothing goes there unless ${owner} allows outside addresses.`,
  ].filter((part) => part !== false);
  return parts.length === 0 ? null : `Team digests sent: ${counts.sent}. ${parts.join(' ')}`;
}

/** One Sync log line when team mail waits: for the share, or for the owner to confirm addresses. */
function logSummary(team: TeamDigests, run: MailRun, outcome: TeamOutcome): void {
  const unconfirmed = teamAddresses(team.teams).filter((address) => !team.confirmed.has(address));
  const outside = unconfirmed.filter(
    (address) => !recipientAllowed(address, run.scheduleOwner, team.settings.allowOutsideDomain),
  ).length;
  const details = teamMailSummary({
    ...outcome,
    waiting: unconfirmed.length - outside,
    outside,
    owner: run.scheduleOwner,
    shareReason: run.allowance?.why ?? '',
  });
  if (details) logMail(run, { action: SUMMARY_ACTION, outcome: 'Skipped', details });
}

/** The Sync log's line for team digests that cannot go: the People tab cannot be read. */
export function logUnreadablePeople(run: MailRun, problem: string): void {
  logMail(run, {
    action: SUMMARY_ACTION,
    outcome: 'Skipped',
    details: `Team digests were not sent: ${problem}`,
  });
}
