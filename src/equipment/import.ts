/**
 * The equipment job: every equipment type into three linked tabs (types, metafields, inspection
 * schedules), each schedule's next inspection, and the Upcoming inspections and Inspection
 * forecast tabs.
 *
 * Order matters for "nothing half-written": the service is read and validated, text too long for a
 * cell is cut to fit, and the room is checked before any tab changes; nothing after that can fail
 * on what the service sent. The tabs are then made to exist (the links need their sheet ids) and
 * each is written in place with one batched write, so the number of Spreadsheet service calls does
 * not depend on the number of types. The metafields tab goes first: nothing on it depends on what
 * the user typed. What the user owns on the schedules tab ("Last inspected") is read only then,
 * just before that tab is written, so that a date typed while the service answered or while the
 * first tab was written is kept.
 */
import { fetchEquipmentTypes } from '../api/equipment';
import type { EquipmentType, RejectedRecord } from '../api/schemas';
import {
  type EquipmentSheetIds,
  EQUIPMENT_TYPE_COLUMNS,
  EQUIPMENT_TYPES_SHEET,
  equipmentTables,
  METAFIELD_COLUMN,
  METAFIELD_COLUMNS,
  metafieldsTable,
  METAFIELDS_SHEET,
  partKey,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
  SCHEDULES_SHEET,
} from './tables';
import {
  checkedHorizonDays,
  countInspections,
  type InspectionCounts,
  type ScheduleEntry,
  UPCOMING_COLUMNS,
} from './upcoming';
import { fitEquipmentText, partRecord } from './fitted-text';
import { addMissingLaterColumns, addMissingKeyColumn, checkLinkedTitles } from './key-columns';
import {
  describeDeletedTabs,
  EQUIPMENT_TABS,
  type EquipmentTab,
  ensureLinkedTabs,
  findLinkedTabs,
  forgetLinkedTabs,
  type LinkedTabs,
} from './linked-tabs';
import { fitTableText, type TextCut } from '../sheets/cell-text';
import type { CellValue } from '../sheets/table';
import { guardTable, readTableGuards, type TableGuards } from '../sheets/table-guard';
import { requireWritableTabs } from '../platform/write-permission';
import { type WriteResult, writeTable } from '../sheets/table-writer';
import { type JobContext, type JobReport } from '../platform/job-runner';
import { UserFacingError } from '../platform/user-facing-error';
import { DEFAULT_IMPORT_OPTIONS } from '../platform/settings-store';
import { formatCount } from '../lib/numbers';
import { colourStatusColumns, writeUpcomingTab } from './upcoming-tab';
import { FORECAST_FIXED_COLUMNS, FORECAST_MONTH_COUNT } from './forecast';
import { inspectionFigures, writeForecastTab } from './forecast-tab';
import { type OverviewPlan, planOverview } from '../platform/overview/overview-tab';
import { guardLastInspected } from './last-inspected-cells';
import { reportEquipmentImport } from './import-report';
import { describeLogged, type InspectionLog, openInspectionLog } from './inspection-log';
import { checkRoomForTabs } from './tab-room';

/**
 * The named range of each imported equipment tab. Upcoming inspections and the forecast are not
 * imported but computed from these, and rewritten whole by every recompute: they get neither a
 * named range nor protection (a user's edit there is replaced by the next recompute anyway).
 */
const EQUIPMENT_RANGE_NAMES = {
  types: 'SafetySync_EquipmentTypes',
  metafields: 'SafetySync_Metafields',
  schedules: 'SafetySync_Schedules',
} as const;

export const IMPORT_EQUIPMENT_ACTION = 'Import equipment types';

/** The ids in column A of a tab below its header: what the previous import wrote there. */
function idsInFirstColumn(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): Set<string> {
  if (!sheet || sheet.getLastRow() < 2) return new Set();
  const values = sheet.getRange(2, 1, sheet.getLastRow() - 1, 1).getValues();
  return new Set(values.map((row) => String(row[0])).filter((id) => id !== ''));
}

/** Every cell of a tab (header first), in one read. */
function readTab(sheet: GoogleAppsScript.Spreadsheet.Sheet): unknown[][] {
  if (sheet.getLastRow() === 0) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}

/**
 * The user's "Last inspected" cells by type and schedule id (partKey), from the schedules tab's
 * values. The columns are found by their headers, so dates entered under an older layout of the tab
 * (one without the key column, say) are still found, each beside its own type's schedule.
 */
function lastInspectedByKey(values: readonly (readonly unknown[])[]): Map<string, unknown> {
  const byKey = new Map<string, unknown>();
  const header = values[0] ?? [];
  const [typeColumn, idColumn, dateColumn] = [
    SCHEDULE_COLUMN.typeId,
    SCHEDULE_COLUMN.id,
    SCHEDULE_COLUMN.lastInspected,
  ].map((column) => header.indexOf(SCHEDULE_COLUMNS[column]!.header));
  if (typeColumn! < 0 || idColumn! < 0 || dateColumn! < 0) return byKey;
  for (const row of values.slice(1)) {
    const id = String(row[idColumn!]);
    const cell: unknown = row[dateColumn!];
    if (id !== '' && cell !== '' && cell !== null) byKey.set(partKey(String(row[typeColumn!]), id), cell);
  }
  return byKey;
}

/** How a cut on the metafields or schedules tab names its row: the type and the part's id. */
function partRecordOf(idColumn: number, header: string): (row: readonly CellValue[]) => string {
  return (row) => partRecord(String(row[0]), header, String(row[idColumn]));
}

/** Refresh all's equipment job: a deleted tab is reported, not made again (see importEquipment). */
export function refreshEquipment(context: JobContext): JobReport {
  return importEquipment(context, { remakeDeletedTabs: false });
}

export function importEquipment(
  context: JobContext,
  { remakeDeletedTabs } = { remakeDeletedTabs: true },
): JobReport {
  const { spreadsheet, utcOffsetAt } = context;
  const horizonDays = checkedHorizonDays(context.options.horizonDays, DEFAULT_IMPORT_OPTIONS.horizonDays);
  const linked = findLinkedTabs(spreadsheet, context.state);
  const log = openInspectionLog(spreadsheet, context.state, utcOffsetAt);
  // The linked tabs change together or not at all, and the log with them.
  requireWritableTabs(spreadsheet, [...EQUIPMENT_TABS.map((tab) => linked.sheets[tab]), log.sheet]);
  if (linked.deleted.length && !remakeDeletedTabs) refuseRefreshAfterTabsDeleted(spreadsheet, linked);
  checkLinkedTitles(linked.sheets);
  const read = readEquipmentTypes(context, linked, log);

  const typeIdsBefore = idsInFirstColumn(linked.sheets.types);
  const overview = planOverview(spreadsheet, context.state, 'inspections', {
    upkeep: true,
    refreshedAtMs: Date.now(),
    utcOffsetAt,
  });
  const sheets = ensureLinkedTabs(spreadsheet, context.state, linked, EQUIPMENT_TABS);
  const imported = writeImportedTabs(context, sheets, read.types);
  const computed = writeComputedTabs(context, sheets, imported, horizonDays, overview);
  const logged = log.append(imported.scheduleEntries, {
    atMs: context.run.startedAtMs,
    by: context.run.user,
    runName: context.run.action,
    utcOffsetAt,
  });

  return reportEquipmentImport({
    ...read,
    typeIdsBefore,
    scheduleEntries: imported.scheduleEntries,
    lastInspected: imported.lastInspected,
    cuts: [...read.cuts, ...imported.cuts],
    counts: computed.counts,
    horizonDays,
    deleted: linked.deleted,
    // Said once: every large write of the run took the same way.
    slowerWrite: imported.slowerWrite ?? computed.slowerWrite,
    metafieldsWithNotes: imported.metafieldsWithNotes,
    userRowsDropped: imported.userRowsDropped,
    logged: describeLogged(logged, log),
  });
}

/**
 * Upcoming inspections and the forecast, computed from the schedules just written, their status
 * colours, and the Overview's Inspections section.
 */
function writeComputedTabs(
  context: JobContext,
  sheets: Record<EquipmentTab, GoogleAppsScript.Spreadsheet.Sheet>,
  imported: ImportedTabsWritten,
  horizonDays: number,
  overview: OverviewPlan,
): { counts: InspectionCounts; slowerWrite: string | null } {
  const { scheduleEntries, sheetIds } = imported;
  const upcomingSlower = writeUpcomingTab(
    sheets.upcoming,
    scheduleEntries,
    { sheetId: sheetIds.schedules, column: imported.lastInspectedColumn },
    horizonDays,
  );
  const forecast = writeForecastTab(sheets.forecast, scheduleEntries, sheetIds.schedules, context.today);
  colourStatusColumns(sheets);
  const counts = countInspections(scheduleEntries, horizonDays);
  overview.prepare();
  overview.readIds();
  overview.write(inspectionFigures(counts, scheduleEntries, forecast.totals, sheetIds.upcoming));
  return { counts, slowerWrite: upcomingSlower ?? forecast.slowerWrite };
}

/**
 * A refresh does not make deleted equipment tabs again: the tabs link to each other's rows, so
 * refreshing the others alone would leave them pointing nowhere. Every tab deleted: the import is
 * gone from this spreadsheet, and refreshes stop asking for it.
 */
function refuseRefreshAfterTabsDeleted(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  linked: LinkedTabs,
): never {
  if (EQUIPMENT_TABS.every((tab) => linked.sheets[tab] === null)) {
    forgetLinkedTabs(spreadsheet);
    throw new UserFacingError(
      `${describeDeletedTabs(linked.deleted)}: refreshes no longer import equipment types. ` +
        'Use Safety Sync → Import equipment types to bring them back.',
    );
  }
  throw new UserFacingError(
    `${describeDeletedTabs(linked.deleted)}, so equipment types were not refreshed. ` +
      'Use Safety Sync → Import equipment types to make the equipment tabs again.',
  );
}

interface EquipmentRead {
  /** Each type's text cut to fit its cells. */
  types: EquipmentType[];
  rejected: RejectedRecord[];
  /** What fitting the service's text into cells cut. */
  cuts: TextCut[];
  metafieldCount: number;
  scheduleCount: number;
}

/** The service's equipment types, validated and fitted, once the tabs are known to have room for them. */
function readEquipmentTypes(context: JobContext, linked: LinkedTabs, log: InspectionLog): EquipmentRead {
  context.progress('Reading equipment types');
  const fetched = fetchEquipmentTypes(context.client);
  const { types, cuts } = fitEquipmentText(fetched.types);
  const metafieldCount = types.reduce((sum, type) => sum + type.metafields.length, 0);
  const scheduleCount = types.reduce((sum, type) => sum + type.schedules.length, 0);
  checkRoomForTabs(
    context.spreadsheet,
    linked,
    {
      types: { rows: types.length, columns: EQUIPMENT_TYPE_COLUMNS.length },
      metafields: { rows: metafieldCount, columns: METAFIELD_COLUMNS.length },
      schedules: { rows: scheduleCount, columns: SCHEDULE_COLUMNS.length },
      upcoming: { rows: scheduleCount, columns: UPCOMING_COLUMNS.length },
      forecast: { rows: scheduleCount + 1, columns: FORECAST_FIXED_COLUMNS.length + FORECAST_MONTH_COUNT },
    },
    { tab: log, rows: scheduleCount },
  );
  return { types, rejected: fetched.rejected, cuts, metafieldCount, scheduleCount };
}

/** What writing the three imported tabs left for the computed tabs and the report. */
interface ImportedTabsWritten {
  sheetIds: EquipmentSheetIds & { upcoming: number };
  scheduleEntries: ScheduleEntry[];
  /** The "Last inspected" cells the schedules tab held before it was written, by partKey. */
  lastInspected: Map<string, unknown>;
  /** Where the "Last inspected" column now is on the schedules tab (1-based). */
  lastInspectedColumn: number;
  /** What fitting the tables into cells cut: metafields, schedules, types. */
  cuts: TextCut[];
  metafieldsWithNotes: number;
  userRowsDropped: number;
  /** The note of the first of these writes that took the slower way, or null. */
  slowerWrite: string | null;
}

/** The metafields, schedules and types tabs written in place, then their guards put back. */
function writeImportedTabs(
  context: JobContext,
  sheets: Record<EquipmentTab, GoogleAppsScript.Spreadsheet.Sheet>,
  types: readonly EquipmentType[],
): ImportedTabsWritten {
  const { spreadsheet, today, utcOffsetAt } = context;
  const sheetIds = {
    types: sheets.types.getSheetId(),
    metafields: sheets.metafields.getSheetId(),
    schedules: sheets.schedules.getSheetId(),
    // For the Overview's links, written last: read with the others, as a read after a write commits.
    upcoming: sheets.upcoming.getSheetId(),
  };
  // Read before the first write: a read after one costs a commit.
  const guards = readTableGuards(spreadsheet, [sheets.types, sheets.metafields, sheets.schedules]);
  const scheduleRules = sheets.schedules.getConditionalFormatRules();
  context.progress(`Writing ${formatCount(types.length)} equipment types`);
  const metafields = metafieldsTable(types, sheetIds);
  const fittedMetafields = fitTableText(
    METAFIELDS_SHEET,
    metafields.table,
    partRecordOf(METAFIELD_COLUMN.id, 'Metafield ID'),
  );
  addMissingKeyColumn(sheets.metafields, METAFIELD_COLUMNS);
  const metafieldsWritten = writeTable(sheets.metafields, fittedMetafields.table);

  const scheduleValues = readTab(sheets.schedules);
  const lastInspected = lastInspectedByKey(scheduleValues);
  addMissingKeyColumn(sheets.schedules, SCHEDULE_COLUMNS, scheduleValues[0] ?? []);
  addMissingLaterColumns(sheets.schedules, SCHEDULE_COLUMNS, scheduleValues[0] ?? []);
  const tables = equipmentTables({ types, sheetIds, lastInspectedByKey: lastInspected, today, utcOffsetAt });
  const fittedSchedules = fitTableText(
    SCHEDULES_SHEET,
    tables.schedules,
    partRecordOf(SCHEDULE_COLUMN.id, 'Schedule ID'),
  );
  const fittedTypes = fitTableText(EQUIPMENT_TYPES_SHEET, tables.types);
  const schedulesWritten = writeTable(sheets.schedules, fittedSchedules.table);
  const typesWritten = writeTable(sheets.types, fittedTypes.table);
  guardImportedTabs(spreadsheet, sheets, sheetIds, guards, scheduleRules, {
    types: typesWritten,
    metafields: metafieldsWritten,
    schedules: schedulesWritten,
  });
  const written = [metafieldsWritten, schedulesWritten, typesWritten];
  return {
    sheetIds,
    scheduleEntries: tables.scheduleEntries,
    lastInspected,
    lastInspectedColumn: schedulesWritten.placement.layout.tableColumns[SCHEDULE_COLUMN.lastInspected]!,
    cuts: [...fittedMetafields.cuts, ...fittedSchedules.cuts, ...fittedTypes.cuts],
    metafieldsWithNotes: metafields.withNotes,
    userRowsDropped: written.reduce((sum, result) => sum + result.userRowsDropped, 0),
    slowerWrite: written.find((result) => result.slowerWrite)?.slowerWrite ?? null,
  };
}

/** Each imported tab's named range and protection where the table now stands, and its dates' rules. */
function guardImportedTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  sheets: Record<EquipmentTab, GoogleAppsScript.Spreadsheet.Sheet>,
  sheetIds: EquipmentSheetIds,
  guards: TableGuards,
  scheduleRules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[],
  written: Record<keyof EquipmentSheetIds, WriteResult>,
): void {
  guardTable(spreadsheet, sheets.types, sheetIds.types, guards, written.types.placement, {
    rangeName: EQUIPMENT_RANGE_NAMES.types,
  });
  guardTable(spreadsheet, sheets.metafields, sheetIds.metafields, guards, written.metafields.placement, {
    rangeName: EQUIPMENT_RANGE_NAMES.metafields,
  });
  guardTable(spreadsheet, sheets.schedules, sheetIds.schedules, guards, written.schedules.placement, {
    rangeName: EQUIPMENT_RANGE_NAMES.schedules,
    userFilledColumns: [SCHEDULE_COLUMN.lastInspected],
  });
  guardLastInspected(
    sheets.schedules,
    written.schedules.placement.layout.tableColumns[SCHEDULE_COLUMN.lastInspected]!,
    written.schedules.placement.maxRows,
    scheduleRules,
  );
}
