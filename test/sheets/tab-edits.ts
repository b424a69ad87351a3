/**
 * What a user does to the tabs in the Sheets UI (Delete, Rename, a new tab of their own), through
 * the emulator's real Spreadsheet.deleteSheet, Sheet.setName and insertSheet called from a user
 * script (harness option `userScript: TAB_EDITS_SCRIPT`), and the `#gid=` links between tabs.
 */
import type { AddonHarness } from '../support/addon-harness';
import { workbook } from '../support/equipment-tabs';

/** What a user does from a tab's menu (Delete, Rename), as a script does it. */
export const TAB_EDITS_SCRIPT = `
function deleteTab_(name) {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  spreadsheet.deleteSheet(spreadsheet.getSheetByName(name));
}
function renameTab_(from, to) {
  SpreadsheetApp.getActiveSpreadsheet().getSheetByName(from).setName(to);
}
function insertTab_(name) {
  SpreadsheetApp.getActiveSpreadsheet().insertSheet(name).getRange(1, 1, 1, 1).setValues([['mine']]);
}`;

export function deleteTab(harness: AddonHarness, name: string): void {
  harness.emulator.run('deleteTab_', [name], { spreadsheetId: harness.spreadsheetId });
}

export function renameTab(harness: AddonHarness, from: string, to: string): void {
  harness.emulator.run('renameTab_', [from, to], { spreadsheetId: harness.spreadsheetId });
}

/** A tab of the user's own, with "mine" in A1. */
export function insertTab(harness: AddonHarness, name: string): void {
  harness.emulator.run('insertTab_', [name], { spreadsheetId: harness.spreadsheetId });
}

/** Every `#gid=` link in the workbook, with the tab it is on: [tab, target gid]. */
export function gidLinks(harness: AddonHarness): [string, number][] {
  return workbook(harness)
    .sheets()
    .flatMap((sheet) =>
      sheet.lastRow === 0
        ? []
        : sheet
            .cells()
            .flat()
            .flatMap((cell) => {
              const gid = /^#gid=(\d+)/.exec(cell.link ?? '')?.[1];
              return gid === undefined ? [] : [[sheet.name, Number(gid)] as [string, number]];
            }),
    );
}

/** Whether every `#gid=` link leads to a tab of the workbook. */
export function brokenLinks(harness: AddonHarness): [string, number][] {
  const gids = new Set(
    workbook(harness)
      .sheets()
      .map((sheet) => sheet.gid),
  );
  return gidLinks(harness).filter(([, gid]) => !gids.has(gid));
}
