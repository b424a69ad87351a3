/**
 * Which rows a filter's criteria hide: a row below the header whose cell in a column with criteria
 * shows one of the hidden values, or fails the column's condition (conditions as conditional formats
 * evaluate them).
 */
import { cellValue, displayValue } from './cell-values';
import { isCellError } from './cells';
import { evaluateCondition } from './conditional-evaluation';
import type { SheetModel } from './workbook-model';

export function isRowHiddenByFilter(sheet: SheetModel, row: number): boolean {
  const { filter } = sheet;
  if (!filter || row <= filter.box.top || row > filter.box.bottom) return false;
  for (const [column, criteria] of filter.criteria) {
    const cell = sheet.cells.get(row, column);
    const display = displayValue(cell);
    if (criteria.hiddenValues.includes(display)) return true;
    const { condition } = criteria;
    if (!condition) continue;
    const evaluated = {
      value: cellValue(cell, sheet.workbook.timeZone, (ms) => new Date(ms)),
      display,
      isError: isCellError(cell?.value),
      timeZone: sheet.workbook.timeZone,
    };
    if (evaluateCondition(condition.type, condition.values, evaluated) === 'no-match') return true;
  }
  return false;
}
