/**
 * Whether a cell's data validation rule lets a value in, for a user typing and for a script writing.
 *
 * A rule with "Reject input" on (allowInvalid false) refuses a script's write as it refuses typing:
 * Google throws "The data you entered in cell J1 violates the data validation rules set on this
 * cell." at the call, naming the cell in A1 without its sheet, and writes nothing of the call. The
 * sentence is quoted from scripts that met it on Google: a Range.setValue into a validated J1, a
 * Range.setValues of a header row into F1 under a leftover dropdown ("Writing a header into a
 * validated cell THROWS: The data you entered in cell F1 violates the data validation rules set on
 * this cell."), a tutorial's D11 for the rule's own refusal. Google documents no exception, so the
 * emulator checks every non-empty value, the one a cell already holds included; clearing (an empty
 * value) always passes, and a warning-only rule (allowInvalid true) never refuses.
 *
 * A rule set over cells whose values break it does not touch them (they show as invalid on Google),
 * and the next write of such a value is refused like any other.
 */
import { AppsScriptException } from '../core';
import { cellA1 } from './a1-notation';
import type { Cell } from './cells';
import { PLAIN_TEXT_FORMAT, isDateTimeFormat } from './number-formats';
import { currentYear, parseTypedInput } from './typed-input';
import type { SheetModel } from './workbook-model';

/**
 * How the value reaches the cell: 'typed' as a user types it, and as Range.setValues and
 * Sheet.appendRow write (a string is read as if typed unless the cell is plain text); 'raw' as the
 * Sheets API's RAW input option stores it (a string stays text, a leading "'" included).
 */
export type ValueReading = 'typed' | 'raw';

/** Whether `value` satisfies the cell's rule (clearing always does). */
export function fitsValidation(
  cell: Cell,
  value: unknown,
  reading: ValueReading,
  locale: string,
  currentYear: () => number,
): boolean {
  const rule = cell.validation!;
  if (value === null || value === '') return true;
  if (rule.criteria === 'VALUE_IN_LIST') {
    const quoted = reading === 'typed' && typeof value === 'string' && value.startsWith("'");
    return (rule.values[0] as string[]).includes(quoted ? value.slice(1) : String(value));
  }
  if (Object.prototype.toString.call(value) === '[object Date]') return true;
  if (typeof value === 'number') return isDateTimeFormat(cell.numberFormat);
  if (typeof value !== 'string' || reading === 'raw' || cell.numberFormat === PLAIN_TEXT_FORMAT) return false;
  const input = parseTypedInput(value, locale, currentYear);
  return input.kind === 'number' && isDateTimeFormat(cell.numberFormat ?? input.format);
}

/** Whether the cell's rule rejects input (not only warns) and `value` breaks it. */
export function isRejectedByValidation(
  sheet: SheetModel,
  row: number,
  column: number,
  value: unknown,
  reading: ValueReading,
): boolean {
  const cell = sheet.cells.get(row, column);
  return (
    cell?.validation !== undefined &&
    !cell.validation.allowInvalid &&
    !fitsValidation(cell, value, reading, sheet.workbook.locale, () => currentYear(sheet.workbook))
  );
}

/** Google's sentence for a script's write that a cell's rule rejects. */
export function validationViolation(row: number, column: number): string {
  return `The data you entered in cell ${cellA1(row, column)} violates the data validation rules set on this cell.`;
}

/** One value a script call writes, where it goes. */
export interface CellWrite {
  row: number;
  column: number;
  value: unknown;
}

/**
 * Refuses, before anything is written, a script's call whose values a reject-input rule refuses:
 * the first such cell (row by row) is the one Google's message names.
 */
export function checkScriptWrites(
  sheet: SheetModel,
  writes: Iterable<CellWrite>,
  reading: ValueReading,
): void {
  for (const { row, column, value } of writes) {
    if (isRejectedByValidation(sheet, row, column, value, reading))
      throw new AppsScriptException(validationViolation(row, column));
  }
}

/** The cells of a grid of values written from (top, left), row by row. */
export function* gridWrites(
  top: number,
  left: number,
  rows: readonly (readonly unknown[])[],
): Generator<CellWrite> {
  for (const [i, cells] of rows.entries()) {
    for (const [j, value] of cells.entries()) yield { row: top + i, column: left + j, value };
  }
}
