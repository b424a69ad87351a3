/**
 * Writing a script's value into a cell (setValue/setValues, and a test "typing" into a sheet).
 * Strings are read as if typed unless the cell's format is plain text '@'; Dates become wall-clock
 * serials in the spreadsheet's time zone. Anything a cell cannot hold is refused before any cell of
 * the batch is written, so a failed setValues leaves the sheet as it was.
 */
import { AppsScriptException } from '../core';
import { clearCellContent } from './cells';
import {
  DATE_TIME_FORMAT,
  type FormulaSupport,
  MAX_CELL_CHARACTERS,
  applyFormula,
  arithmeticResult,
} from './formulas';
import { PLAIN_TEXT_FORMAT } from './number-formats';
import { serialOfInstant } from './serial-dates';
import { currentYear, parseTypedInput } from './typed-input';
import type { SheetModel } from './workbook-model';

function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `where` locates the value for the message, e.g. "row 2, column 3 of the data". */
export function checkCellInput(value: unknown, where: string): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    if (value.length > MAX_CELL_CHARACTERS) {
      throw new AppsScriptException(
        `Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`,
      );
    }
    return;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (isDate(value) && !Number.isNaN(value.getTime())) return;
  throw new AppsScriptException(
    `Cannot store ${describe(value)} in a cell (${where}): cells take strings, finite numbers, booleans, valid Dates and null.`,
  );
}

/** Writes a value already accepted by checkCellInput. */
export function writeCellInput(
  sheet: SheetModel,
  row: number,
  column: number,
  value: unknown,
  formulas: FormulaSupport,
): void {
  const cell = sheet.cells.edit(row, column);
  clearCellContent(cell);
  if (typeof value === 'number' || typeof value === 'boolean') {
    cell.value = value;
  } else if (isDate(value)) {
    cell.value = serialOfInstant(value.getTime(), sheet.workbook.timeZone);
    cell.numberFormat ??= DATE_TIME_FORMAT;
  } else if (typeof value === 'string' && cell.numberFormat === PLAIN_TEXT_FORMAT) {
    if (value !== '') cell.value = value;
  } else if (typeof value === 'string') {
    const input = parseTypedInput(value, sheet.workbook.locale, () => currentYear(sheet.workbook));
    switch (input.kind) {
      case 'empty':
        break;
      case 'text':
        cell.value = input.text;
        break;
      case 'boolean':
        cell.value = input.value;
        break;
      case 'number':
        cell.value = input.value;
        // Typing a date into an automatic cell gives it a date format; an explicit format stays.
        if (input.format) cell.numberFormat ??= input.format;
        break;
      case 'formula':
        applyFormula({ sheet, row, column, cell }, input.formula, formulas);
        break;
      case 'signed-expression':
        cell.formula = input.formula;
        cell.value = arithmeticResult(input.value);
        break;
    }
  }
  sheet.cells.prune(row, column);
}
