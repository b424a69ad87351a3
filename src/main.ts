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
export { refreshAll } from './addon/refresh';
export { getSettings, removeToken, saveSettings, showSettingsDialog, testConnection } from './addon/settings-dialog';
