/**
 * Reading a cell as a script (getValues), as a user (getDisplayValues), or as plain data for tests.
 * A number under a date or time format reads back as a Date: the instant at which the spreadsheet's
 * time zone shows the stored wall-clock time.
 */
import { type Cell, LOADING, isCellError } from './cells';
import { AUTOMATIC_NUMBER_FORMAT, formatNumber, isDateTimeFormat } from './number-formats';
import { instantOfSerial } from './serial-dates';

/** The format that decides display: the cell's own, else what its formula's result implies. */
export function effectiveFormat(cell: Cell | undefined): string | undefined {
  return cell?.numberFormat ?? cell?.resultFormat;
}

export function reportedNumberFormat(cell: Cell | undefined): string {
  return cell?.numberFormat ?? AUTOMATIC_NUMBER_FORMAT;
}

/** A cell's value as getValues returns it; `makeDate` builds a Date in the caller's realm. */
export function cellValue(
  cell: Cell | undefined,
  timeZone: string,
  makeDate: (epochMs: number) => Date,
): string | number | boolean | Date {
  const value = cell?.value;
  if (value === undefined) return '';
  if (isCellError(value)) return value.code;
  if (typeof value === 'number' && isDateTimeFormat(effectiveFormat(cell))) {
    return makeDate(instantOfSerial(value, timeZone));
  }
  return value;
}

export function displayValue(cell: Cell | undefined): string {
  const value = cell?.value;
  if (value === undefined) return '';
  if (value === LOADING) return LOADING.message;
  if (isCellError(value)) return value.code;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return formatNumber(value, effectiveFormat(cell));
  return value;
}
