/**
 * Safety Sync → Refresh all: brings every import this spreadsheet has into date, cheaply
 * (completions incrementally: usually one request).
 */
import { openSettingsIfNotConfigured } from './completions-actions';
import { importCompletions } from './import-completions';
import { activeSpreadsheet, requireUi, showFailure } from './interactive';
import { runJob } from './runner';

export function refreshAll(): void {
  const ui = requireUi('Refresh all');
  if (!openSettingsIfNotConfigured(ui)) return;
  const spreadsheet = activeSpreadsheet();
  const executionStartMs = Date.now();
  try {
    const report = runJob({ action: 'Refresh completed trainings', spreadsheet, interactive: true }, (context) =>
      importCompletions(context, { mode: 'incremental', executionStartMs }),
    );
    spreadsheet.toast(report.summary, 'Safety Sync', 10);
  } catch (error) {
    showFailure(ui, 'Refresh all', error);
  }
}
