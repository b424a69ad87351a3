/**
 * The main job: every completed-training record in the "Completed trainings" tab, by a full import
 * (full-import.ts) or an incremental refresh (incremental-refresh.ts) of what the last full import
 * of the same filter left.
 */
import type { CompletionsFilter } from '../../api/completions-contract';
import { findAddonTab, keepAddonTabIds } from '../../platform/addon-tabs';
import type { JobContext, JobReport } from '../../platform/job-runner';
import { requireWritableTabs } from '../../platform/write-permission';
import { readTabLayout } from '../../sheets/added-columns';
import { withTrainingStatus } from '../actions';
import { COMPLETIONS_ADDON_TAB } from '../completions-tab';
import { fullImport, resumeRun } from './full-import';
import { incrementalRefresh } from './incremental-refresh';
import { abandonRun, filterSignature, lastFullImportMs, runInProgress } from './run-state';
import { COMPLETION_COLUMNS } from './table';

export type CompletionsMode = 'full' | 'incremental';

export interface CompletionsJobOptions {
  mode: CompletionsMode;
}

export function describeFilter(filter: CompletionsFilter): string {
  const parts = [
    filter.user_id && `user ${filter.user_id}`,
    filter.training_id && `training ${filter.training_id}`,
  ];
  const named = parts.filter(Boolean).join(' and ');
  return named ? `completions of ${named}` : 'all completions';
}

export function importCompletions(context: JobContext, job: CompletionsJobOptions): JobReport {
  const filter = context.options.completionsFilter;
  const signature = filterSignature(filter);
  const run = runInProgress(context.state);
  const found = findAddonTab(context.spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
  const { sheet } = found;
  // Before anything is written (abandoning a run clears its staging tab).
  requireWritableTabs(context.spreadsheet, [sheet]);
  // A full import writes the training tabs with its own (see replacement.ts).
  if (run && run.filterSignature === signature) return resumeRun(context, run);
  if (run) abandonRun(context);
  // A tab whose titles moved away is refused before any request; the write checks it again.
  if (sheet) readTabLayout(sheet, COMPLETION_COLUMNS);
  const canRefresh =
    job.mode === 'incremental' &&
    lastFullImportMs(context.state, filter) !== null &&
    sheet &&
    sheet.getLastRow() > 1;
  if (!canRefresh) return fullImport(context, null);
  const refreshed = incrementalRefresh(context, sheet);
  keepAddonTabIds(context.state, [[COMPLETIONS_ADDON_TAB, found.sheetId]]);
  return withTrainingStatus(context, refreshed);
}
