/**
 * What an import and "Show upcoming inspections" both write once inspections are computed: the
 * "Upcoming inspections" tab, and the colours of the Status columns (Expired red, Expiring amber)
 * on it, on the schedules tab and on the types tab.
 */
import { EQUIPMENT_TYPE_COLUMN, EQUIPMENT_TYPES_SHEET, SCHEDULE_COLUMN, SCHEDULES_SHEET } from './tables';
import { InspectionStatus } from './inspections';
import { type ScheduleEntry, UPCOMING_COLUMN, UPCOMING_SHEET, upcomingTable } from './upcoming';
import { applyStatusColours, type StatusColour } from '../sheets/conditional-formats';
import { getOrCreateSheet, writeTable } from '../sheets/table-writer';

/** Expired red, Expiring amber: the training tabs use them for the same words. */
export const STATUS_COLOURS: readonly StatusColour[] = [
  { text: InspectionStatus.expired, background: '#f4cccc', fontColor: '#990000' },
  { text: InspectionStatus.expiring, background: '#fce8b2', fontColor: '#7f6000' },
];

/** Status columns (1-based) by tab. */
const STATUS_COLUMNS: ReadonlyArray<[sheetName: string, column: number]> = [
  [EQUIPMENT_TYPES_SHEET, EQUIPMENT_TYPE_COLUMN.status + 1],
  [SCHEDULES_SHEET, SCHEDULE_COLUMN.status + 1],
  [UPCOMING_SHEET, UPCOMING_COLUMN.status + 1],
];

/** Writes the Upcoming inspections tab (in place, like every table) and returns it. */
export function writeUpcomingTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  entries: readonly ScheduleEntry[],
  schedulesSheetId: number,
  horizonDays: number,
): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = getOrCreateSheet(spreadsheet, UPCOMING_SHEET);
  writeTable(sheet, upcomingTable(entries, schedulesSheetId, horizonDays));
  return sheet;
}

/** Adds (or renews) the status colours on every inspection tab there is, keeping the user's rules. */
export function colourStatusColumns(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  for (const [sheetName, column] of STATUS_COLUMNS) {
    const sheet = spreadsheet.getSheetByName(sheetName);
    if (sheet) applyStatusColours(sheet, column, STATUS_COLOURS);
  }
}
