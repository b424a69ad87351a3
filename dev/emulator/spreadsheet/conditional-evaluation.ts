/**
 * Whether a conditional format rule's condition holds for a cell, as far as the emulator can tell
 * without computing formulas: text conditions compare the displayed text case-insensitively, number
 * conditions apply to number cells only (not to dates, booleans or text), date conditions to date
 * cells only (those getValues returns as a Date), compared by calendar day in the spreadsheet's time
 * zone; custom formulas are not evaluated.
 */
import { types } from 'node:util';
import { serialOfInstant } from './serial-dates';
import type { ConditionType } from './workbook-model';

export type ConditionOutcome = 'match' | 'no-match' | 'not-evaluated';

export interface EvaluatedCell {
  /** As getValues returns it ('' when empty; a Date for a number in a date-formatted cell). */
  value: unknown;
  display: string;
  /** Error cells match no condition. */
  isError: boolean;
  /** The spreadsheet's: a date condition compares calendar days there. */
  timeZone: string;
}

export function evaluateCondition(
  type: ConditionType,
  values: readonly (string | number)[],
  cell: EvaluatedCell,
): ConditionOutcome {
  if (type === 'CUSTOM_FORMULA') return 'not-evaluated';
  return conditionHolds(type, values, cell) ? 'match' : 'no-match';
}

/** The calendar day (a whole serial) of an instant in the zone. */
function dayOf(epochMs: number, timeZone: string): number {
  return Math.floor(serialOfInstant(epochMs, timeZone));
}

function conditionHolds(
  type: Exclude<ConditionType, 'CUSTOM_FORMULA'>,
  values: readonly (string | number)[],
  cell: EvaluatedCell,
): boolean {
  const [first, second] = values;
  const text = cell.display.toLowerCase();
  const expected = String(first ?? '').toLowerCase();
  const number = typeof cell.value === 'number' && !cell.isError ? cell.value : null;
  const day = types.isDate(cell.value) && !cell.isError ? dayOf(cell.value.getTime(), cell.timeZone) : null;
  switch (type) {
    case 'CELL_EMPTY':
      return cell.value === '' && !cell.isError;
    case 'CELL_NOT_EMPTY':
      return cell.value !== '' || cell.isError;
    case 'TEXT_EQUAL_TO':
      return !cell.isError && text === expected;
    case 'TEXT_CONTAINS':
      return !cell.isError && text.includes(expected);
    case 'TEXT_STARTS_WITH':
      return !cell.isError && text.startsWith(expected);
    case 'TEXT_ENDS_WITH':
      return !cell.isError && text.endsWith(expected);
    case 'NUMBER_EQUAL_TO':
      return number !== null && number === first;
    case 'NUMBER_LESS_THAN':
      return number !== null && number < Number(first);
    case 'NUMBER_GREATER_THAN':
      return number !== null && number > Number(first);
    case 'NUMBER_BETWEEN': {
      const [low, high] = [Number(first), Number(second)].sort((a, b) => a - b);
      return number !== null && number >= low! && number <= high!;
    }
    case 'DATE_BEFORE':
      return day !== null && day < dayOf(Number(first), cell.timeZone);
    case 'DATE_AFTER':
      return day !== null && day > dayOf(Number(first), cell.timeZone);
  }
}
