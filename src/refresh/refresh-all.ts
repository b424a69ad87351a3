/**
 * Refreshing brings every import this spreadsheet has into date, cheaply (completions incrementally:
 * usually one request). Equipment types are refreshed when their tab exists, which also recomputes
 * the upcoming inspections; each import is its own run with its own Sync log line, and one failing
 * does not stop the other. Safety Sync → Refresh all and the scheduled refresh both run it.
 */
import { ServiceError } from '../api/errors';
import { openSettingsIfNotConfigured } from '../platform/settings-opener';
import { type CompletionsMode, importCompletions } from '../trainings/completions/import';
import { refreshEquipment } from '../equipment/import';
import { findLinkedTabs, hasEquipmentTabs } from '../equipment/linked-tabs';
import { activeSpreadsheet, requireUi, showFailure } from '../platform/interactive';
import { markRefreshed, showRefreshStatus } from './status';
import { executionBudget } from '../platform/time-budget';
import { explainRefusedEdit } from '../platform/write-permission';
import { type JobContext, type JobReport, recordEvent, runJob } from '../platform/job-runner';
import { NotConfiguredError, SpreadsheetBusyError, WriteRefusedError } from '../platform/user-facing-error';
import type { ImportOptions } from '../platform/settings-store';
import { spreadsheetClock } from '../platform/time-zone';
import { dropRevokedLend } from '../platform/formula-access';

export interface RefreshOptions {
  /** Who starts it, for the Sync log: "Refresh" (a person) or "Scheduled refresh". */
  actionPrefix: string;
  interactive: boolean;
  completionsMode: CompletionsMode;
  /** When this execution started (Date.now()): its imports share its time. */
  executionStartMs: number;
  /** What the imports use instead of the spreadsheet's options (a scheduled run: its owner's confirmed ones). */
  importOverrides?: Partial<ImportOptions>;
  /** Why the completions import must not run now (a scheduled run whose owner has not confirmed the filter). */
  completionsPausedBecause?: string;
}

export interface RefreshOutcome {
  summaries: string[];
  failures: unknown[];
  /** Every import ran to its end: the tabs hold what the service holds. */
  complete: boolean;
  /** Set when the completions import was not run, and why (RefreshOptions.completionsPausedBecause). */
  pausedBecause: string | null;
}

/** Identifiers that mean the token or its account is refused: every request fails until a person acts. */
const TOKEN_REFUSALS = [
  'token_missing',
  'token_invalid',
  'token_inactive',
  'token_permission',
  'account_inactive',
];

export function isTokenRefused(error: unknown): boolean {
  if (error instanceof NotConfiguredError) return true;
  return error instanceof ServiceError && TOKEN_REFUSALS.includes(error.identifier);
}

interface Refresh {
  action: string;
  job: (context: JobContext) => JobReport;
}

function configuredRefreshes(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  options: RefreshOptions,
): Refresh[] {
  const { completionsMode, completionsPausedBecause } = options;
  const completionsAction = `${options.actionPrefix} completed trainings${completionsMode === 'full' ? ' (full reconciliation)' : ''}`;
  const refreshes: Refresh[] = completionsPausedBecause
    ? []
    : [
        {
          action: completionsAction,
          job: (context) => importCompletions(context, { mode: completionsMode }),
        },
      ];
  // Found by sheet id, under whatever name the user gave them; a deleted tab is reported by the job.
  if (hasEquipmentTabs(findLinkedTabs(spreadsheet))) {
    refreshes.push({ action: `${options.actionPrefix} equipment types`, job: refreshEquipment });
  }
  return refreshes;
}

/** Runs every configured import; stamps "Last refreshed" when all of them ran to their end. */
export function refreshImports(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  options: RefreshOptions,
): RefreshOutcome {
  const pausedBecause = options.completionsPausedBecause ?? null;
  const outcome: RefreshOutcome = { summaries: [], failures: [], complete: !pausedBecause, pausedBecause };
  if (pausedBecause) {
    outcome.summaries.push(
      logSkipped(spreadsheet, `${options.actionPrefix} completed trainings`, pausedBecause),
    );
  }
  const budget = executionBudget(options.executionStartMs);
  for (const [index, { action, job }] of configuredRefreshes(spreadsheet, options).entries()) {
    if (index > 0 && !budget.canAfford()) {
      // What is left of the execution could not hold this import's requests: the next refresh does it.
      outcome.summaries.push(logNotStarted(spreadsheet, action));
      outcome.complete = false;
      break;
    }
    try {
      const report = runJob(
        {
          action,
          spreadsheet,
          interactive: options.interactive,
          budget,
          importOverrides: options.importOverrides,
        },
        job,
      );
      outcome.summaries.push(report.summary);
      if (report.continuing) {
        // This execution's time is spent: the other imports wait for the next refresh.
        outcome.complete = false;
        break;
      }
    } catch (error) {
      outcome.failures.push(error);
      outcome.complete = false;
      // Another run holds the spreadsheet, or the token is refused: the next import would fail the same way.
      if (error instanceof SpreadsheetBusyError || isTokenRefused(error)) break;
    }
  }
  if (outcome.complete) {
    try {
      markRefreshed(spreadsheet, Date.now());
    } catch (error) {
      // A run with nothing to write reaches its first write here.
      outcome.failures.push(explainRefusedEdit(spreadsheet, error));
      outcome.complete = false;
    }
  }
  return outcome;
}

function logNotStarted(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, action: string): string {
  return logUnrun(
    spreadsheet,
    action,
    'Continuing',
    `${action}: not started in this run, too little of its time was left; the next refresh does it.`,
  );
}

function logSkipped(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  action: string,
  why: string,
): string {
  return logUnrun(spreadsheet, action, 'Skipped', why);
}

/** The Sync log line of an import this run did not start; returns its sentence. */
function logUnrun(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  action: string,
  outcome: 'Continuing' | 'Skipped',
  details: string,
): string {
  recordEvent(spreadsheet, { action, outcome, details }, spreadsheetClock(spreadsheet).utcOffsetAt);
  return details;
}

/** Safety Sync → Refresh all. */
export function refreshAll(): void {
  const ui = requireUi('Refresh all');
  dropRevokedLend();
  if (!openSettingsIfNotConfigured(ui)) return;
  const spreadsheet = activeSpreadsheet();
  const outcome = refreshImports(spreadsheet, {
    actionPrefix: 'Refresh',
    interactive: true,
    completionsMode: 'incremental',
    executionStartMs: Date.now(),
  });
  // A run refused for a protection or a viewer's role writes nothing, the status notes included,
  // and shows no toast (Google does not say whether a viewer's script may show one).
  if (!outcome.failures.some((error) => error instanceof WriteRefusedError)) {
    showRefreshStatus(spreadsheet);
    if (outcome.summaries.length) spreadsheet.toast(outcome.summaries.join(' '), 'Safety Sync', 10);
  }
  for (const error of outcome.failures) showFailure(ui, 'Refresh all', error);
}
