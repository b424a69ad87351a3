/**
 * Whether a cell's data validation rule lets a value in, for a user typing and for a script writing.
 *
 * A rule with "Reject input" on (allowInvalid false) refuses a script's write as it refuses typing:
 * Google throws "The data you entered in cell J1 violates the data validation rules set on this
 * cell." at the call, naming the cell in A1 without its sheet, and writes nothing of the call. The
 * sentence is quoted by scripts that met it on Google: a Range.setValue into a validated J1, and a
 * Range.setValues of a header row under a dropdown left on F1 ("Writing a header into a validated cell
 * THROWS: The data you entered in cell F1 violates the data validation rules set on this cell.").
 * Google documents no exception, so every non-empty value is checked, the one a cell already holds
 * included; clearing (an empty value) always passes, and a warning-only rule (allowInvalid true)
 * never refuses. The criteria checked are the ones the emulator builds (cells.ts): a value in a list
 * (the text as shown, so a number 5 fits "5"), and a valid date (a Date, or a number or date text
 * where the cell's format makes it a date).
 *
 * A rule set over cells whose values break it does not touch them (they show as invalid on Google),
 * and the next write of such a value is refused like any other.
 *
 * A formula is checked by its result: a script that set a formula into a cell with a reject-input
 * dropdown was refused with the same sentence. The emulator knows a result at the write only for what
 * it computes at once (arithmetic, HYPERLINK); a custom function's result comes later and an error is
 * mostly the emulator's "not computed", so those are let through: Google's behaviour for them is
 * unknown and the emulator cannot know the value it would check.
 */
import { AppsScriptException } from '../core';
import { cellA1 } from './a1-notation';
import { type Cell, type CellValue, isCellError } from './cells';
import { type FormulaSupport, applyFormula, arithmeticResult } from './formulas';
import { PLAIN_TEXT_FORMAT, isDateTimeFormat } from './number-formats';
import { currentYear, parseTypedInput } from './typed-input';
import type { GridBox } from './grid-box';
import type { SheetModel } from './workbook-model';

/**
 * How the value reaches the cell: 'typed' as a user types it, and as Range.setValue(s) and
 * Sheet.appendRow write (a string is read as if typed unless the cell is plain text, so "=…" is a
 * formula); 'raw' as the Sheets API's RAW input option stores it (a string stays text, a leading "'"
 * included); 'formula' a formula in A1 notation, as setFormulaR1C1 leaves it once converted.
 */
export type ValueReading = 'typed' | 'raw' | 'formula';

/** Whether `value`, a typed or raw value, satisfies the cell's rule (clearing always does). */
function fitsValidation(
  cell: Cell,
  value: unknown,
  reading: 'typed' | 'raw',
  currentYear: () => number,
  locale: string,
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

/**
 * What the rule judges: the value, or a formula's result where the emulator has one at the write
 * (undefined where it has none: see the top).
 */
function judgedValue(
  sheet: SheetModel,
  row: number,
  column: number,
  value: unknown,
  reading: ValueReading,
  formulas: FormulaSupport,
): { value: unknown; reading: 'typed' | 'raw' } | undefined {
  if (reading === 'raw') return { value, reading };
  const numberFormat = sheet.cells.get(row, column)?.numberFormat;
  let formula = reading === 'formula' ? (value as string) : null;
  if (reading === 'typed' && typeof value === 'string' && numberFormat !== PLAIN_TEXT_FORMAT) {
    const input = parseTypedInput(value, sheet.workbook.locale, () => currentYear(sheet.workbook));
    if (input.kind === 'signed-expression') return knownResult(arithmeticResult(input.value));
    if (input.kind === 'formula') formula = input.formula;
  }
  if (formula === null) return { value, reading: 'typed' };
  if (formula === '') return { value: '', reading: 'raw' };
  // Computed on a cell of its own, so that the sheet is not touched before the whole call is checked.
  const scratch: Cell = { numberFormat };
  applyFormula({ sheet, row, column, cell: scratch }, formula, formulas);
  return knownResult(scratch.value);
}

function knownResult(result: CellValue | undefined): { value: unknown; reading: 'raw' } | undefined {
  return result === undefined || isCellError(result) ? undefined : { value: result, reading: 'raw' };
}

/** Whether the cell's rule rejects input (not only warns) and `value` breaks it. */
export function isRejectedByValidation(
  sheet: SheetModel,
  row: number,
  column: number,
  value: unknown,
  reading: ValueReading,
  formulas: FormulaSupport,
): boolean {
  const cell = sheet.cells.get(row, column);
  if (cell?.validation === undefined || cell.validation.allowInvalid) return false;
  const judged = judgedValue(sheet, row, column, value, reading, formulas);
  return (
    judged !== undefined &&
    !fitsValidation(
      cell,
      judged.value,
      judged.reading,
      () => currentYear(sheet.workbook),
      sheet.workbook.locale,
    )
  );
}

/** Google's sentence for a script's write that a cell's rule rejects. */
export function validationViolation(row: number, column: number): string {
  return `The data you entered in cell ${cellA1(row, column)} violates the data validation rules set on this cell.`;
}

/** One value (or formula) a script call writes, where it goes. */
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
  formulas: FormulaSupport,
): void {
  for (const { row, column, value } of writes) {
    if (isRejectedByValidation(sheet, row, column, value, reading, formulas))
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

/** Every cell of the box, each with the value `valueAt` gives it. */
export function* boxWrites(
  box: GridBox,
  valueAt: (row: number, column: number) => unknown,
): Generator<CellWrite> {
  for (let row = box.top; row <= box.bottom; row++) {
    for (let column = box.left; column <= box.right; column++)
      yield { row, column, value: valueAt(row, column) };
  }
}
