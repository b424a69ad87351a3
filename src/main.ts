// The add-on's Apps Script surface: every export here becomes one top-level function in dist/Code.js
// (see dev/build.ts), and every top-level function can be typed into a cell by any editor.
export { onInstall, onOpen } from './addon/menu';
export {
  continueCompletionsImport,
  getCompletionsFilter,
  reconcileCompletedTrainings,
  showImportCompletionsDialog,
  startCompletionsImport,
} from './addon/completions-actions';
export { importEquipmentTypes } from './addon/equipment-actions';
export { refreshAll } from './addon/refresh';
export { getSchedule, removeSchedule, saveSchedule, showScheduleDialog } from './addon/schedule-dialog';
export { runScheduledRefresh } from './addon/scheduled-refresh';
export { showUpcomingInspections } from './addon/upcoming-actions';
export {
  getSettings,
  removeToken,
  saveSettings,
  setFormulaAccess,
  showSettingsDialog,
  testConnection,
} from './addon/settings-dialog';
export {
  SAFETY_COMPLETIONS,
  SAFETY_EQUIPMENT_TYPES,
  SAFETY_INSPECTION_STATUS,
  SAFETY_NEXT_INSPECTION,
  SAFETY_SCHEDULES,
  SAFETY_USER,
} from './addon/custom-functions';
