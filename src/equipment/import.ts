/**
 * The equipment job: every equipment type into three linked tabs (types, metafields, inspection
 * schedules), each schedule's next inspection, and the Upcoming inspections tab.
 *
 * Order matters for "nothing half-written": the service is read and validated, the previous "Last
 * inspected" dates read, and the room checked before any tab changes. The tabs are then made to
 * exist (the links need their sheet ids) and each is written in place with one batched write, so
 * the number of Spreadsheet service calls does not depend on the number of types.
 */
import { fetchEquipmentTypes } from '../api/equipment';
import {
  EQUIPMENT_TYPE_COLUMNS,
  EQUIPMENT_TYPES_SHEET,
  equipmentTables,
  METAFIELD_COLUMNS,
  METAFIELDS_SHEET,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
  SCHEDULES_SHEET,
} from './tables';
import {
  checkedHorizonDays,
  countInspections,
  describeInspectionCounts,
  UPCOMING_COLUMNS,
  UPCOMING_SHEET,
} from './upcoming';
import { InspectionStatus } from './inspections';
import { checkRoomForRows } from '../sheets/cell-limit';
import { getOrCreateSheet, writeTable } from '../sheets/table-writer';
import type { JobContext, JobReport } from '../platform/job-runner';
import { DEFAULT_IMPORT_OPTIONS } from '../platform/settings-store';
import {
  describeRejected,
  LISTED_PROBLEMS,
  listProblems,
  summarizeRejected,
} from '../platform/problem-lists';
import { formatCount } from '../lib/numbers';
import { colourStatusColumns, writeUpcomingTab } from './upcoming-tab';

export const IMPORT_EQUIPMENT_ACTION = 'Import equipment types';

/** The ids in column A of a tab below its header: what the previous import wrote there. */
function idsInFirstColumn(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): Set<string> {
  if (!sheet || sheet.getLastRow() < 2) return new Set();
  const values = sheet.getRange(2, 1, sheet.getLastRow() - 1, 1).getValues();
  return new Set(values.map((row) => String(row[0])).filter((id) => id !== ''));
}

/**
 * The user's "Last inspected" cells by schedule id, in one read. The columns are found by their
 * headers, so dates entered under an older layout of the tab are still found.
 */
function readLastInspected(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): Map<string, unknown> {
  const byId = new Map<string, unknown>();
  if (!sheet || sheet.getLastRow() < 2) return byId;
  const values = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
  const header = values[0]!;
  const idColumn = header.indexOf(SCHEDULE_COLUMNS[SCHEDULE_COLUMN.id]!.header);
  const dateColumn = header.indexOf(SCHEDULE_COLUMNS[SCHEDULE_COLUMN.lastInspected]!.header);
  if (idColumn < 0 || dateColumn < 0) return byId;
  for (const row of values.slice(1)) {
    const id = String(row[idColumn]);
    const cell: unknown = row[dateColumn];
    if (id !== '' && cell !== '' && cell !== null) byId.set(id, cell);
  }
  return byId;
}

export function importEquipment(context: JobContext): JobReport {
  const { spreadsheet, today, utcOffsetAt } = context;
  const horizonDays = checkedHorizonDays(context.options.horizonDays, DEFAULT_IMPORT_OPTIONS.horizonDays);
  context.progress('Reading equipment types');
  const { types, rejected } = fetchEquipmentTypes(context.client);

  const metafieldCount = types.reduce((sum, type) => sum + type.metafields.length, 0);
  const scheduleCount = types.reduce((sum, type) => sum + type.schedules.length, 0);
  checkRoomForRows(spreadsheet, EQUIPMENT_TYPES_SHEET, types.length, EQUIPMENT_TYPE_COLUMNS.length);
  checkRoomForRows(spreadsheet, METAFIELDS_SHEET, metafieldCount, METAFIELD_COLUMNS.length);
  checkRoomForRows(spreadsheet, SCHEDULES_SHEET, scheduleCount, SCHEDULE_COLUMNS.length);
  checkRoomForRows(spreadsheet, UPCOMING_SHEET, scheduleCount, UPCOMING_COLUMNS.length);

  const typeIdsBefore = idsInFirstColumn(spreadsheet.getSheetByName(EQUIPMENT_TYPES_SHEET));
  const lastInspectedById = readLastInspected(spreadsheet.getSheetByName(SCHEDULES_SHEET));

  const sheets = {
    types: getOrCreateSheet(spreadsheet, EQUIPMENT_TYPES_SHEET),
    metafields: getOrCreateSheet(spreadsheet, METAFIELDS_SHEET),
    schedules: getOrCreateSheet(spreadsheet, SCHEDULES_SHEET),
  };
  const sheetIds = {
    types: sheets.types.getSheetId(),
    metafields: sheets.metafields.getSheetId(),
    schedules: sheets.schedules.getSheetId(),
  };
  const tables = equipmentTables({ types, sheetIds, lastInspectedById, today, utcOffsetAt });

  context.progress(`Writing ${formatCount(types.length)} equipment types`);
  const userRowsDropped = [
    writeTable(sheets.types, tables.types),
    writeTable(sheets.metafields, tables.metafields),
    writeTable(sheets.schedules, tables.schedules),
  ].reduce((sum, written) => sum + written.userRowsDropped, 0);
  writeUpcomingTab(spreadsheet, tables.scheduleEntries, sheetIds.schedules, horizonDays);
  colourStatusColumns(spreadsheet);

  const typeIds = new Set(types.map((type) => type.id));
  const added = [...typeIds].filter((id) => !typeIdsBefore.has(id)).length;
  const removed = [...typeIdsBefore].filter((id) => !typeIds.has(id)).length;
  const scheduleIds = new Set(tables.scheduleEntries.map((entry) => entry.scheduleId));
  const datesDropped = [...lastInspectedById.keys()].filter((id) => !scheduleIds.has(id)).length;
  const counts = countInspections(tables.scheduleEntries, horizonDays);
  const unsupported = tables.scheduleEntries.filter(
    (entry) => entry.inspection.status === InspectionStatus.unsupportedSchedule,
  );

  const summary =
    `Imported ${formatCount(types.length)} equipment types (${added} new, ${removed} removed), ` +
    `${formatCount(metafieldCount)} metafields and ${formatCount(scheduleCount)} schedules` +
    `${rejected.length ? `; ${rejected.length} records skipped` : ''}. ` +
    describeInspectionCounts(counts, horizonDays);
  const notes = [
    listProblems(
      unsupported.length,
      unsupported
        .slice(0, LISTED_PROBLEMS)
        .map((entry) => `schedule ${entry.scheduleId} (${entry.inspection.reason ?? ''})`),
      'schedules imported with status "Unsupported schedule"',
    ),
    tables.metafieldsWithNotes
      ? `${tables.metafieldsWithNotes} metafields imported with a note (see their Note column).`
      : null,
    describeRejected(summarizeRejected(rejected)),
    datesDropped
      ? `${datesDropped} "Last inspected" dates belonged to schedules the service no longer lists and were removed.`
      : null,
    userRowsDropped
      ? `${userRowsDropped} rows with values in your own columns were removed with their type, metafield or schedule.`
      : null,
  ].filter((note): note is string => note !== null);
  return { added, removed, summary, details: [summary, ...notes].join(' ') };
}
