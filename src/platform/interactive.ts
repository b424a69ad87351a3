/**
 * Guards and helpers for entry points that a person starts (a menu item, a dialog button). Every
 * top-level function can also be typed into a cell by any editor, where it runs anonymously: the
 * ones that change something refuse to run there.
 */
import { NotConfiguredError } from './user-facing-error';

/** The spreadsheet UI, or an error when called from a cell (or a trigger), where there is none. */
export function requireUi(action: string): GoogleAppsScript.Base.Ui {
  try {
    return SpreadsheetApp.getUi();
  } catch {
    throw new Error(`${action} can only be used from the Safety Sync menu, not from a cell.`);
  }
}

export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) throw new Error('Safety Sync needs an open spreadsheet.');
  return spreadsheet;
}

/** What the user sees when a run fails: the error's own sentence (it says what to do). */
export function showFailure(ui: GoogleAppsScript.Base.Ui, action: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const hint =
    error instanceof NotConfiguredError
      ? ''
      : '\n\nThe tabs keep their previous content; see the Sync log tab.';
  ui.alert(`Safety Sync: ${action} failed`, `${message}${hint}`, ui.ButtonSet.OK);
}
