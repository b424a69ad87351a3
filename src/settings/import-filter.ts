/**
 * The import dialog's first step: the filter it sends is a setting of this spreadsheet, saved as
 * typed and recorded like a change in Settings (the schedule's owner confirms it before their
 * scheduled imports use it), then the import starts with it (trainings/completions/actions.ts).
 */
import type { CompletionsFilter } from '../api/completions-contract';
import {
  IMPORT_ACTION,
  importCompletionsStep,
  type ImportStepResult,
} from '../trainings/completions/actions';
import { type FilterField, filterAsTyped } from '../trainings/completions/typed-filter';
import { refusalOf } from '../platform/field-refusal';
import { dropRevokedLend } from '../platform/formula-access';
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { readImportOptions, saveImportOptions } from '../platform/settings-store';
import { ownedSettingsOf } from '../refresh/schedule-owner';
import { recordSettingsChange } from './sharing';

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
  return importCompletionsStep(spreadsheet, completionsFilter);
}
