/**
 * What the schedule's time-driven trigger runs: as the user who created it (so with their token), in
 * no UI, and with no active spreadsheet, so it opens the one kept with its trigger id. It runs every
 * configured import (incrementally, with a full reconciliation once a day) under the spreadsheet's
 * run lock, so it never interleaves with an import someone started by hand.
 *
 * A failed run leaves the tabs as they were (every import fetches before it writes), logs the error
 * identifier and request ID, and marks the data stale once the last good refresh is older than twice
 * the interval. Runs that fail because the token or account is refused will keep failing, so after
 * a few in a row the schedule pauses itself instead of spending the user's quota every hour.
 *
 * Google stops starting time-driven triggers once their owner's daily trigger time is spent (90
 * minutes on a consumer account, 6 hours on Workspace; developers.google.com/apps-script/guides/
 * services/quotas), and stops a run that reaches it, so no code of the add-on runs to say so. The
 * next run Google allows sees the gap (more than two intervals since the last recorded run) and
 * says so once in the Sync log; the imports it runs go on from where the last run stopped.
 *
 * A run that cannot open its spreadsheet (in the Drive trash, deleted, or no longer shared with the
 * trigger's owner) fetches, writes and mails nothing, and keeps its trigger for the 30 days Drive
 * keeps a trashed file; the first run that opens it again says once in the Sync log since when it
 * could not, and goes on as usual.
 *
 * The function is top-level, so any editor could type it into a cell or call it from a dialog: it
 * returns nothing, refuses to run without its trigger's event, and does nothing for a trigger id
 * that is not the spreadsheet's current schedule of the calling user.
 */
import { ServiceError, TransportError } from '../api/errors';
import { lastFullImportMs } from '../trainings/completions/run-state';
import { DocumentState } from '../platform/document-state';
import { isTokenRefused, refreshImports, type RefreshOutcome } from './refresh-all';
import { describeProblem, formatMoment, showRefreshStatus } from './status';
import { errorIdentifier, openLogQuietly, recordEvent } from '../platform/job-runner';
import { NotConfiguredError, SpreadsheetBusyError, WriteRefusedError } from '../platform/user-facing-error';
import type { SyncLog } from '../platform/sync-log';
import { prepareNotifications, type ScheduleEvents } from './notifications';
import { intervalMs, isRunDay } from './schedule-frequency';
import { deleteTriggerById } from './schedule-trigger';
import {
  type RunProblem,
  readSchedule,
  type RefreshSchedule,
  recordSpreadsheetMissing,
  rememberTriggerSpreadsheet,
  triggerRecord,
  writeSchedule,
} from './schedule-store';
import { readImportOptions } from '../platform/settings-store';
import {
  type Confirmation,
  confirmedQuotaOptions,
  describeGroup,
  ownedSettingsOf,
  readChangeStamps,
  readConfirmation,
  sameFilter,
} from './schedule-owner';
import { type SpreadsheetClock, spreadsheetClock } from '../platform/time-zone';

/** Runs in a row refused for the token or account before the schedule pauses itself. */
const AUTH_FAILURES_BEFORE_PAUSE = 3;
/** Runs in a row refused because the owner may not write the tabs (write-permission.ts). */
const WRITE_REFUSALS_BEFORE_PAUSE = 2;
/** Failed runs in a row (for any reason) that send an alert to the notification recipients, once. */
const FAILURES_BEFORE_ALERT = 2;
const FULL_RECONCILIATION_EVERY_MS = 24 * 3_600_000;
/** A time since the last recorded run longer than this many intervals means runs were missed. */
const MISSED_RUN_INTERVALS = 2;
const SCHEDULED = 'Scheduled refresh';
/**
 * Drive deletes a file for good 30 days after it was put in the trash (Drive Help, "Delete and
 * restore files"): a spreadsheet missing for longer will not come back from there.
 */
const DRIVE_EMPTIES_TRASH_AFTER_MS = 30 * 24 * 3_600_000;

export function runScheduledRefresh(event?: GoogleAppsScript.Events.TimeDriven): void {
  const triggerUid = typeof event === 'object' && event !== null ? event.triggerUid : undefined;
  if (typeof triggerUid !== 'string' || triggerUid === '') {
    throw new Error(
      'The scheduled refresh runs only from its trigger. Use Safety Sync → Refresh all instead.',
    );
  }
  const opened = openScheduledSpreadsheet(triggerUid);
  if (!opened) return;
  const { spreadsheet, missingSinceMs } = opened;
  // One read of the state for what the run decides before it imports: the schedule, the filter and
  // who changed it, the last full reconciliation.
  const before = DocumentState.read(spreadsheet);
  const schedule = readSchedule(before);
  if (!schedule || schedule.triggerUid !== triggerUid || schedule.paused) {
    // Replaced by a newer schedule (maybe another user's), removed, or paused: only the trigger's
    // creator can delete it, and that is who runs now.
    deleteTriggerById(triggerUid);
    console.log('Safety Sync: a scheduled refresh that was replaced or removed deleted its trigger.');
    return;
  }
  if (isOffDay(schedule)) return;
  const startedAtMs = Date.now();
  // What the owner confirmed, read as the owner (the trigger runs as them) from their own properties.
  const confirmation = readConfirmation(spreadsheet.getId(), schedule);
  const outcome = refreshImports(spreadsheet, {
    actionPrefix: SCHEDULED,
    interactive: false,
    completionsMode: fullReconciliationDue(before) ? 'full' : 'incremental',
    executionStartMs: startedAtMs,
    importOverrides: confirmedQuotaOptions(confirmation),
    completionsPausedBecause:
      unconfirmedFilter({ spreadsheet, state: before }, schedule, confirmation) ?? undefined,
  });
  // Reading the state back commits the imports' writes; what the run reads next (the Sync log's
  // place, the notifications' tabs) comes before it writes again, so it costs no commit of its own.
  const state = DocumentState.read(spreadsheet);
  const current = readSchedule(state);
  // Someone may have replaced or removed the schedule while it ran: then this run's record is void.
  if (current?.triggerUid === triggerUid) {
    const clock = spreadsheetClock(spreadsheet);
    const log = openLogQuietly(spreadsheet, state);
    const notifier = prepareNotifications({
      spreadsheet,
      state,
      log,
      refreshed: outcome.failures.length === 0,
      notifications: confirmation?.notifications ?? null,
      scheduleOwner: current.ownerEmail,
      triggerUid,
      digestMemory: current.digestMemory,
      mailAuthorizationLogged: current.mailNeedsAuthorization === true,
      today: clock.today(),
      utcOffsetAt: clock.utcOffsetAt,
    });
    const recorded = recordScheduledRun({ log, clock }, current, outcome, startedAtMs);
    logMissedRuns({ log, clock }, spreadsheet, current, { startedAtMs, missingSinceMs });
    const digestMemory = notifier.send(recorded.events);
    const checked = notifier.mailNeedsAuthorization;
    const schedule =
      checked === undefined
        ? recorded.schedule
        : { ...recorded.schedule, mailNeedsAuthorization: checked || undefined };
    writeSchedule(state, digestMemory ? { ...schedule, digestMemory } : schedule);
    // Said in the Sync log: the trigger's record forgets since when the spreadsheet was missing.
    if (missingSinceMs !== null) rememberTriggerSpreadsheet(triggerUid, spreadsheet.getId());
  }
  showRefreshStatus(spreadsheet);
}

/**
 * A "last day of the month" schedule's trigger runs daily (Apps Script has no trigger for the last
 * day): on the other days its run stops here, before it fetches, writes or logs anything, so those
 * runs leave no trace and count neither as runs nor as missed ones.
 */
function isOffDay(schedule: RefreshSchedule): boolean {
  return !isRunDay(schedule.frequency, schedule.timeZone, Date.now());
}

interface OpenedSpreadsheet {
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  /** Since when the runs before this one could not open it, or null when the last run could. */
  missingSinceMs: number | null;
}

/**
 * The active spreadsheet, else the one kept with the trigger; null when it cannot be opened. Google
 * does not say whether openById opens a spreadsheet in the Drive trash (readings.ts,
 * trashedSpreadsheetOpens), and the add-on cannot tell the trash from a deletion or a lost share
 * without a Drive scope: so the trigger stays, with since when the spreadsheet is missing, until
 * Drive would have emptied its trash; a spreadsheet restored or shared again before then resumes
 * its schedule by itself.
 */
function openScheduledSpreadsheet(triggerUid: string): OpenedSpreadsheet | null {
  const active = SpreadsheetApp.getActiveSpreadsheet();
  if (active) return { spreadsheet: active, missingSinceMs: null };
  const record = triggerRecord(triggerUid);
  if (!record) {
    deleteTriggerById(triggerUid);
    console.log('Safety Sync: a scheduled refresh whose spreadsheet was not recorded deleted its trigger.');
    return null;
  }
  try {
    const spreadsheet = SpreadsheetApp.openById(record.spreadsheetId);
    return { spreadsheet, missingSinceMs: record.missingSinceMs ?? null };
  } catch (error) {
    // Anything but "missing" (in the trash, deleted, or no longer shared with you) may pass: let the
    // next run try again.
    if (!/missing|permission/i.test(error instanceof Error ? error.message : String(error))) throw error;
  }
  const nowMs = Date.now();
  const missingSinceMs = record.missingSinceMs ?? nowMs;
  if (nowMs - missingSinceMs >= DRIVE_EMPTIES_TRASH_AFTER_MS) {
    deleteTriggerById(triggerUid);
    console.log(
      'Safety Sync: the spreadsheet of a scheduled refresh has been missing for 30 days; its trigger deleted itself.',
    );
    return null;
  }
  if (record.missingSinceMs === undefined)
    recordSpreadsheetMissing(triggerUid, { spreadsheetId: record.spreadsheetId, missingSinceMs });
  console.log(
    'Safety Sync: the spreadsheet of a scheduled refresh could not be opened (in the trash, deleted, or no longer shared); its trigger tries again at its next run.',
  );
  return null;
}

/**
 * Why the owner's scheduled run must not import completed trainings now, or null: the spreadsheet's
 * filter is not the one the owner confirmed (someone else changed or cleared it), so importing would
 * read, with the owner's token, what the owner did not choose.
 */
function unconfirmedFilter(
  { spreadsheet, state }: { spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet; state: DocumentState },
  schedule: RefreshSchedule,
  confirmation: Confirmation | null,
): string | null {
  const owned = ownedSettingsOf(state);
  const confirmed = confirmation?.completionsFilter ?? null;
  if (confirmed && sameFilter(confirmed, owned.completionsFilter)) return null;
  const owner = schedule.ownerEmail || 'the schedule’s owner';
  const stamp = readChangeStamps(state).filter;
  const changed = stamp
    ? `the completions filter was changed by ${stamp.by} on ${formatMoment(spreadsheet, stamp.atMs)}`
    : 'the completions filter is not confirmed for this schedule';
  const was = confirmed
    ? ` (${owner} confirmed: ${describeGroup('filter', { ...owned, completionsFilter: confirmed })})`
    : '';
  return (
    `Scheduled imports of completed trainings are paused: ${changed} to "${describeGroup('filter', owned)}"${was}. ` +
    `${owner} confirms it or puts it back in Safety Sync → Settings…; Refresh all and imports started by hand go on with the runner's own token.`
  );
}

function fullReconciliationDue(state: DocumentState): boolean {
  const lastFullMs = lastFullImportMs(state, readImportOptions(state).completionsFilter);
  return lastFullMs === null || Date.now() - lastFullMs >= FULL_RECONCILIATION_EVERY_MS;
}

function problemOf(error: unknown, atMs: number): RunProblem {
  const identifier = error instanceof NotConfiguredError ? 'not_configured' : errorIdentifier(error);
  const requestId =
    error instanceof ServiceError || error instanceof TransportError ? error.requestId : undefined;
  return requestId ? { identifier, requestId, atMs } : { identifier, atMs };
}

/** One sentence for the dialog; the Sync log holds the full message of a failure. */
function describeRun(outcome: RefreshOutcome, problem: RunProblem | null): string {
  if (problem) return `Failed with ${describeProblem(problem)}; see the Sync log tab.`;
  if (outcome.pausedBecause) return outcome.summaries.join(' ');
  if (!outcome.complete) return `${outcome.summaries.join(' ')} It continues at the next scheduled run.`;
  return `Refreshed: ${outcome.summaries.join(' ')}`;
}

interface RecordPhase {
  log: SyncLog | null;
  clock: SpreadsheetClock;
}

/**
 * The run recorded in its schedule (the caller writes it once, with the digest's memory) and in the
 * Sync log when it skipped or paused, and what to tell the notification recipients.
 */
function recordScheduledRun(
  phase: RecordPhase,
  schedule: RefreshSchedule,
  outcome: RefreshOutcome,
  startedAtMs: number,
): { schedule: RefreshSchedule; events: ScheduleEvents } {
  const failure = outcome.failures[0];
  const skipped = failure instanceof SpreadsheetBusyError;
  const problem = failure && !skipped ? problemOf(failure, startedAtMs) : null;
  if (problem) {
    console.warn(
      `Safety Sync: a scheduled refresh failed with ${problem.identifier}` +
        (problem.requestId ? ` (request ID ${problem.requestId})` : ''),
    );
  }
  // A skipped run says nothing about the service or the token: the counts carry on. A run its owner
  // may not write (a protection, view-only access) fails the same way until someone changes that.
  const writeRefused = outcome.failures.some((error) => error instanceof WriteRefusedError);
  const authFailuresInARow = skipped
    ? schedule.authFailuresInARow
    : outcome.failures.some(isTokenRefused) || writeRefused
      ? schedule.authFailuresInARow + 1
      : 0;
  const previousFailures = schedule.failuresInARow ?? 0;
  const failuresInARow = skipped ? previousFailures : problem ? previousFailures + 1 : 0;
  const pause =
    authFailuresInARow >= (writeRefused ? WRITE_REFUSALS_BEFORE_PAUSE : AUTH_FAILURES_BEFORE_PAUSE) &&
    problem !== null;
  const recorded: RefreshSchedule = {
    ...schedule,
    lastRunAtMs: startedAtMs,
    lastRunSummary: skipped
      ? 'Skipped: another Safety Sync run was working on this spreadsheet. The next scheduled run catches up.'
      : describeRun(outcome, problem),
    lastProblem: skipped ? schedule.lastProblem : problem,
    authFailuresInARow,
    failuresInARow,
    paused: pause ? { atMs: startedAtMs, identifier: problem.identifier } : null,
  };
  if (skipped) {
    logScheduleEvent(
      phase,
      startedAtMs,
      'Skipped',
      null,
      'Another Safety Sync run was working on this spreadsheet; the next scheduled run catches up.',
    );
  }
  if (pause) {
    deleteTriggerById(schedule.triggerUid);
    logScheduleEvent(
      phase,
      startedAtMs,
      'Paused',
      problem,
      `The scheduled refresh paused itself: ${authFailuresInARow} runs in a row failed with ${problem.identifier}. ` +
        (writeRefused
          ? "Once the schedule's owner may edit the tabs (see the Failed lines above), save the schedule again in Safety Sync → Schedule refresh…."
          : 'Save a working token in Safety Sync → Settings…, then save the schedule again in Safety Sync → Schedule refresh….'),
    );
  }
  return {
    schedule: recorded,
    events: {
      failedTwice: problem && failuresInARow === FAILURES_BEFORE_ALERT ? problem : null,
      paused: pause ? { problem, runs: authFailuresInARow } : null,
    },
  };
}

/**
 * Says in the Sync log that runs were missed since the last recorded one (or since the schedule was
 * saved), and why when the runs before this one could not open the spreadsheet: in one line. Once:
 * this run's record, written with it, is the next run's last, and the trigger's record then forgets
 * since when the spreadsheet was missing.
 */
function logMissedRuns(
  phase: RecordPhase,
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  schedule: RefreshSchedule,
  { startedAtMs, missingSinceMs }: { startedAtMs: number; missingSinceMs: number | null },
): void {
  const at = (ms: number) => formatMoment(spreadsheet, ms);
  const sinceMs = schedule.lastRunAtMs ?? schedule.createdAtMs;
  // A run that could not open the spreadsheet is a run missed, however soon it opened again.
  const why =
    missingSinceMs === null
      ? "Google stops time-driven triggers once a user's daily trigger time (90 minutes on a consumer account, 6 hours on Workspace) is spent."
      : `it could not open this spreadsheet from ${at(missingSinceMs)} to ${at(startedAtMs)} ` +
        `(it was in the Drive trash, or not shared with ${schedule.ownerEmail || 'the schedule’s owner'}). It has resumed.`;
  if (
    missingSinceMs === null &&
    startedAtMs - sinceMs <= MISSED_RUN_INTERVALS * intervalMs(schedule.frequency)
  )
    return;
  logScheduleEvent(
    phase,
    startedAtMs,
    'Skipped',
    null,
    `The scheduled refresh did not run from ${at(sinceMs)} to ${at(startedAtMs)}: ${why} It continues where the last run stopped.`,
  );
}

function logScheduleEvent(
  phase: RecordPhase,
  atMs: number,
  outcome: 'Skipped' | 'Paused',
  problem: RunProblem | null,
  details: string,
): void {
  recordEvent(
    phase.log,
    {
      startedAtMs: atMs,
      action: SCHEDULED,
      outcome,
      error: problem?.identifier,
      requestId: problem?.requestId,
      details,
    },
    phase.clock.utcOffsetAt,
  );
}
