/**
 * Safety Sync → Refresh all: brings every import this spreadsheet has into date, cheaply
 * (completions incrementally: usually one request). Equipment types are refreshed when their tab
 * exists, which also recomputes the upcoming inspections; each import is its own run with its own
 * Sync log line, and one failing does not stop the other.
 */
import { EQUIPMENT_TYPES_SHEET } from '../model/equipment-tables';
import { openSettingsIfNotConfigured } from './completions-actions';
import { importCompletions } from './import-completions';
import { importEquipment } from './import-equipment';
import { activeSpreadsheet, requireUi, showFailure } from './interactive';
import { runJob } from './runner';

export function refreshAll(): void {
  const ui = requireUi('Refresh all');
  if (!openSettingsIfNotConfigured(ui)) return;
  const spreadsheet = activeSpreadsheet();
  const executionStartMs = Date.now();
  const summaries: string[] = [];
  const failures: unknown[] = [];
  try {
    const report = runJob({ action: 'Refresh completed trainings', spreadsheet, interactive: true }, (context) =>
      importCompletions(context, { mode: 'incremental', executionStartMs }),
    );
    summaries.push(report.summary);
  } catch (error) {
    failures.push(error);
  }
  if (spreadsheet.getSheetByName(EQUIPMENT_TYPES_SHEET)) {
    try {
      const action = 'Refresh equipment types';
      summaries.push(runJob({ action, spreadsheet, interactive: true }, importEquipment).summary);
    } catch (error) {
      failures.push(error);
    }
  }
  if (summaries.length) spreadsheet.toast(summaries.join(' '), 'Safety Sync', 10);
  for (const error of failures) showFailure(ui, 'Refresh all', error);
}
