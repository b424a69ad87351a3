/**
 * Safety Sync → Import equipment types: the equipment job run from the menu, with its outcome in a
 * message (the counts of expired and expiring inspections are what a manager looks for first).
 */
import { openSettingsIfNotConfigured } from '../platform/settings-opener';
import { IMPORT_EQUIPMENT_ACTION, importEquipment } from './import';
import { activeSpreadsheet, requireUi, showFailure } from '../platform/interactive';
import { runJob } from '../platform/job-runner';
import { dropRevokedLend } from '../platform/formula-access';

export function importEquipmentTypes(): void {
  const ui = requireUi(IMPORT_EQUIPMENT_ACTION);
  dropRevokedLend();
  if (!openSettingsIfNotConfigured(ui)) return;
  try {
    const report = runJob(
      { action: IMPORT_EQUIPMENT_ACTION, spreadsheet: activeSpreadsheet(), interactive: true },
      importEquipment,
    );
    ui.alert('Safety Sync', report.summary, ui.ButtonSet.OK);
  } catch (error) {
    showFailure(ui, IMPORT_EQUIPMENT_ACTION, error);
  }
}
