/**
 * Safety Sync → Settings…, and the guard every menu item that reads the service starts with: a user
 * who has not set the connection yet is told what is missing and lands in Settings, where they set it.
 */
import { requireUi } from './interactive';
import { missingConnectionParts, readConnection } from './settings-store';

export function showSettingsDialog(): void {
  const ui = requireUi('Settings');
  const html = HtmlService.createHtmlOutputFromFile('settings').setWidth(560).setHeight(1180);
  ui.showModalDialog(html, 'Safety Sync settings');
}

/** Not configured: say what is missing and open Settings instead; nothing is fetched. */
export function openSettingsIfNotConfigured(ui: GoogleAppsScript.Base.Ui): boolean {
  const missing = missingConnectionParts(readConnection());
  if (!missing) return true;
  ui.alert('Safety Sync', missing, ui.ButtonSet.OK);
  showSettingsDialog();
  return false;
}
