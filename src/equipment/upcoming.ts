/**
 * The "Upcoming inspections" tab: every schedule that is Expired or Expiring, or falls due within the
 * horizon the user set, soonest first, and every schedule that needs a "Last inspected" typed before
 * it can be placed on a timeline, each linking to its "Last inspected" cell on the "Inspection
 * schedules" tab (where whatever is done on the row ends: the date of the inspection); and the
 * counts a run reports. Each row carries what explains its status (the schedule's timing in words,
 * its Last inspected, its expiring period) and what to do.
 *
 * Schedules without a due date that a typed date would fix come first: no inspection recorded (the
 * first thing an inspector asks about), and a "Last inspected" in the future (the schedule may well
 * be due, and only a corrected date tells). Other schedules without a due date (a "Last inspected"
 * that is not a date, which Sheets' validation keeps out; an unsupported schedule, which no typed
 * date fixes) are counted, and their rows on the schedules tab say why.
 */
import { type CellValue, cellLinkFormula, type ColumnSpec, columnIndexes, type Table } from '../sheets/table';
import { cellA1 } from '../sheets/a1-notation';
import { toSheetSerial } from '../lib/dates';
import { type InspectionInput, type InspectionResult, InspectionStatus, scheduleTerms } from './inspections';

export const UPCOMING_SHEET = 'Upcoming inspections';

const UPCOMING_SPEC = [
  { header: 'Equipment type ID', kind: 'text', width: 130 },
  { header: 'Equipment type', kind: 'text', width: 220 },
  { id: 'scheduleId', header: 'Schedule ID', kind: 'text', width: 110 },
  { id: 'schedule', header: 'Schedule', kind: 'formula', width: 200 },
  // Repeats, Last inspected, Expiring period and What to do came later: an older tab gets them
  // inserted by the next write (key-columns.ts), then found by their titles wherever they are moved.
  { id: 'repeats', header: 'Repeats', kind: 'text', width: 230 },
  { id: 'lastInspected', header: 'Last inspected', kind: 'date', width: 110 },
  { id: 'dueDate', header: 'Due date', kind: 'date', width: 100 },
  { id: 'daysLeft', header: 'Days left', kind: 'daysLeft', width: 120 },
  { id: 'expiringPeriod', header: 'Expiring period (days)', kind: 'integer', width: 120 },
  { id: 'status', header: 'Status', kind: 'text', width: 170 },
  { id: 'whatToDo', header: 'What to do', kind: 'text', width: 330 },
  { id: 'key', header: 'Schedule key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const UPCOMING_COLUMNS: readonly ColumnSpec[] = UPCOMING_SPEC;
export const UPCOMING_COLUMN = columnIndexes(UPCOMING_SPEC);

/** One schedule, where it sits on the schedules tab, and its inspection. */
export interface ScheduleEntry {
  typeId: string;
  typeTitle: string;
  scheduleId: string;
  scheduleName: string;
  /** Its type and id (partKey): what identifies it across refreshes. */
  key: string;
  /** Its row on the "Inspection schedules" tab (the header is row 1). */
  row: number;
  inspection: InspectionResult;
  /** What the inspection was computed from: the Inspection forecast goes on from it. */
  inspectionInput: InspectionInput;
}

export interface InspectionCounts {
  expired: number;
  expiring: number;
  /** Rows of the Upcoming inspections tab. */
  upcoming: number;
  unsupported: number;
  lastInspectedNotADate: number;
  lastInspectedInFuture: number;
  noInspectionRecorded: number;
}

/** Schedules without a due date that a date typed in "Last inspected" would place: listed first. */
const NEEDS_LAST_INSPECTED: readonly InspectionStatus[] = [
  InspectionStatus.noInspectionRecorded,
  InspectionStatus.lastInspectedInFuture,
];

function isUpcoming(inspection: InspectionResult, horizonDays: number): boolean {
  const { status, daysLeft } = inspection;
  if (
    status === InspectionStatus.expired ||
    status === InspectionStatus.expiring ||
    NEEDS_LAST_INSPECTED.includes(status)
  ) {
    return true;
  }
  return daysLeft !== null && daysLeft <= horizonDays;
}

/** What the manager does about a listed schedule, by its status. */
const WHAT_TO_DO: Partial<Record<InspectionStatus, string>> = {
  [InspectionStatus.noInspectionRecorded]: 'No inspection recorded: enter Last inspected',
  [InspectionStatus.lastInspectedInFuture]:
    'Last inspected is after today: enter the date of the last inspection done',
  [InspectionStatus.expired]: 'Overdue: inspect now, then enter the date in Last inspected',
  [InspectionStatus.expiring]: 'Inspect by the due date, then enter the date in Last inspected',
  [InspectionStatus.upToDate]: 'Plan the inspection before the due date',
};

/**
 * Upcoming schedules by due date, those without one (a "Last inspected" to enter or check) first;
 * schedules due the same day keep the schedules tab's order.
 */
function upcomingEntries(entries: readonly ScheduleEntry[], horizonDays: number): ScheduleEntry[] {
  const dueOf = (entry: ScheduleEntry) => entry.inspection.dueDate ?? Number.NEGATIVE_INFINITY;
  return entries
    .filter((entry) => isUpcoming(entry.inspection, horizonDays))
    .sort((a, b) => dueOf(a) - dueOf(b) || a.row - b.row);
}

/** Where the rows link to: the schedules tab, and its "Last inspected" column (1-based) as it now is. */
export interface LastInspectedCells {
  sheetId: number;
  column: number;
}

export function upcomingTable(
  entries: readonly ScheduleEntry[],
  lastInspectedCells: LastInspectedCells,
  horizonDays: number,
): Table {
  const rows = upcomingEntries(entries, horizonDays).map((entry): CellValue[] => {
    const { inspection, inspectionInput } = entry;
    const terms = scheduleTerms(inspectionInput.trigger);
    const lastInspected = inspectionInput.lastInspected;
    return [
      entry.typeId,
      entry.typeTitle,
      entry.scheduleId,
      cellLinkFormula(
        lastInspectedCells.sheetId,
        cellA1(lastInspectedCells.column, entry.row),
        entry.scheduleName,
      ),
      terms?.timing ?? '',
      lastInspected?.kind === 'date' ? toSheetSerial(lastInspected.date) : null,
      inspection.dueDate === null ? null : toSheetSerial(inspection.dueDate),
      inspection.daysLeft,
      terms?.expiringPeriodInDays ?? null,
      inspection.status,
      WHAT_TO_DO[inspection.status] ?? '',
      entry.key,
    ];
  });
  return { columns: UPCOMING_COLUMNS, rows, keyColumn: UPCOMING_COLUMN.key };
}

export function countInspections(entries: readonly ScheduleEntry[], horizonDays: number): InspectionCounts {
  const counts: InspectionCounts = {
    expired: 0,
    expiring: 0,
    upcoming: 0,
    unsupported: 0,
    lastInspectedNotADate: 0,
    lastInspectedInFuture: 0,
    noInspectionRecorded: 0,
  };
  for (const { inspection } of entries) {
    if (isUpcoming(inspection, horizonDays)) counts.upcoming++;
    if (inspection.status === InspectionStatus.expired) counts.expired++;
    else if (inspection.status === InspectionStatus.expiring) counts.expiring++;
    else if (inspection.status === InspectionStatus.unsupportedSchedule) counts.unsupported++;
    else if (inspection.status === InspectionStatus.lastInspectedNotADate) counts.lastInspectedNotADate++;
    else if (inspection.status === InspectionStatus.lastInspectedInFuture) counts.lastInspectedInFuture++;
    else if (inspection.status === InspectionStatus.noInspectionRecorded) counts.noInspectionRecorded++;
  }
  return counts;
}

/** The counts in one sentence, for a run's summary and its Sync log line. */
export function describeInspectionCounts(counts: InspectionCounts, horizonDays: number): string {
  const parts = [
    `${counts.expired} expired`,
    `${counts.expiring} expiring`,
    `${counts.upcoming} listed as upcoming (horizon ${horizonDays} days)`,
  ];
  if (counts.unsupported) parts.push(`${counts.unsupported} unsupported`);
  if (counts.lastInspectedNotADate)
    parts.push(`${counts.lastInspectedNotADate} with a "Last inspected" that is not a date`);
  if (counts.lastInspectedInFuture)
    parts.push(`${counts.lastInspectedInFuture} with a "Last inspected" in the future to check`);
  if (counts.noInspectionRecorded) parts.push(`${counts.noInspectionRecorded} with no inspection recorded`);
  return `Inspections: ${parts.join(', ')}.`;
}

/** The horizon as set, or the default when the stored setting is not a whole number of days ≥ 0. */
export function checkedHorizonDays(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}
