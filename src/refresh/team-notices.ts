/**
 * What the team digests remember between runs, in the schedule owner's user properties (the
 * scheduled run reads them as the owner; the spreadsheet's document state, 30,000 characters shared
 * with the imports, has no room for it):
 * - when each manager was first told of each item (a "notice"), and whether it went on to their own
 *   manager since (escalated), for items still open on their team;
 * - the managers whose team digest the run's mail share could not cover: the next run sends theirs
 *   first.
 *
 * A property value holds 9 KB, so at most MAX_NOTICES notices are kept, the oldest first: a notice
 * beyond the bound is forgotten, and its item counts as noticed again when a later team digest holds
 * it, so its escalation comes later, never sooner. The managers left over are kept while they fit
 * in MAX_PENDING_CHARS; one beyond it waits for the next digest.
 */
import type { CalendarDate } from '../lib/dates';
import { fingerprint } from '../lib/fingerprint';

const TEAM_MEMORY_KEY_PREFIX = 'safetySync.teamDigests.';
const IDENTITY_CHARS = 8;
const DAY_CHARS = 4;
const ESCALATED = 'e';
const OPEN = '-';
const NOTICE_CHARS = IDENTITY_CHARS + DAY_CHARS + 1;
const MAX_NOTICES = 500;
const MAX_PENDING_CHARS = 2_000;

export interface Notice {
  /** The day the manager was first told of the item. */
  day: CalendarDate;
  /** Whether the item went on to the manager's own manager. */
  escalated: boolean;
}

export interface TeamMemory {
  /** By noticeId(manager, item key). */
  notices: Map<string, Notice>;
  /** Managers whose team digest waits for a run with mail share left, in the order to send them. */
  pending: string[];
}

interface SavedTeamMemory {
  triggerUid: string;
  notices: string;
  pending: string[];
}

/** What identifies a manager's notice of an item: a short fingerprint, never the address itself. */
export function noticeId(manager: string, itemKey: string): string {
  return fingerprint(`${manager}\u0000${itemKey}`).padStart(IDENTITY_CHARS, '0').slice(-IDENTITY_CHARS);
}

function keyOf(spreadsheetId: string): string {
  return TEAM_MEMORY_KEY_PREFIX + spreadsheetId;
}

function decodeNotices(text: string): Map<string, Notice> {
  const notices = new Map<string, Notice>();
  for (let at = 0; at + NOTICE_CHARS <= text.length; at += NOTICE_CHARS) {
    const day = parseInt(text.slice(at + IDENTITY_CHARS, at + IDENTITY_CHARS + DAY_CHARS), 36);
    notices.set(text.slice(at, at + IDENTITY_CHARS), {
      day: day as CalendarDate,
      escalated: text[at + NOTICE_CHARS - 1] === ESCALATED,
    });
  }
  return notices;
}

function encodeNotices(notices: Map<string, Notice>): string {
  return [...notices]
    .sort(([, a], [, b]) => a.day - b.day)
    .slice(0, MAX_NOTICES)
    .map(
      ([id, notice]) =>
        id + notice.day.toString(36).padStart(DAY_CHARS, '0') + (notice.escalated ? ESCALATED : OPEN),
    )
    .join('');
}

/** The memory as kept in the property: notices and managers left over, each within its bound. */
export function encodeTeamMemory(triggerUid: string, memory: TeamMemory): string {
  const pending: string[] = [];
  let chars = 0;
  for (const address of memory.pending) {
    chars += address.length + 3;
    if (chars > MAX_PENDING_CHARS) break;
    pending.push(address);
  }
  const saved: SavedTeamMemory = { triggerUid, notices: encodeNotices(memory.notices), pending };
  return JSON.stringify(saved);
}

/** The memory kept for this schedule; nothing for another schedule (or none kept). */
export function decodeTeamMemory(saved: string | null, triggerUid: string): TeamMemory {
  const memory = saved ? (JSON.parse(saved) as SavedTeamMemory) : null;
  if (!memory || memory.triggerUid !== triggerUid) return { notices: new Map(), pending: [] };
  return { notices: decodeNotices(memory.notices), pending: memory.pending };
}

/** What the owner's runs of this schedule remembered; nothing for another schedule. */
export function readTeamMemory(spreadsheetId: string, triggerUid: string): TeamMemory {
  return decodeTeamMemory(
    PropertiesService.getUserProperties().getProperty(keyOf(spreadsheetId)),
    triggerUid,
  );
}

export function writeTeamMemory(spreadsheetId: string, triggerUid: string, memory: TeamMemory): void {
  PropertiesService.getUserProperties().setProperty(
    keyOf(spreadsheetId),
    encodeTeamMemory(triggerUid, memory),
  );
}
