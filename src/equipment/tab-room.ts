/**
 * Whether the equipment tabs, and the Inspection log beside them, fit the spreadsheet as one run
 * grows them: checked before anything is written.
 */
import { checkRoomForRows, readSheetGrids } from '../sheets/cell-limit';
import { INSPECTION_LOG_COLUMNS, type InspectionLog } from './inspection-log';
import { EQUIPMENT_TAB_NAMES, EQUIPMENT_TABS, type EquipmentTab, type LinkedTabs } from './linked-tabs';

/** The size of a tab Sheets makes: 1,000 rows of 26 columns. */
const NEW_TAB = { rows: 1_000, columns: 26 };

/**
 * Throws, before anything is written, when the tabs grown to their rows would take the
 * spreadsheet over its cell limit together: each one checked against the others as they are now
 * could fit alone while the last write failed for want of room.
 */
export function checkRoomForTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  linked: LinkedTabs,
  sizes: Record<EquipmentTab, { rows: number; columns: number }>,
  log: { tab: InspectionLog; rows: number },
): void {
  const plan = (
    sheet: GoogleAppsScript.Spreadsheet.Sheet | null,
    name: string,
    { rows, columns }: { rows: number; columns: number },
  ) => {
    const maxRows = sheet?.getMaxRows() ?? NEW_TAB.rows;
    const maxColumns = sheet?.getMaxColumns() ?? NEW_TAB.columns;
    const grown = Math.max(maxRows, rows + 1) * Math.max(maxColumns, columns);
    return {
      name: sheet?.getName() ?? name,
      rows,
      columns,
      growth: grown - (sheet ? maxRows * maxColumns : 0),
      // checkRoomForRows counts a tab that is not there yet as its rows only, not as a whole new tab.
      uncounted: sheet ? 0 : grown - (rows + 1) * columns,
    };
  };
  const plans = [
    ...EQUIPMENT_TABS.map((tab) => plan(linked.sheets[tab], EQUIPMENT_TAB_NAMES[tab], sizes[tab])),
    // The log may gain a row for each schedule.
    plan(log.tab.sheet, log.tab.name, {
      rows: log.tab.rows + log.rows,
      columns: INSPECTION_LOG_COLUMNS.length,
    }),
  ];
  const growth = plans.reduce((sum, plan) => sum + plan.growth, 0);
  const grids = readSheetGrids(spreadsheet);
  for (const plan of plans) {
    checkRoomForRows(grids, plan.name, plan.rows, plan.columns, growth - plan.growth + plan.uncounted);
  }
}
