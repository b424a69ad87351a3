/**
 * The "Safety Sync" menu. onOpen runs as a simple trigger, possibly in AuthMode.NONE, where the
 * document, properties and network are off limits: it only builds the menu, with a "Last refreshed"
 * line at the end when the mode lets it read the document and its developer metadata.
 */
import type { ServerFunctionName } from './platform/dialog/server-functions';
import { refreshStatusCaption } from './refresh/status';

export interface MenuItem {
  caption: string;
  functionName: ServerFunctionName;
}

/** Items in menu order; null stands for a separator. */
export const MENU_ITEMS: ReadonlyArray<MenuItem | null> = [
  { caption: 'Import completed trainings…', functionName: 'showImportCompletionsDialog' },
  { caption: 'Reconcile completed trainings', functionName: 'reconcileCompletedTrainings' },
  { caption: 'Import equipment types', functionName: 'importEquipmentTypes' },
  null,
  { caption: 'Refresh all', functionName: 'refreshAll' },
  { caption: 'Show upcoming inspections', functionName: 'showUpcomingInspections' },
  { caption: 'Show training status', functionName: 'showTrainingStatus' },
  null,
  { caption: 'Schedule refresh…', functionName: 'showScheduleDialog' },
  { caption: 'Settings…', functionName: 'showSettingsDialog' },
];

/** The status line's item opens the schedule, where the details are. */
const STATUS_FUNCTION: ServerFunctionName = 'showScheduleDialog';

/** @param status "Last refreshed …" (or a warning) as a last item, when known. */
export function buildMenu(ui: GoogleAppsScript.Base.Ui, status: string | null = null): void {
  const menu = ui.createAddonMenu();
  for (const item of MENU_ITEMS) {
    if (item) menu.addItem(item.caption, item.functionName);
    else menu.addSeparator();
  }
  if (status) menu.addSeparator().addItem(status, STATUS_FUNCTION);
  menu.addToUi();
}

/**
 * Google refuses a call the authorisation mode does not allow with "You do not have permission to
 * call …": in AuthMode.LIMITED it may refuse developer metadata, where the status is kept (whether
 * it does is not documented).
 */
const REFUSED_IN_THIS_MODE = /^You do not have permission to call /;

/**
 * The status line needs the document, which AuthMode.NONE (or no event at all) forbids, and its
 * developer metadata, which LIMITED may refuse: then the menu is built without it. Any other failure
 * is a fault to see, not a mode to live with.
 */
function menuStatus(event: GoogleAppsScript.Events.SheetsOnOpen | undefined): string | null {
  if (!event || event.authMode === ScriptApp.AuthMode.NONE) return null;
  try {
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    return spreadsheet ? refreshStatusCaption(spreadsheet) : null;
  } catch (error) {
    if (REFUSED_IN_THIS_MODE.test(error instanceof Error ? error.message : String(error))) return null;
    throw error;
  }
}

/** @param event The simple trigger's event; its authMode may be NONE, where only the menu is built. */
export function onOpen(event?: GoogleAppsScript.Events.SheetsOnOpen): void {
  buildMenu(SpreadsheetApp.getUi(), menuStatus(event));
}

/** Runs when a user installs the add-on from inside an open spreadsheet: show the menu at once. */
export function onInstall(event?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(event as GoogleAppsScript.Events.SheetsOnOpen | undefined);
}
