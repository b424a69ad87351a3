// The add-on's Apps Script surface: every export here becomes one top-level function in dist/Code.js
// (see dev/build.ts), and every top-level function can be typed into a cell by any editor.
export { onInstall, onOpen } from './menu';
export {
  continueCompletionsImport,
  getCompletionsFilter,
  reconcileCompletedTrainings,
  showImportCompletionsDialog,
} from './trainings/completions/actions';
export { startCompletionsImport } from './settings/import-filter';
export { importEquipmentTypes } from './equipment/actions';
export { refreshAll } from './refresh/refresh-all';
export { getSchedule, removeSchedule, saveSchedule, showScheduleDialog } from './refresh/schedule-dialog';
export { runScheduledRefresh } from './refresh/scheduled-refresh';
export { showUpcomingInspections } from './equipment/upcoming-actions';
export { showTrainingStatus } from './trainings/actions';
export {
  confirmManagers,
  confirmSettings,
  discardSettings,
  getSettings,
  removeToken,
  saveSettings,
  setFormulaAccess,
  testConnection,
} from './settings/settings-dialog';
export { showSettingsDialog } from './platform/settings-opener';
export {
  SAFETY_COMPLETIONS,
  SAFETY_EQUIPMENT_TYPES,
  SAFETY_INSPECTION_STATUS,
  SAFETY_NEXT_INSPECTION,
  SAFETY_SCHEDULES,
  SAFETY_TRAINING_EXPIRY,
  SAFETY_TRAINING_STATUS,
  SAFETY_USER,
} from './formulas/custom-functions';
export { SAFETY_COMPLIANCE, SAFETY_PEOPLE } from './formulas/people-functions';
