/**
 * Whether a conditional format rule's condition holds for a cell, as far as the emulator can tell
 * without computing formulas: text conditions compare the displayed text case-insensitively, number
 * conditions apply to number cells only (not to dates, booleans or text), custom formulas are not
 * evaluated.
 */
import type { ConditionType } from './workbook-model';

export type ConditionOutcome = 'match' | 'no-match' | 'not-evaluated';

export interface EvaluatedCell {
  /** As getValues returns it ('' when empty). */
  value: unknown;
  display: string;
  /** Error cells match no condition. */
  isError: boolean;
}

export function evaluateCondition(
  type: ConditionType,
  values: readonly (string | number)[],
  cell: EvaluatedCell,
): ConditionOutcome {
  if (type === 'CUSTOM_FORMULA') return 'not-evaluated';
  return conditionHolds(type, values, cell) ? 'match' : 'no-match';
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
  }
}
