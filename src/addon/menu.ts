/**
 * The "Safety Sync" menu. onOpen runs as a simple trigger, possibly in AuthMode.NONE, where the
 * document, properties and network are off limits: it only builds the menu.
 */
export const MENU_TITLE = 'Safety Sync';

export interface MenuItem {
  caption: string;
  functionName: string;
}

/** Items in menu order; null stands for a separator. Each function name is an export of src/main.ts. */
export const MENU_ITEMS: ReadonlyArray<MenuItem | null> = [
  { caption: 'Import completed trainings…', functionName: 'showImportCompletionsDialog' },
  { caption: 'Reconcile completed trainings', functionName: 'reconcileCompletedTrainings' },
  { caption: 'Import equipment types', functionName: 'importEquipmentTypes' },
  null,
  { caption: 'Refresh all', functionName: 'refreshAll' },
  { caption: 'Show upcoming inspections', functionName: 'showUpcomingInspections' },
  null,
  { caption: 'Settings…', functionName: 'showSettingsDialog' },
];

export function buildMenu(ui: GoogleAppsScript.Base.Ui): void {
  const menu = ui.createAddonMenu();
  for (const item of MENU_ITEMS) {
    if (item) menu.addItem(item.caption, item.functionName);
    else menu.addSeparator();
  }
  menu.addToUi();
}

/** @param _event The simple trigger's event; its authMode may be NONE, so nothing else is touched. */
export function onOpen(_event?: GoogleAppsScript.Events.SheetsOnOpen): void {
  buildMenu(SpreadsheetApp.getUi());
}

/** Runs when a user installs the add-on from inside an open spreadsheet: show the menu at once. */
export function onInstall(event?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(event as GoogleAppsScript.Events.SheetsOnOpen | undefined);
}
