/**
 * Equipment types as three linked tabs: "Equipment types" (one row per type), "Equipment metafields"
 * and "Inspection schedules" (one row per metafield or schedule, in type order). Every link is an
 * in-sheet link to the exact row it names, so the tables are built from one order of types, once the
 * tabs' sheet ids are known, and rebuilt on every refresh (rows move when types come and go).
 *
 * Links:
 * - a type's Metafields and Schedules counts link to its first metafield and first schedule row; a
 *   count of 0 is a plain 0 (nothing to link to, so no broken link);
 * - a type's Title links to its first schedule row (inspections are what the tabs are for), else to
 *   its first metafield row, else to its own row: every title is a link, none is broken;
 * - on the metafields and schedules tabs the equipment type title links back to the type's row.
 *
 * The schedules tab carries the inspection of each schedule (Next due, Status, Status note) next to
 * the user's own "Last inspected" column, which the caller reads before a refresh and hands back
 * by type and schedule id (partKey). A hidden column keeps the trigger as the service sent it, so that "Show upcoming
 * inspections" recomputes from the sheet alone exactly what the import computed.
 */
import type { EquipmentType, Metafield, InspectionSchedule } from '../api/schemas';
import {
  type CellValue,
  type ColumnSpec,
  columnIndexes,
  formulaString,
  rowLinkFormula,
  type Table,
} from '../sheets/table';
import {
  type CalendarDate,
  createdToEpochMs,
  epochMsToSheetSerial,
  fromDateNumber,
  parseDateCell,
  toSheetSerial,
  type UtcOffsetAt,
} from '../lib/dates';
import { type InspectionResult, InspectionStatus, nextInspection, scheduleTerms } from './inspections';
import type { ScheduleEntry } from './upcoming';

export const EQUIPMENT_TYPES_SHEET = 'Equipment types';
export const METAFIELDS_SHEET = 'Equipment metafields';
export const SCHEDULES_SHEET = 'Inspection schedules';

const EQUIPMENT_TYPE_SPEC = [
  { id: 'id', header: 'Equipment type ID', kind: 'text', width: 130 },
  { id: 'title', header: 'Title', kind: 'formula', width: 220 },
  { header: 'Created', kind: 'datetime', width: 150 },
  { id: 'metafields', header: 'Metafields', kind: 'formula', width: 90 },
  { id: 'schedules', header: 'Schedules', kind: 'formula', width: 90 },
  { id: 'nextDue', header: 'Next inspection due', kind: 'date', width: 140 },
  { id: 'status', header: 'Status', kind: 'text', width: 170 },
] as const satisfies readonly ColumnSpec[];
export const EQUIPMENT_TYPE_COLUMNS: readonly ColumnSpec[] = EQUIPMENT_TYPE_SPEC;
export const EQUIPMENT_TYPE_COLUMN = columnIndexes(EQUIPMENT_TYPE_SPEC);

const METAFIELD_SPEC = [
  { id: 'typeId', header: 'Equipment type ID', kind: 'text', width: 130 },
  { id: 'typeTitle', header: 'Equipment type', kind: 'formula', width: 220 },
  { id: 'id', header: 'Metafield ID', kind: 'text', width: 110 },
  { id: 'name', header: 'Name', kind: 'text', width: 180 },
  { header: 'Type', kind: 'text', width: 80 },
  { header: 'List ID', kind: 'integer', width: 70 },
  { id: 'note', header: 'Note', kind: 'text', width: 320 },
  { id: 'key', header: 'Metafield key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const METAFIELD_COLUMNS: readonly ColumnSpec[] = METAFIELD_SPEC;
export const METAFIELD_COLUMN = columnIndexes(METAFIELD_SPEC);

/**
 * As the add-on lays out a tab it creates: what identifies the schedule, its timing in words, then
 * what a manager reads and types side by side (Next due, Last inspected, Status), then the longer
 * texts, and last the service's raw trigger fields, narrow, which the timing in words explains. A tab
 * made before keeps its own arrangement: every column is found by its title.
 */
const SCHEDULE_SPEC = [
  { id: 'typeId', header: 'Equipment type ID', kind: 'text', width: 130 },
  { id: 'typeTitle', header: 'Equipment type', kind: 'formula', width: 220 },
  { id: 'id', header: 'Schedule ID', kind: 'text', width: 110 },
  { id: 'name', header: 'Name', kind: 'text', width: 180 },
  // Not `since`: an older tab gets it from the import (key-columns.ts), and where the manager moves
  // the columns around it afterwards does not matter (added-columns.ts would refuse a moved one).
  { id: 'repeats', header: 'Repeats', kind: 'text', width: 230 },
  { id: 'nextDue', header: 'Next due', kind: 'date', width: 100 },
  { id: 'lastInspected', header: 'Last inspected', kind: 'date', width: 110 },
  { id: 'status', header: 'Status', kind: 'text', width: 170 },
  { header: 'Expiring period (days)', kind: 'integer', width: 120 },
  { id: 'statusNote', header: 'Status note', kind: 'text', width: 320 },
  { header: 'Instructions', kind: 'text', width: 260 },
  { header: 'Form ID', kind: 'integer', width: 70 },
  { header: 'Attachments required', kind: 'boolean', width: 100 },
  { header: 'Trigger type', kind: 'text', width: 70 },
  { header: 'Timing', kind: 'text', width: 70 },
  { header: 'Timing date', kind: 'date', width: 90 },
  { header: 'Frequency (days)', kind: 'integer', width: 80 },
  { id: 'trigger', header: 'Trigger as sent', kind: 'text', width: 100, hidden: true },
  { id: 'key', header: 'Schedule key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const SCHEDULE_COLUMNS: readonly ColumnSpec[] = SCHEDULE_SPEC;
export const SCHEDULE_COLUMN = columnIndexes(SCHEDULE_SPEC);
/** Next due, Status and Status note (table indexes): the columns an inspection fills. */
export const INSPECTION_COLUMN_INDEXES: readonly number[] = [
  SCHEDULE_COLUMN.nextDue,
  SCHEDULE_COLUMN.status,
  SCHEDULE_COLUMN.statusNote,
];

const METAFIELD_TYPES = ['text', 'number', 'list'];

/**
 * What identifies a metafield or a schedule across refreshes: its type and its own id, since the
 * service promises ids unique within a type only. The hidden key columns hold it, so that the
 * user's own cells follow the right row.
 */
export function partKey(typeId: string, id: string): string {
  return JSON.stringify([typeId, id]);
}

/** The sheet ids (gids) of the three tabs, for the links between them. */
export interface EquipmentSheetIds {
  types: number;
  metafields: number;
  schedules: number;
}

export interface EquipmentTablesInput {
  types: readonly EquipmentType[];
  sheetIds: EquipmentSheetIds;
  /** The "Last inspected" cells as read from the schedules tab (getValues), by partKey. */
  lastInspectedByKey: ReadonlyMap<string, unknown>;
  today: CalendarDate;
  utcOffsetAt: UtcOffsetAt;
}

export interface EquipmentTables {
  types: Table;
  schedules: Table;
  /** Every schedule with its inspection, in the schedules tab's order. */
  scheduleEntries: ScheduleEntry[];
}

/** The first data row is row 2 (row 1 is the header). */
const FIRST_DATA_ROW = 2;

/** Whatever the sheet or the service holds, the inspection and what it was computed from: never throws. */
export function inspectSchedule(
  trigger: unknown,
  lastInspectedCell: unknown,
  today: CalendarDate,
  utcOffsetAt: UtcOffsetAt,
): Pick<ScheduleEntry, 'inspection' | 'inspectionInput'> {
  const inspectionInput = { trigger, lastInspected: parseDateCell(lastInspectedCell, utcOffsetAt), today };
  return { inspection: nextInspection(inspectionInput), inspectionInput };
}

/** Next due, Status and Status note for one schedule (see INSPECTION_COLUMN_INDEXES). */
export function inspectionCells(inspection: InspectionResult): CellValue[] {
  return [
    inspection.dueDate === null ? null : toSheetSerial(inspection.dueDate),
    inspection.status,
    inspection.reason ?? '',
  ];
}

/**
 * What needs attention first, first: a type's Status is the first of its schedules' statuses in
 * this order, so one expired schedule shows on the type whatever its other schedules say.
 */
const STATUS_URGENCY: readonly InspectionStatus[] = [
  InspectionStatus.expired,
  InspectionStatus.expiring,
  InspectionStatus.lastInspectedInFuture,
  InspectionStatus.lastInspectedNotADate,
  InspectionStatus.noInspectionRecorded,
  InspectionStatus.unsupportedSchedule,
  InspectionStatus.upToDate,
];

/**
 * A type's "Next inspection due" (the earliest due date of its schedules) and "Status" (the most
 * urgent of their statuses); both empty for a type without schedules.
 */
export function typeInspectionCells(inspections: readonly InspectionResult[]): CellValue[] {
  const dueDates = inspections.flatMap((inspection) =>
    inspection.dueDate === null ? [] : [inspection.dueDate],
  );
  const statuses = new Set(inspections.map((inspection) => inspection.status));
  const status = STATUS_URGENCY.find((candidate) => statuses.has(candidate)) ?? '';
  return [dueDates.length ? toSheetSerial(Math.min(...dueDates) as CalendarDate) : null, status];
}

/** Why a metafield's row deserves a look, or '' when it has the documented shape. */
function metafieldNote(metafield: Metafield): string {
  if (!METAFIELD_TYPES.includes(metafield.type)) {
    return `Type ${JSON.stringify(metafield.type)} is not one of ${METAFIELD_TYPES.join(', ')}.`;
  }
  if (metafield.type === 'list' && metafield.list_id === undefined) {
    return 'A list metafield without list_id: which list it uses is unknown.';
  }
  if (metafield.type !== 'list' && metafield.list_id !== undefined) {
    return `list_id is only expected for type list, not ${metafield.type}.`;
  }
  return '';
}

/**
 * The "Last inspected" value written back: a date as a date-only serial; anything else exactly as
 * the user left it (text that is not a date stays, and the Status says so).
 */
function lastInspectedValue(cell: unknown, utcOffsetAt: UtcOffsetAt): CellValue {
  const parsed = parseDateCell(cell, utcOffsetAt);
  if (parsed.kind === 'date') return toSheetSerial(parsed.date);
  if (parsed.kind === 'empty') return null;
  return typeof cell === 'string' || typeof cell === 'number' || typeof cell === 'boolean'
    ? cell
    : parsed.text;
}

/** A count that links to the first row of what it counts; 0 is a plain number. */
function countLinkFormula(sheetId: number, firstRow: number, count: number): CellValue {
  return count === 0 ? 0 : `=HYPERLINK(${formulaString(`#gid=${sheetId}&range=A${firstRow}`)}, ${count})`;
}

/** A schedule's row, in SCHEDULE_SPEC's order. */
function scheduleRow(
  typeId: string,
  linkBack: string,
  schedule: InspectionSchedule,
  inspection: InspectionResult,
  lastInspected: CellValue,
  key: string,
): CellValue[] {
  const { trigger } = schedule;
  const timingDate = fromDateNumber(trigger.timingDateNumber);
  const [nextDue, status, statusNote] = inspectionCells(inspection);
  return [
    typeId,
    linkBack,
    schedule.id,
    schedule.name,
    scheduleTerms(trigger)?.timing ?? '',
    nextDue!,
    lastInspected,
    status!,
    trigger.expiringPeriodInDays ?? null,
    statusNote!,
    schedule.instructions,
    schedule.form_id ?? null,
    schedule.doRequireAttachments,
    trigger.type,
    trigger.timing,
    timingDate === null ? null : toSheetSerial(timingDate),
    trigger.frequencyInDays ?? null,
    JSON.stringify(trigger),
    key,
  ];
}

/**
 * The metafields tab: one row per metafield, in type order, each linking back to its type's row.
 * Nothing on it depends on what the user typed elsewhere, so it can be written first.
 */
export function metafieldsTable(
  types: readonly EquipmentType[],
  sheetIds: EquipmentSheetIds,
): { table: Table; withNotes: number } {
  let withNotes = 0;
  const rows = types.flatMap((type, index) => {
    const linkBack = rowLinkFormula(sheetIds.types, FIRST_DATA_ROW + index, type.title);
    return type.metafields.map((metafield): CellValue[] => {
      const note = metafieldNote(metafield);
      if (note) withNotes++;
      return [
        type.id,
        linkBack,
        metafield.id,
        metafield.name,
        metafield.type,
        metafield.list_id ?? null,
        note,
        partKey(type.id, metafield.id),
      ];
    });
  });
  return { table: { columns: METAFIELD_COLUMNS, rows, keyColumn: METAFIELD_COLUMN.key }, withNotes };
}

/** The types and schedules tabs, which carry the inspections computed from "Last inspected". */
export function equipmentTables(input: EquipmentTablesInput): EquipmentTables {
  const { sheetIds, today, utcOffsetAt } = input;
  const typeRows: CellValue[][] = [];
  const scheduleRows: CellValue[][] = [];
  const scheduleEntries: ScheduleEntry[] = [];
  let metafieldRowCount = 0;

  input.types.forEach((type, index) => {
    const typeRow = FIRST_DATA_ROW + index;
    const firstMetafieldRow = FIRST_DATA_ROW + metafieldRowCount;
    metafieldRowCount += type.metafields.length;
    const firstScheduleRow = FIRST_DATA_ROW + scheduleRows.length;
    const linkBack = rowLinkFormula(sheetIds.types, typeRow, type.title);

    const inspections = type.schedules.map((schedule) => {
      const key = partKey(type.id, schedule.id);
      const lastInspected = input.lastInspectedByKey.get(key);
      const { inspection, inspectionInput } = inspectSchedule(
        schedule.trigger,
        lastInspected,
        today,
        utcOffsetAt,
      );
      scheduleEntries.push({
        typeId: type.id,
        typeTitle: type.title,
        scheduleId: schedule.id,
        scheduleName: schedule.name,
        key,
        row: FIRST_DATA_ROW + scheduleRows.length,
        inspection,
        inspectionInput,
      });
      scheduleRows.push(
        scheduleRow(
          type.id,
          linkBack,
          schedule,
          inspection,
          lastInspectedValue(lastInspected, utcOffsetAt),
          key,
        ),
      );
      return inspection;
    });

    const titleTarget =
      type.schedules.length > 0
        ? { sheetId: sheetIds.schedules, row: firstScheduleRow }
        : type.metafields.length > 0
          ? { sheetId: sheetIds.metafields, row: firstMetafieldRow }
          : { sheetId: sheetIds.types, row: typeRow };
    typeRows.push([
      type.id,
      rowLinkFormula(titleTarget.sheetId, titleTarget.row, type.title),
      epochMsToSheetSerial(createdToEpochMs(type.created), utcOffsetAt),
      countLinkFormula(sheetIds.metafields, firstMetafieldRow, type.metafields.length),
      countLinkFormula(sheetIds.schedules, firstScheduleRow, type.schedules.length),
      ...typeInspectionCells(inspections),
    ]);
  });

  return {
    types: { columns: EQUIPMENT_TYPE_COLUMNS, rows: typeRows, keyColumn: EQUIPMENT_TYPE_COLUMN.id },
    schedules: { columns: SCHEDULE_COLUMNS, rows: scheduleRows, keyColumn: SCHEDULE_COLUMN.key },
    scheduleEntries,
  };
}
