/**
 * The entry points around the completions import: the menu items, and the functions the import
 * dialog calls step by step (each call is a new execution with its own time limit, so an import
 * larger than one execution goes on across calls while the dialog shows progress).
 */
import type { CompletionsFilter } from '../../api/completions';
import { describeFilter, importCompletions, type CompletionsMode } from './import';
import { withFilterSpacesHint } from './filter-hint';
import { type FilterField, filterAsTyped } from './typed-filter';
import { type FieldRefusal, refusalOf } from '../../platform/field-refusal';
import { activeSpreadsheet, requireUi, showFailure } from '../../platform/interactive';
import { executionBudget } from '../../platform/time-budget';
import { type JobReport, runJob } from '../../platform/job-runner';
import {
  missingConnectionParts,
  readConnection,
  readImportOptions,
  saveImportOptions,
} from '../../platform/settings-store';
import { recordSettingsChange } from '../../settings/sharing';
import { ownedSettingsOf } from '../../refresh/schedule-owner';
import { showSettingsDialog } from '../../settings/settings-dialog';
import { dropRevokedLend } from '../../formulas/access';

export const IMPORT_ACTION = 'Import completed trainings';

export interface ImportStepResult {
  done: boolean;
  summary: string;
  /** A filter field to correct before anything is imported, for the dialog to show next to it. */
  refusal?: FieldRefusal<FilterField>;
}

/** Safety Sync → Import completed trainings…: the dialog to choose what to import. */
export function showImportCompletionsDialog(): void {
  const ui = requireUi(IMPORT_ACTION);
  if (!openSettingsIfNotConfigured(ui)) return;
  // Tall enough for a message next to a field as well as the two-line progress.
  const html = HtmlService.createHtmlOutputFromFile('import-completions').setWidth(400).setHeight(370);
  ui.showModalDialog(html, 'Import completed trainings');
}

/** Not configured: say what is missing and open Settings instead; nothing is fetched. */
export function openSettingsIfNotConfigured(ui: GoogleAppsScript.Base.Ui): boolean {
  const missing = missingConnectionParts(readConnection());
  if (!missing) return true;
  ui.alert('Safety Sync', missing, ui.ButtonSet.OK);
  showSettingsDialog();
  return false;
}

/** The filter the dialog starts from: the one remembered for this spreadsheet. */
export function getCompletionsFilter(): CompletionsFilter {
  // From a cell it would show any editor the user and training IDs this spreadsheet imports.
  requireUi('Reading the import filter');
  return readImportOptions().completionsFilter;
}

/** `filter`: the one saved for this spreadsheet, which the caller may have at hand. */
function runCompletions(
  mode: CompletionsMode,
  interactive: boolean,
  spreadsheet = activeSpreadsheet(),
  filter: CompletionsFilter = readImportOptions(spreadsheet).completionsFilter,
): JobReport {
  const budget = executionBudget(Date.now());
  const action = `${IMPORT_ACTION}: ${describeFilter(filter)} (${mode})`;
  return runJob({ action, spreadsheet, interactive, budget }, (context) =>
    withFilterSpacesHint(
      context.client,
      context.options.completionsFilter,
      importCompletions(context, { mode }),
    ),
  );
}

/** Dialog: remember the filter exactly as typed, then read the first part (or all) of the records. */
export function startCompletionsImport(filter: { user_id?: string; training_id?: string }): ImportStepResult {
  requireUi(IMPORT_ACTION);
  dropRevokedLend();
  const spreadsheet = activeSpreadsheet();
  const options = readImportOptions(spreadsheet);
  let completionsFilter: CompletionsFilter;
  try {
    completionsFilter = filterAsTyped({ userId: filter.user_id, trainingId: filter.training_id });
  } catch (error) {
    const refusal = refusalOf<FilterField>(error);
    if (!refusal) throw error;
    return { done: true, summary: 'Nothing was imported: see the message next to the field.', refusal };
  }
  // Only a new filter is written: a write before the import's reads costs a commit on Google.
  if (JSON.stringify(completionsFilter) !== JSON.stringify(options.completionsFilter)) {
    const before = ownedSettingsOf(spreadsheet);
    saveImportOptions({ ...options, completionsFilter }, spreadsheet);
    // The spreadsheet's filter steers the schedule's owner's imports once they confirm it.
    recordSettingsChange(spreadsheet, before);
  }
  return importStep(spreadsheet, completionsFilter);
}

/** Dialog: the next part of an import that did not fit in one execution. */
export function continueCompletionsImport(): ImportStepResult {
  requireUi(IMPORT_ACTION);
  return importStep(activeSpreadsheet());
}

function importStep(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  filter?: CompletionsFilter,
): ImportStepResult {
  const report = runCompletions('full', true, spreadsheet, filter);
  return { done: !report.continuing, summary: report.summary };
}

/** Safety Sync → Reconcile completed trainings: re-read everything, drop what is gone upstream. */
export function reconcileCompletedTrainings(): void {
  const ui = requireUi('Reconcile completed trainings');
  dropRevokedLend();
  if (!openSettingsIfNotConfigured(ui)) return;
  try {
    const report = runCompletions('full', true);
    ui.alert('Safety Sync', `${report.summary}`, ui.ButtonSet.OK);
  } catch (error) {
    showFailure(ui, 'Reconcile completed trainings', error);
  }
}
