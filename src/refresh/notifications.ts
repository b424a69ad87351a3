/**
 * E-mail from the scheduled refresh: the digest of expired and expiring inspections and trainings,
 * an alert when the schedule failed twice in a row, and a notice when it paused itself. Sent with
 * MailApp from the account of the schedule's owner (the trigger runs as them); there is no other
 * trigger. Opt-in: nothing is sent until someone sets recipients and a frequency in Settings.
 *
 * A scheduled run has read its state back after its imports (one commit it always had), so the
 * digest reads what it needs right then, before the run writes again: the notification settings from
 * the same document state, what the last digest reported from the schedule, and the Upcoming
 * inspections and Expiring trainings tabs
 * (their rows as the run just wrote them), a few Spreadsheet calls and no commit of their own, and
 * only in a run where a digest may be due. Every mail checks MailApp's daily quota first; a message
 * that cannot go is a Sync log line, and the digest tries again at the next run. A run with mail to
 * send first asks Google whether the owner allowed sending mail (a scope added after they authorised
 * is not granted until they open the add-on again): without it nothing is sent, and the Sync log
 * says so once until they do (mail-authorization.ts). With team digests on, the run also reads the
 * People tab and sends each confirmed manager their team's part after the digest
 * (team-digests.ts), all within one share of the quota (mail-sender.ts).
 */
import {
  addDays,
  type CalendarDate,
  cellToSheetSerial,
  fromSheetSerial,
  toIsoDate,
  type UtcOffsetAt,
} from '../lib/dates';
import type { DocumentState } from '../platform/document-state';
import { recordEvent } from '../platform/job-runner';
import { findAddonTab } from '../platform/addon-tabs';
import { SYNC_LOG_TAB, type SyncLog } from '../platform/sync-log';
import { findLinkedTabs } from '../equipment/linked-tabs';
import { InspectionStatus } from '../equipment/inspections';
import { EXPIRING_ADDON_TAB } from '../trainings/training-tab-set';
import { trainingTabsComputedOn } from '../trainings/computed-day';
import {
  type DigestItem,
  type DigestMemory,
  EMPTY_MEMORY,
  type ItemKind,
  type ItemStatus,
  isDigestDue,
  type LeftOut,
  planDigest,
} from './digest';
import { alertMail, digestMail, type Mail, type MailSetting, type TabLink } from './notification-mail';
import { type NotificationSettings, notificationsOn } from './notification-settings';
import { MAIL_NEEDS_AUTHORIZATION, mailNeedsAuthorization } from './mail-authorization';
import { mailRun, sendMail } from './mail-sender';
import { logUnreadablePeople, readTeamDigests, sendTeamDigests, teamMemoryFor } from './team-digests';
import { describeProblem } from './status';
import type { RunProblem } from './schedule-store';

const DIGEST_ACTION = 'E-mail digest';
const ALERT_ACTION = 'E-mail alert';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** What the scheduled run has to tell, once it recorded itself. */
export interface ScheduleEvents {
  /** Set when this run made it two failures in a row (said once per streak). */
  failedTwice: RunProblem | null;
  /** Set when the schedule paused itself in this run. */
  paused: { problem: RunProblem; runs: number } | null;
}

/** What a scheduled run read for its notifications, and how it sends them later. */
interface Notifier {
  /** Sends what there is to send; returns the digest memory to keep when a digest went out. */
  send(events: ScheduleEvents): DigestMemory | null;
  /** Whether the owner has not allowed sending mail; absent when the run had no mail to check for. */
  mailNeedsAuthorization?: boolean;
}

interface ReadPhase {
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  state: DocumentState;
  log: SyncLog | null;
  /** Whether the run's imports all succeeded: only then is the digest worth sending. */
  refreshed: boolean;
  /** What the schedule's owner confirmed (schedule-owner.ts); null: mail is off. */
  notifications: NotificationSettings | null;
  scheduleOwner: string;
  /** The schedule's trigger: what the owner's memory of the team digests is kept for. */
  triggerUid: string;
  /** What the schedule's last digest left: kept with the schedule, whose owner sends the digest. */
  digestMemory: DigestMemory | undefined;
  /** Whether an earlier run logged that the owner must authorise mail again: said once until they do. */
  mailAuthorizationLogged: boolean;
  today: CalendarDate;
  utcOffsetAt: UtcOffsetAt;
}

/** Reads what the notifications need; call it after the run's imports and before it writes again. */
export function prepareNotifications(phase: ReadPhase): Notifier {
  const settings = phase.notifications;
  if (!settings || !notificationsOn(settings)) return { send: () => null };
  const memory = phase.digestMemory ?? EMPTY_MEMORY;
  const digestDue = phase.refreshed && isDigestDue(settings, memory, phase.today);
  // Alerts are for a run that failed: a run that refreshed and owes no digest reads nothing more.
  const mayAlert = !phase.refreshed && settings.topics.includes('refreshFailures');
  const teamMemory = teamMemoryFor(settings, phase);
  // Team digests go with the digest, and those a run's share left over go at the next run.
  const teamsDue = teamMemory !== null && (digestDue || teamMemory.pending.length > 0);
  if (!digestDue && !mayAlert && !teamsDue) return { send: () => null };
  if (mailNeedsAuthorization()) {
    const action = digestDue || teamsDue ? DIGEST_ACTION : ALERT_ACTION;
    return {
      send() {
        if (!phase.mailAuthorizationLogged) logMailAuthorization(phase, action);
        return null;
      },
      mailNeedsAuthorization: true,
    };
  }
  const { setting, sheets, url } = mailSettingOf(phase, settings);
  // Without names, a training's person and title stay unread: the digest only counts them.
  const named = settings.personalData === 'names';
  const tabs = [
    ...(digestDue ? [readItems(sheets.upcoming, 'inspection', true, url, phase)] : []),
    ...(digestDue || teamsDue
      ? [
          withRecordedDay(
            readItems(sheets.expiring, 'training', named, url, phase),
            trainingTabsComputedOn(phase.state),
          ),
        ]
      : []),
  ];
  const items = tabs.flatMap((tab) => tab.items);
  const leftOut = tabs.flatMap((tab) => leftOutOf(tab, phase.today));
  // A team digest goes only when the run knows its trainings for today.
  const team =
    teamMemory !== null && teamsDue && !leftOut.some((part) => part.kind === 'training')
      ? readTeamDigests(phase, settings, teamMemory, items)
      : null;
  return {
    send(events) {
      const run = mailRun(phase, settings);
      if (settings.topics.includes('refreshFailures')) {
        const retry = 'this alert is not sent again.';
        const to = settings.recipients;
        if (events.failedTwice) {
          sendMail(run, ALERT_ACTION, failureAlert(events.failedTwice, setting), { to, retry });
        }
        if (events.paused) sendMail(run, ALERT_ACTION, pauseNotice(events.paused, setting), { to, retry });
      }
      const plan = digestDue ? planDigest(settings, items, memory, phase.today, leftOut) : null;
      const sent =
        plan !== null &&
        sendMail(run, DIGEST_ACTION, digestMail(plan, setting), {
          to: settings.recipients,
          retry: 'the next scheduled run tries again.',
        });
      if (team && 'problem' in team) logUnreadablePeople(run, team.problem);
      else if (team) sendTeamDigests(team, run, setting, sent ? plan : null);
      return sent ? plan.memory : null;
    },
    mailNeedsAuthorization: false,
  };
}

/** Where the messages point (the spreadsheet and its tabs, found by their sheet ids) and who sends them. */
function mailSettingOf(
  phase: ReadPhase,
  settings: NotificationSettings,
): { setting: MailSetting; sheets: { upcoming: Sheet | null; expiring: Sheet | null }; url: string } {
  const { spreadsheet } = phase;
  const url = `https://docs.google.com/spreadsheets/d/${spreadsheet.getId()}/edit`;
  // Found by their sheet ids, under whatever names the user gave them.
  const upcoming = findLinkedTabs(spreadsheet, phase.state).sheets.upcoming;
  const expiring = findAddonTab(spreadsheet, phase.state, EXPIRING_ADDON_TAB).sheet;
  const syncLogSheet = findAddonTab(spreadsheet, phase.state, SYNC_LOG_TAB).sheet;
  const tabLink = (sheet: Sheet | null): TabLink | null =>
    sheet && { name: sheet.getName(), url: `${url}#gid=${sheet.getSheetId()}` };
  const trainingsTab = tabLink(expiring);
  const setting: MailSetting = {
    spreadsheetUrl: url,
    tabs: [tabLink(upcoming), trainingsTab, tabLink(syncLogSheet)].filter((tab) => tab !== null),
    trainingsTab,
    scheduleOwner: phase.scheduleOwner,
    personalData: settings.personalData,
  };
  return { setting, sheets: { upcoming, expiring }, url };
}

/**
 * Where each tab keeps what a digest reads, by header: the columns may be anywhere the user moved
 * them. `words` name an item: an inspection by its equipment type and schedule, a training by its
 * person and training, each name with its id (read only when the digest may name people).
 */
const TABS = {
  inspection: {
    status: 'Status',
    key: 'Schedule key',
    date: 'Due date',
    id: 'Schedule ID',
    words: ['Equipment type', 'Schedule'],
  },
  training: {
    status: 'Status',
    key: 'Key',
    date: 'Expires',
    id: null,
    words: ['User ID', 'User name', 'Training ID', 'Training'],
  },
} as const;
const DAYS_LEFT = 'Days left';
const OPEN_STATUSES: readonly string[] = ['Expired', 'Expiring', InspectionStatus.noInspectionRecorded];
/**
 * Each of a title's two parts (person and training, equipment type and schedule) is cut to this: a
 * service's text may fill a cell (50,000 characters), and 80 of them would take a digest past
 * MailApp's 200 KB body. Cutting the parts, not the joined line, keeps the second part in sight
 * however long the first is. An id beside a name is cut shorter still, so that the name stays.
 */
const MAX_PART_CHARS = 79;
const MAX_ID_CHARS = 24;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "Anna Müller (U-12)"; the id alone where there is no name (or the name is the id). */
function withId(name: string, id: string): string {
  if (name === '' || name === id) return cut(id, MAX_PART_CHARS);
  const shortId = cut(id, MAX_ID_CHARS);
  return `${cut(name, MAX_PART_CHARS - shortId.length - ' ()'.length)} (${shortId})`;
}

/**
 * The day the run that wrote the tab recorded, where it did: it tells even when no row does (no open
 * item, or older lapses only). A tab written by a version that recorded none keeps its rows' day.
 */
function withRecordedDay(tab: TabItems, recorded: CalendarDate | null): TabItems {
  return recorded === null ? tab : { ...tab, computedFor: recorded };
}

/** What a tab holds for the digest: its open items, and the day their days left were computed for. */
interface TabItems {
  kind: ItemKind;
  items: DigestItem[];
  /** The day the tab's days left count from (its due date minus its days left); null: no row tells. */
  computedFor: CalendarDate | null;
}

/**
 * The open rows of a tab (Expired, Expiring, and on Upcoming inspections "No inspection recorded"),
 * found by their headers wherever the user moved them; named only when `named` (without, a
 * training's person and training stay unread). Past the header, it reads only the columns from the
 * first it needs to the last: on the Expiring trainings tab as the add-on lays it out, a digest
 * without names reads no person's name and no training.
 */
function readItems(
  sheet: Sheet | null,
  kind: ItemKind,
  named: boolean,
  url: string,
  { today, utcOffsetAt }: { today: CalendarDate; utcOffsetAt: UtcOffsetAt },
): TabItems {
  const none: TabItems = { kind, items: [], computedFor: null };
  if (!sheet) return none;
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  if (lastRow < 2 || lastColumn < 1) return none;
  const [header = []] = sheet.getRange(1, 1, 1, lastColumn).getValues();
  const tab = TABS[kind];
  const at = (title: string | null) => (title === null ? -1 : header.indexOf(title));
  const status = at(tab.status);
  const key = at(tab.key);
  const daysLeft = at(DAYS_LEFT);
  const date = at(tab.date);
  const id = at(tab.id);
  if (status < 0 || key < 0 || daysLeft < 0) return none;
  const words = named ? tab.words.map(at) : [];
  const used = [status, key, daysLeft, date, id, ...words].filter((column) => column >= 0);
  const first = Math.min(...used);
  const rows = sheet.getRange(2, first + 1, lastRow - 1, Math.max(...used) - first + 1).getValues();
  const text = (row: unknown[], column: number | undefined) =>
    column === undefined || column < 0 ? '' : String(row[column - first] ?? '');
  const gid = sheet.getSheetId();
  let computedFor: CalendarDate | null = null;
  const items = rows.flatMap((row, index): DigestItem[] => {
    const itemStatus = row[status - first];
    const days = row[daysLeft - first];
    if (!OPEN_STATUSES.includes(itemStatus as string)) return [];
    const undated = itemStatus === InspectionStatus.noInspectionRecorded;
    if (!undated && typeof days !== 'number') return [];
    const serial = date < 0 ? null : cellToSheetSerial(row[date - first], utcOffsetAt);
    const due = serial === null ? null : fromSheetSerial(Math.round(serial));
    if (computedFor === null && due !== null && typeof days === 'number') computedFor = addDays(due, -days);
    const title =
      kind === 'training'
        ? [withId(text(row, words[1]), text(row, words[0])), withId(text(row, words[3]), text(row, words[2]))]
        : [cut(text(row, words[0]), MAX_PART_CHARS), cut(text(row, words[1]), MAX_PART_CHARS)];
    return [
      {
        kind,
        status: itemStatus as ItemStatus,
        key: String(row[key - first]),
        title: title.filter((part) => part !== '').join(': '),
        id: text(row, id),
        // Without a due date column, the date its days left count to.
        date: undated ? '' : toIsoDate(due ?? addDays(today, days as number)),
        daysLeft: undated ? null : (days as number),
        link: `${url}#gid=${gid}&range=A${index + 2}`,
      },
    ];
  });
  return { kind, items, computedFor };
}

/**
 * The tab as a part the digest leaves out, when its days left were computed for another day than
 * today: this run did not recompute it (a cell the add-on refuses, an import that continues at the
 * next run) and its days, read as today's, would be wrong. The day comes from the tab's own rows:
 * each row's date minus its days left. This is the seam where a record of the day the tabs were
 * computed for (kept by the imports that write them) can take over; a tab without rows tells no day.
 */
function leftOutOf(tab: TabItems, today: CalendarDate): LeftOut[] {
  return tab.computedFor === null || tab.computedFor === today
    ? []
    : [{ kind: tab.kind, computedFor: tab.computedFor }];
}

function failureAlert(problem: RunProblem, setting: MailSetting): Mail {
  return alertMail(
    'Safety Sync: the scheduled refresh failed twice in a row',
    [
      `The scheduled refresh of this spreadsheet failed in its last two runs, the last with ${describeProblem(problem)}.`,
      'The tabs keep what the last good refresh wrote. The Sync log tab has each run’s error; Safety Sync → Refresh all tries again now.',
    ],
    setting,
  );
}

function pauseNotice(paused: NonNullable<ScheduleEvents['paused']>, setting: MailSetting): Mail {
  return alertMail(
    'Safety Sync: the scheduled refresh paused itself',
    [
      `The scheduled refresh of this spreadsheet paused itself: ${paused.runs} runs in a row failed with ${describeProblem(paused.problem)}, which a person has to fix.`,
      'Save a working token in Safety Sync → Settings…, then save the schedule again in Safety Sync → Schedule refresh… to resume it.',
    ],
    setting,
  );
}

/** The Sync log's line for a run that sent nothing because the owner must allow mail again. */
function logMailAuthorization(phase: ReadPhase, action: string): void {
  recordEvent(
    phase.log,
    { action, outcome: 'Skipped', details: MAIL_NEEDS_AUTHORIZATION },
    phase.utcOffsetAt,
  );
}
