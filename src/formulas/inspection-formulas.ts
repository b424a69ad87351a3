/**
 * SAFETY_NEXT_INSPECTION and SAFETY_INSPECTION_STATUS over cells: the inspection rules of
 * src/equipment/inspections.ts (the ones behind the Inspection schedules and Upcoming inspections tabs)
 * applied to each cell of the arguments. Arguments are single values or ranges of one size; the
 * answer has that size. No request is made. Empty rows of a range give empty cells.
 */
import { type CalendarDate, toDateNumber } from '../lib/dates';
import { InspectionStatus, nextInspection, statusOfDueDate } from '../equipment/inspections';
import {
  cellOf,
  commonShape,
  dateCell,
  type DateCellZones,
  FormulaArgumentError,
  isBlank,
  numberCell,
  positionOf,
  type Shape,
  textCell,
  wholeNumberCell,
} from './arguments';

/** A due date, a status in words, or '' for an empty row. */
export type InspectionCell = CalendarDate | string;

export interface InspectionClock extends DateCellZones {
  /** Today in the spreadsheet's time zone, for when the `today` argument is left out. */
  today: () => CalendarDate;
}

/**
 * What SAFETY_NEXT_INSPECTION writes where there is no due date: SAFETY_INSPECTION_STATUS passes
 * these on unchanged, so that its due_date can be the other function's column.
 */
const STATUSES_WITHOUT_DUE_DATE: readonly string[] = [
  InspectionStatus.noInspectionRecorded,
  InspectionStatus.lastInspectedNotADate,
  InspectionStatus.lastInspectedInFuture,
  InspectionStatus.unsupportedSchedule,
];

function eachCell(
  shape: Shape,
  compute: (row: number, column: number) => InspectionCell,
): InspectionCell[][] {
  return Array.from({ length: shape.rows }, (_, row) =>
    Array.from({ length: shape.columns }, (_, column) => compute(row, column)),
  );
}

function todayAt(value: unknown, where: string, clock: InspectionClock): CalendarDate {
  return dateCell(value, `today${where}`, clock) ?? clock.today();
}

export interface NextInspectionArguments {
  timing: unknown;
  timing_date: unknown;
  frequency_days: unknown;
  last_inspected: unknown;
  today: unknown;
}

/**
 * The next due date of each schedule, or the status that explains why there is none ("No
 * inspection recorded" for a rolling schedule without last_inspected, "Unsupported schedule" for a
 * timing or frequency the rules do not cover), exactly as the Inspection schedules tab decides.
 */
export function nextInspectionCells(
  args: NextInspectionArguments,
  clock: InspectionClock,
): InspectionCell[][] {
  if (args.timing === undefined) throw new FormulaArgumentError('timing', 'is required: rolling, dom or dow');
  const shape = commonShape({ ...args });
  return eachCell(shape, (row, column) => {
    const where = positionOf(shape, row, column);
    const value = (argument: keyof NextInspectionArguments) => cellOf(args[argument], row, column);
    const timing = textCell(value('timing'), `timing${where}`).toLowerCase();
    if (timing === '') return '';
    const anchor = dateCell(value('timing_date'), `timing_date${where}`, clock);
    const lastInspected = dateCell(value('last_inspected'), `last_inspected${where}`, clock);
    const inspection = nextInspection({
      trigger: {
        type: 'time',
        timing,
        timingDateNumber: anchor === null ? undefined : toDateNumber(anchor),
        frequencyInDays: numberCell(value('frequency_days'), `frequency_days${where}`) ?? undefined,
        // Only the due date is answered here; the status needs the expiring period (see below).
        expiringPeriodInDays: 0,
      },
      lastInspected: lastInspected === null ? { kind: 'empty' } : { kind: 'date', date: lastInspected },
      today: todayAt(value('today'), where, clock),
    });
    return inspection.dueDate ?? inspection.status;
  });
}

export interface InspectionStatusArguments {
  due_date: unknown;
  expiring_days: unknown;
  today: unknown;
}

/** Expired, Expiring or Up to date for each due date; a status SAFETY_NEXT_INSPECTION wrote stays. */
export function inspectionStatusCells(
  args: InspectionStatusArguments,
  clock: InspectionClock,
): InspectionCell[][] {
  if (isBlank(args.expiring_days)) {
    throw new FormulaArgumentError(
      'expiring_days',
      'is required: the days before the due date that count as Expiring',
    );
  }
  const shape = commonShape({ ...args });
  return eachCell(shape, (row, column) => {
    const where = positionOf(shape, row, column);
    const due = cellOf(args.due_date, row, column);
    if (typeof due === 'string' && STATUSES_WITHOUT_DUE_DATE.includes(due.trim())) return due.trim();
    const dueDate = dateCell(due, `due_date${where}`, clock);
    if (dueDate === null) return '';
    const expiringDays = wholeNumberCell(cellOf(args.expiring_days, row, column), `expiring_days${where}`, 0);
    if (expiringDays === null) {
      throw new FormulaArgumentError(
        `expiring_days${where}`,
        'is empty: give the days before the due date that count as Expiring',
      );
    }
    return statusOfDueDate(dueDate, expiringDays, todayAt(cellOf(args.today, row, column), where, clock));
  });
}
