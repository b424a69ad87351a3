/**
 * Runs one job (an import, a refresh) the same way from a menu, a dialog or a trigger: checks the
 * connection, takes the document lock so two runs never interleave, builds the service client,
 * measures the run, and writes the Sync log line whatever the outcome. A failed job has written
 * nothing (jobs fetch and validate everything before they write), so the tabs keep their content.
 */
import type { ServiceClient } from '../api/client';
import { InvalidParameterError, scrub, ServiceError, TransportError } from '../api/errors';
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import { takeAddedColumnSentences } from '../sheets/added-columns';
import { tryLockDocument } from './document-lock';
import type { DocumentState } from './document-state';
import { googleServiceClient } from './service-client';
import { executionBudget, type TimeBudget } from './time-budget';
import {
  missingConnectionParts,
  readConnection,
  readImportOptions,
  type ImportOptions,
} from './settings-store';
import { openSyncLog, type SyncLog, type SyncLogEntry } from './sync-log';
import { takeWrittenOverview } from './overview/overview-tab';
import { removeDefaultTab, untouchedDefaultTab } from './default-tab';
import { type SpreadsheetClock, spreadsheetClock } from './time-zone';
import { NotConfiguredError, SpreadsheetBusyError, WriteRefusedError } from './user-facing-error';
import { explainRefusedEdit } from './write-permission';

/** How long a run waits for another one to finish before it gives up. */
const LOCK_WAIT_MS = 10_000;

export interface JobContext {
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  /** The spreadsheet's state, read when the run took the lease (writes go through it). */
  state: DocumentState;
  client: ServiceClient;
  options: ImportOptions;
  /** The execution's time: every round of requests asks it first. */
  budget: TimeBudget;
  utcOffsetAt: UtcOffsetAt;
  today: CalendarDate;
  /** The run, as the Sync log names it: its action, who ran it ('' where Apps Script does not say), when. */
  run: { action: string; user: string; startedAtMs: number };
  /** Shows how far the job is (a toast in menus; nothing in triggers). */
  progress(message: string): void;
}

export interface JobReport {
  added: number;
  removed: number;
  /** One sentence for the user: what the run did. */
  summary: string;
  details?: string;
  /** How many records a finished full import wrote: all its filter matched. */
  records?: number;
  /** True when the job stopped early to stay inside the execution limit and will continue. */
  continuing?: boolean;
}

export interface RunOptions {
  action: string;
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  interactive: boolean;
  /** Shared by the jobs of one execution (Refresh all); by default the job's own, from its start. */
  budget?: TimeBudget;
  /** What the run uses instead of the spreadsheet's options: a scheduled run, its owner's confirmed ones. */
  importOverrides?: Partial<ImportOptions>;
}

/**
 * What every run that changes the spreadsheet starts with: the document lock, so two runs never
 * interleave (another user's, the schedule's), and the spreadsheet's clock.
 */
export function holdingDocumentLock<T>(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  run: (clock: SpreadsheetClock, state: DocumentState) => T,
): T {
  const lock = tryLockDocument(spreadsheet, LOCK_WAIT_MS);
  if (!lock) {
    throw new SpreadsheetBusyError(
      'An import is already running in this spreadsheet. Try again when it has finished.',
    );
  }
  try {
    return run(spreadsheetClock(spreadsheet), lock.state);
  } finally {
    lock.release();
  }
}

export function runJob(options: RunOptions, job: (context: JobContext) => JobReport): JobReport {
  const connection = readConnection();
  const missing = missingConnectionParts(connection);
  if (missing) throw new NotConfiguredError(missing);
  return holdingDocumentLock(options.spreadsheet, ({ utcOffsetAt, today }, state) => {
    const startedAtMs = Date.now();
    const budget = options.budget ?? executionBudget(startedAtMs);
    const client = googleServiceClient(
      { baseUrl: connection.baseUrl!, token: connection.token! },
      { timeLeftMs: () => budget.leftMs() },
    );
    const logLine = { action: options.action, user: currentUserEmail(), startedAtMs };
    const log = openLogQuietly(options.spreadsheet, state);
    try {
      // Read before the job writes: after its writes, a read costs a commit.
      const defaultTab = untouchedDefaultTab(options.spreadsheet, state);
      const jobReport = job({
        spreadsheet: options.spreadsheet,
        state,
        client,
        options: { ...readImportOptions(state), ...options.importOverrides },
        budget,
        utcOffsetAt,
        today: today(),
        run: logLine,
        progress: progressToasts(options),
      });
      const durationMs = Date.now() - startedAtMs;
      const cost = `${client.stats.requests} requests, ${Math.round(durationMs / 1000)} s`;
      const report = { ...jobReport, summary: `${jobReport.summary} (${cost})` };
      recordRun(
        log,
        {
          ...logLine,
          added: report.added,
          removed: report.removed,
          requests: client.stats.requests,
          durationMs,
          outcome: report.continuing ? 'Continuing' : 'Success',
          details: withAddedColumns(report.details ?? report.summary),
        },
        utcOffsetAt,
      );
      // After the Sync log line, which may have made the Sync log: a tab the user sees beside it.
      removeDefaultTabQuietly(options.spreadsheet, state, defaultTab);
      // Last: a new tab is the active one.
      showOverviewIfWritten(options);
      return report;
    } catch (thrown) {
      // A failed run shows nothing new: the next run of this execution must not show it either.
      takeWrittenOverview();
      const error = explainRefusedEdit(options.spreadsheet, thrown);
      // Scrubbed like every message a user sees: a URL in a platform error may carry the token encoded.
      const message = scrub(error instanceof Error ? error.message : String(error), connection.token!);
      recordRun(
        log,
        {
          ...logLine,
          added: 0,
          removed: 0,
          requests: client.stats.requests,
          durationMs: Date.now() - startedAtMs,
          outcome: 'Failed',
          error: errorIdentifier(error),
          requestId:
            error instanceof ServiceError || error instanceof TransportError ? error.requestId : undefined,
          details: withAddedColumns(message),
        },
        utcOffsetAt,
      );
      throw error;
    }
  });
}

/** The run has done its work: a default tab it could not remove stays, said in the executions log. */
function removeDefaultTabQuietly(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  defaultTab: GoogleAppsScript.Spreadsheet.Sheet | null,
): void {
  try {
    removeDefaultTab(spreadsheet, state, defaultTab);
  } catch (error) {
    console.warn(
      `Safety Sync could not remove the empty default tab: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The Overview is where a person lands after a run from the menu or a dialog that wrote it. A
 * trigger's run leaves the active tab alone: it would reach no one's open spreadsheet.
 */
function showOverviewIfWritten(options: RunOptions): void {
  const overview = takeWrittenOverview();
  if (overview && options.interactive) overview.activate();
}

/**
 * Progress as toasts, at most one every few seconds: a toast is a Spreadsheet service call, and a
 * run short enough to need none should cost none.
 */
const PROGRESS_INTERVAL_MS = 8_000;

/** A run's details led by the columns it added to older tabs, which the log says once. */
function withAddedColumns(details: string): string {
  return [...takeAddedColumnSentences(), details].join(' ');
}

function progressToasts(options: RunOptions): (message: string) => void {
  let lastShownMs = Date.now();
  return (message) => {
    if (!options.interactive || Date.now() - lastShownMs < PROGRESS_INTERVAL_MS) return;
    lastShownMs = Date.now();
    options.spreadsheet.toast(message, 'Safety Sync', 10);
  };
}

/**
 * The Sync log line is a record of the run, not part of it: failing to write it (the spreadsheet is
 * full, say) must neither fail a run that worked nor hide why a run failed.
 */
export function recordRun(
  log: GoogleAppsScript.Spreadsheet.Spreadsheet | SyncLog | null,
  entry: SyncLogEntry,
  utcOffsetAt: UtcOffsetAt,
): void {
  try {
    const opened = log && 'append' in log ? log : log && openSyncLog(log);
    if (!opened) throw new Error('the Sync log tab could not be read');
    opened.append(entry, utcOffsetAt);
  } catch (error) {
    warnLogNotWritten(error);
  }
}

/** What a Sync log line says of something other than an import: no rows, no requests. */
export interface SyncLogEvent {
  action: string;
  outcome: SyncLogEntry['outcome'];
  details: string;
  /** When it began (Date.now()); now by default, taking no time. */
  startedAtMs?: number;
  error?: string;
  requestId?: string;
}

/** A Sync log line for an event (a settings change, a mail, a run held back), by the user running now. */
export function recordEvent(
  log: GoogleAppsScript.Spreadsheet.Spreadsheet | SyncLog | null,
  event: SyncLogEvent,
  utcOffsetAt: UtcOffsetAt,
): void {
  const startedAtMs = event.startedAtMs ?? Date.now();
  recordRun(
    log,
    {
      startedAtMs,
      user: currentUserEmail(),
      action: event.action,
      added: 0,
      removed: 0,
      requests: 0,
      durationMs: Date.now() - startedAtMs,
      outcome: event.outcome,
      error: event.error,
      requestId: event.requestId,
      details: event.details,
    },
    utcOffsetAt,
  );
}

/** The log read before the job writes (see openSyncLog); null, said in the executions log, if it cannot be. */
export function openLogQuietly(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state?: DocumentState,
): SyncLog | null {
  try {
    return openSyncLog(spreadsheet, state);
  } catch (error) {
    warnLogNotWritten(error);
    return null;
  }
}

function warnLogNotWritten(error: unknown): void {
  console.warn(
    `Safety Sync could not write the Sync log: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** What the Sync log's Error column shows: the service's identifier, or the kind of failure. */
export function errorIdentifier(error: unknown): string {
  if (error instanceof ServiceError) return error.identifier;
  if (error instanceof TransportError) return `transport: ${error.kind}`;
  if (error instanceof InvalidParameterError) return 'invalid_input';
  if (error instanceof WriteRefusedError) return 'protected';
  return 'error';
}

/** The e-mail when the user's domain shares it; '' otherwise (and in anonymous contexts). */
export function currentUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || Session.getEffectiveUser().getEmail();
  } catch {
    return '';
  }
}
