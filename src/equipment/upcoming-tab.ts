/**
 * What an import and "Show upcoming inspections" both write once inspections are computed: the
 * "Upcoming inspections" tab, and the colours of the Status columns (Expired red, Expiring amber)
 * on it, on the schedules tab and on the types tab.
 */
import { type LastInspectedCells, type ScheduleEntry, UPCOMING_COLUMNS, upcomingTable } from './upcoming';
import { addMissingKeyColumn, addMissingLaterColumns, readHeader } from './key-columns';
import type { EquipmentTab } from './linked-tabs';
import { applyStatusColours } from '../sheets/conditional-formats';
import { STATUS_COLOURS } from '../sheets/status-words';
import { writeTable } from '../sheets/table-writer';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The tabs with a Status column, found by its title wherever the user moved it. */
const STATUS_TABS: readonly EquipmentTab[] = ['types', 'schedules', 'upcoming'];
const STATUS_TITLE = 'Status';

/** Writes the Upcoming inspections tab (in place, like every table); see WriteResult.slowerWrite. */
export function writeUpcomingTab(
  sheet: Sheet,
  entries: readonly ScheduleEntry[],
  lastInspectedCells: LastInspectedCells,
  horizonDays: number,
): string | null {
  const header = readHeader(sheet);
  addMissingKeyColumn(sheet, UPCOMING_COLUMNS, header);
  addMissingLaterColumns(sheet, UPCOMING_COLUMNS, header);
  return writeTable(sheet, upcomingTable(entries, lastInspectedCells, horizonDays)).slowerWrite;
}

/** Adds (or renews) the status colours on every inspection tab there is, keeping the user's rules. */
export function colourStatusColumns(sheets: Partial<Record<EquipmentTab, Sheet | null>>): void {
  for (const tab of STATUS_TABS) {
    const sheet = sheets[tab];
    const column = sheet ? readHeader(sheet).indexOf(STATUS_TITLE) + 1 : 0;
    if (sheet && column > 0) applyStatusColours(sheet, column, STATUS_COLOURS);
  }
}
