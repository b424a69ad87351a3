/**
 * Where the scheduled refresh is kept. The schedule belongs to the spreadsheet (its document state):
 * every editor sees whose it is, how it goes, and why it paused. Its trigger belongs to the user who
 * created it, and runs as them with no active spreadsheet; so that user's own properties map each of
 * their trigger ids to the spreadsheet it refreshes (and since when its runs could not open it).
 */
import { deleteDocumentState, DocumentState, type StateOrSpreadsheet } from '../platform/document-state';
import type { DigestMemory } from './digest';
import { type Frequency, readStoredFrequency, type StoredFrequency } from './schedule-frequency';

const SCHEDULE_KEY = 'safetySync.schedule';
const TRIGGER_KEY_PREFIX = 'safetySync.scheduleTrigger.';

/** What went wrong in the last failed scheduled run: never a message that could hold a secret. */
export interface RunProblem {
  /** The service's error identifier, or "transport: …", or "not_configured". */
  identifier: string;
  requestId?: string;
  atMs: number;
}

export interface RefreshSchedule {
  frequency: Frequency;
  /** The spreadsheet's time zone when the schedule was saved: a daily or monthly hour is in it,
   * and a "last day" schedule's days are told in it. */
  timeZone: string;
  triggerUid: string;
  /** Who created it (their e-mail, when Google reveals it): the trigger uses their token. */
  ownerEmail: string;
  /** Session.getTemporaryActiveUserKey() of the creator, to tell "yours" when the e-mail is hidden. */
  ownerKey: string;
  createdAtMs: number;
  lastRunAtMs: number | null;
  /** One sentence on how the last scheduled run went. */
  lastRunSummary: string | null;
  lastProblem: RunProblem | null;
  /** Runs in a row that failed because the token or account was refused. */
  authFailuresInARow: number;
  /** Runs in a row that failed for any reason (absent from schedules saved before it was counted). */
  failuresInARow?: number;
  /** What this schedule's e-mail digests reported: a new schedule (maybe another sender) starts afresh. */
  digestMemory?: DigestMemory;
  /**
   * Set when a run found the owner has not allowed sending mail (a scope added since they
   * authorised) and said so in the Sync log; cleared by a run that finds it allowed.
   */
  mailNeedsAuthorization?: true;
  /** Set when the schedule stopped itself; its trigger is deleted then. */
  paused: { atMs: number; identifier: string } | null;
}

/** A schedule as older versions saved it: the same, but for the frequency's shape. */
type StoredSchedule = Omit<RefreshSchedule, 'frequency'> & { frequency: StoredFrequency };

export function readSchedule(source: StateOrSpreadsheet): RefreshSchedule | null {
  const stored = DocumentState.of(source).get<StoredSchedule>(SCHEDULE_KEY);
  return stored && { ...stored, frequency: readStoredFrequency(stored.frequency) };
}

export function writeSchedule(source: StateOrSpreadsheet, schedule: RefreshSchedule): void {
  DocumentState.of(source).set(SCHEDULE_KEY, schedule);
}

export function deleteSchedule(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  deleteDocumentState(spreadsheet, SCHEDULE_KEY);
}

/** What the creator's user properties keep of each of their schedule triggers. */
export interface TriggerRecord {
  spreadsheetId: string;
  /**
   * Set by the first run that could not open the spreadsheet (in the trash, deleted, or no longer
   * shared with the trigger's owner); cleared by the run that opens it again.
   */
  missingSinceMs?: number;
}

/**
 * Run by the creator: remembers which spreadsheet their new trigger refreshes (its id alone, as
 * triggers made before a record could say more keep it); and by a run that opens it again.
 */
export function rememberTriggerSpreadsheet(triggerUid: string, spreadsheetId: string): void {
  PropertiesService.getUserProperties().setProperty(TRIGGER_KEY_PREFIX + triggerUid, spreadsheetId);
}

/** Run by the trigger's run that finds its spreadsheet missing: kept as JSON until it is found. */
export function recordSpreadsheetMissing(triggerUid: string, record: Required<TriggerRecord>): void {
  PropertiesService.getUserProperties().setProperty(TRIGGER_KEY_PREFIX + triggerUid, JSON.stringify(record));
}

export function triggerRecord(triggerUid: string): TriggerRecord | null {
  const kept = PropertiesService.getUserProperties().getProperty(TRIGGER_KEY_PREFIX + triggerUid);
  if (kept === null) return null;
  // A spreadsheet's id is never JSON.
  return kept.startsWith('{') ? (JSON.parse(kept) as TriggerRecord) : { spreadsheetId: kept };
}

export function spreadsheetIdOfTrigger(triggerUid: string): string | null {
  return triggerRecord(triggerUid)?.spreadsheetId ?? null;
}

export function forgetTrigger(triggerUid: string): void {
  PropertiesService.getUserProperties().deleteProperty(TRIGGER_KEY_PREFIX + triggerUid);
}
