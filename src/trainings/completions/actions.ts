/**
 * The entry points around the completions import: the menu items, and the functions the import
 * dialog calls step by step (each call is a new execution with its own time limit, so an import
 * larger than one execution goes on across calls while the dialog shows progress). Its first step,
 * which saves the filter as typed (a setting), is settings/import-filter.ts.
 */
import type { CompletionsFilter } from '../../api/completions-contract';
import { describeFilter, importCompletions, type CompletionsMode } from './import';
import { withFilterSpacesHint } from './filter-hint';
import type { FilterField } from './typed-filter';
import type { FieldRefusal } from '../../platform/field-refusal';
import { activeSpreadsheet, requireUi, showFailure } from '../../platform/interactive';
import { executionBudget } from '../../platform/time-budget';
import { type JobReport, runJob } from '../../platform/job-runner';
import { readImportOptions } from '../../platform/settings-store';
import { openSettingsIfNotConfigured } from '../../platform/settings-opener';
import { dropRevokedLend } from '../../platform/formula-access';

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

/** Dialog: the next part of an import that did not fit in one execution. */
export function continueCompletionsImport(): ImportStepResult {
  requireUi(IMPORT_ACTION);
  return importCompletionsStep(activeSpreadsheet());
}

/** One call's part of a full import from the dialog: with `filter`, the one just saved. */
export function importCompletionsStep(
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
