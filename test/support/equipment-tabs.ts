/**
 * Reading and typing into the equipment tabs of a harness's spreadsheet as a user sees them: the
 * tab names, the data rows as displayed, the Sync log, and "Last inspected" dates typed by hand.
 */
import type { SheetView, WorkbookView } from '../../dev/emulator/spreadsheet/workbook-store';
import type { AddonHarness } from './addon-harness';

export const TYPES_TAB = 'Equipment types';
export const METAFIELDS_TAB = 'Equipment metafields';
export const SCHEDULES_TAB = 'Inspection schedules';
export const UPCOMING_TAB = 'Upcoming inspections';
export const IMPORT = 'Import equipment types';
export const SHOW_UPCOMING = 'Show upcoming inspections';
/** The "Last inspected" column of the schedules tab, where the tests type dates as a user would. */
export const LAST_INSPECTED = 'G';

export function workbook(harness: AddonHarness): WorkbookView {
  const found = harness.emulator.workbooks.get(harness.spreadsheetId);
  if (!found) throw new Error('the test spreadsheet is gone');
  return found;
}

export function tab(harness: AddonHarness, name: string): SheetView {
  return workbook(harness).sheet(name);
}

/** The data rows of a tab as displayed, columns `from`..`to` (letters). */
export function rows(sheet: SheetView, from: string, to: string): string[][] {
  return sheet.lastRow < 2 ? [] : sheet.displayValues(`${from}2:${to}${sheet.lastRow}`);
}

/** The row of the schedules tab that holds a schedule of a type (column A: type id, C: schedule id). */
export function scheduleRow(harness: AddonHarness, scheduleId: string, typeId?: string): number {
  const found = rows(tab(harness, SCHEDULES_TAB), 'A', 'C').findIndex(
    ([type, , id]) => id === scheduleId && (typeId === undefined || type === typeId),
  );
  if (found < 0) throw new Error(`schedule ${scheduleId} is not on the schedules tab`);
  return found + 2;
}

/** Types "Last inspected" values by schedule id, as a user would. */
export function typeLastInspected(harness: AddonHarness, values: Record<string, string>): void {
  for (const [scheduleId, value] of Object.entries(values)) {
    const cell = `'${SCHEDULES_TAB}'!${LAST_INSPECTED}${scheduleRow(harness, scheduleId)}`;
    workbook(harness).typeValues(cell, [[value]]);
  }
}

/**
 * Puts text in "Last inspected" as a tab made before Sheets validated the column holds it (an
 * older version's): the cell's validation is taken off, the text typed. A user can no longer type it.
 */
export function keepTextFromBeforeValidation(harness: AddonHarness, values: Record<string, string>): void {
  for (const [scheduleId, value] of Object.entries(values)) {
    const cell = `${LAST_INSPECTED}${scheduleRow(harness, scheduleId)}`;
    tab(harness, SCHEDULES_TAB).setDataValidation(cell, null);
    workbook(harness).typeValues(`'${SCHEDULES_TAB}'!${cell}`, [[value]]);
  }
}

/** A "Days left" cell as displayed: "3 days overdue", "today", "10 days left"; empty without a due date. */
export function daysLeftShown(daysLeft: number | null): string {
  if (daysLeft === null) return '';
  if (daysLeft === 0) return 'today';
  return daysLeft < 0 ? `${-daysLeft} days overdue` : `${daysLeft} days left`;
}

/** The Sync log's lines, newest first, from Action (C) to Details (K). */
export function syncLog(harness: AddonHarness): string[][] {
  return rows(tab(harness, 'Sync log'), 'C', 'K');
}
