/**
 * Recomputing inspections from the tabs an import wrote, without asking the service: the schedules
 * tab holds each schedule's trigger as the service sent it (a hidden column) next to the user's
 * "Last inspected", so editing a date and recomputing gives exactly what a refresh would.
 */
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import {
  EQUIPMENT_TYPE_COLUMN,
  INSPECTION_COLUMN_INDEXES,
  inspectionCells,
  inspectSchedule,
  partKey,
  SCHEDULE_COLUMN,
  typeInspectionCells,
} from './tables';
import type { InspectionResult } from './inspections';
import type { ScheduleEntry } from './upcoming';

export interface RecomputedSchedules {
  /** The schedules found, with their rows and inspections. */
  entries: ScheduleEntry[];
  /**
   * Next due, Status and Status note from row 2 to the last schedule row (see INSPECTION_COLUMN_INDEXES);
   * a row between them that is not a schedule keeps what it holds.
   */
  inspectionCells: unknown[][];
}

function readTrigger(cell: unknown): unknown {
  if (typeof cell !== 'string' || cell === '') return undefined;
  try {
    return JSON.parse(cell) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The schedules tab's values (header first, as getValues returns them) recomputed for `today`. A row
 * is a schedule when it holds a trigger as sent (every imported row does); rows a user added below or
 * between them are left as they are.
 */
export function recomputeSchedules(
  values: readonly (readonly unknown[])[],
  today: CalendarDate,
  utcOffsetAt: UtcOffsetAt,
): RecomputedSchedules {
  const rows = values.slice(1);
  const isSchedule = (row: readonly unknown[]) =>
    row[SCHEDULE_COLUMN.trigger] !== '' && row[SCHEDULE_COLUMN.trigger] != null;
  let lastSchedule = rows.length - 1;
  while (lastSchedule >= 0 && !isSchedule(rows[lastSchedule]!)) lastSchedule--;

  const entries: ScheduleEntry[] = [];
  const cells = rows.slice(0, lastSchedule + 1).map((row, index): unknown[] => {
    if (!isSchedule(row)) return INSPECTION_COLUMN_INDEXES.map((column) => row[column]);
    const trigger = readTrigger(row[SCHEDULE_COLUMN.trigger]);
    const { inspection, inspectionInput } = inspectSchedule(
      trigger,
      row[SCHEDULE_COLUMN.lastInspected],
      today,
      utcOffsetAt,
    );
    const typeId = String(row[SCHEDULE_COLUMN.typeId] ?? '');
    const scheduleId = String(row[SCHEDULE_COLUMN.id] ?? '');
    entries.push({
      typeId,
      typeTitle: String(row[SCHEDULE_COLUMN.typeTitle] ?? ''),
      scheduleId,
      scheduleName: String(row[SCHEDULE_COLUMN.name] ?? ''),
      key: partKey(typeId, scheduleId),
      row: index + 2,
      inspection,
      inspectionInput,
    });
    return inspectionCells(inspection);
  });
  return { entries, inspectionCells: cells };
}

/**
 * "Next inspection due" and "Status" of the types tab (values header first, as getValues returns
 * them) from row 2 to the last type that has schedules; a type without schedules has nothing that
 * changes with the day, so its row, like any row that is not a type, keeps what it holds.
 */
export function recomputeTypeCells(
  values: readonly (readonly unknown[])[],
  entries: readonly ScheduleEntry[],
): unknown[][] {
  const byType = new Map<string, InspectionResult[]>();
  for (const entry of entries) {
    const inspections = byType.get(entry.typeId) ?? [];
    inspections.push(entry.inspection);
    byType.set(entry.typeId, inspections);
  }
  const rows = values.slice(1);
  const inspectionsOf = (row: readonly unknown[]) => byType.get(String(row[EQUIPMENT_TYPE_COLUMN.id] ?? ''));
  let lastWithSchedules = rows.length - 1;
  while (lastWithSchedules >= 0 && !inspectionsOf(rows[lastWithSchedules]!)) lastWithSchedules--;
  return rows.slice(0, lastWithSchedules + 1).map((row) => {
    const inspections = inspectionsOf(row);
    return inspections
      ? typeInspectionCells(inspections)
      : row.slice(EQUIPMENT_TYPE_COLUMN.nextDue, EQUIPMENT_TYPE_COLUMN.status + 1);
  });
}
