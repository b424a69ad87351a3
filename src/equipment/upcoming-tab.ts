/**
 * What an import and "Show upcoming inspections" both write once inspections are computed: the
 * "Upcoming inspections" tab, and the colours of the Status columns (Expired red, Expiring amber)
 * on it, on the schedules tab and on the types tab.
 */
import { EQUIPMENT_TYPE_COLUMN, SCHEDULE_COLUMN } from './tables';
import { InspectionStatus } from './inspections';
import { type ScheduleEntry, UPCOMING_COLUMN, UPCOMING_COLUMNS, upcomingTable } from './upcoming';
import { addMissingKeyColumn } from './key-columns';
import type { EquipmentTab } from './linked-tabs';
import { applyStatusColours, type StatusColour } from '../sheets/conditional-formats';
import { writeTable } from '../sheets/table-writer';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const STATUS_COLOURS: readonly StatusColour[] = [
  { text: InspectionStatus.expired, background: '#f4cccc', fontColor: '#990000' },
  { text: InspectionStatus.expiring, background: '#fce8b2', fontColor: '#7f6000' },
];

/** Status columns (1-based) by tab. */
const STATUS_COLUMNS: ReadonlyArray<[tab: EquipmentTab, column: number]> = [
  ['types', EQUIPMENT_TYPE_COLUMN.status + 1],
  ['schedules', SCHEDULE_COLUMN.status + 1],
  ['upcoming', UPCOMING_COLUMN.status + 1],
];

/** Writes the Upcoming inspections tab (in place, like every table). */
export function writeUpcomingTab(
  sheet: Sheet,
  entries: readonly ScheduleEntry[],
  schedulesSheetId: number,
  horizonDays: number,
): void {
  addMissingKeyColumn(sheet, UPCOMING_COLUMNS);
  writeTable(sheet, upcomingTable(entries, schedulesSheetId, horizonDays));
}

/** Adds (or renews) the status colours on every inspection tab there is, keeping the user's rules. */
export function colourStatusColumns(sheets: Partial<Record<EquipmentTab, Sheet | null>>): void {
  for (const [tab, column] of STATUS_COLUMNS) {
    const sheet = sheets[tab];
    if (sheet) applyStatusColours(sheet, column, STATUS_COLOURS);
  }
}
