/** One cell's stored state: content (a value, maybe computed by a formula) and format. */

export type ErrorCode = '#ERROR!' | '#NAME?' | '#REF!' | '#N/A' | '#DIV/0!' | '#NUM!' | '#VALUE!';

/** An error value: scripts read its code ("#NAME?"); the message is Sheets' tooltip. */
export interface CellError {
  readonly code: ErrorCode;
  readonly message: string;
}

export type CellValue = string | number | boolean | CellError;

/** A custom function's cell until the test asks for a recalculation. */
export const LOADING: CellError = Object.freeze({ code: '#N/A', message: 'Loading...' });

/** The data validation criteria the emulator builds; others are not emulated. */
export type ValidationCriteria = 'DATE_IS_VALID_DATE' | 'VALUE_IN_LIST';

/** A data validation rule, immutable: cells of a range share one, and it moves with its cell. */
export interface DataValidationData {
  readonly criteria: ValidationCriteria;
  /** As getCriteriaValues returns them: [] for a date, [list, showDropdown] for a list. */
  readonly values: readonly unknown[];
  readonly allowInvalid: boolean;
  readonly helpText: string;
}

export interface Cell {
  value?: CellValue;
  formula?: string;
  /** The target of a HYPERLINK formula. */
  link?: string;
  /** The date format a formula's Date result implies; shown while the cell's own format is automatic. */
  resultFormat?: string;
  /** Set on the cells an array result spilled into (cells move with rows, so this is a reference). */
  spilledFrom?: Cell;
  /** On a formula cell: the cells its array result spilled into. */
  spill?: Cell[];
  numberFormat?: string;
  fontWeight?: 'bold';
  /** '#rrggbb'; absent for none. */
  background?: string;
  note?: string;
  validation?: DataValidationData;
}

export function isCellError(value: unknown): value is CellError {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
}

export function hasContent(cell: Cell | undefined): boolean {
  return cell !== undefined && (cell.value !== undefined || cell.formula !== undefined);
}

export function isBlankCell(cell: Cell): boolean {
  return Object.values(cell).every((field) => field === undefined);
}

/** Removes the content; a formula's spilled results go with it. */
/**
 * Only fields a cell has are reset: a fresh cell must stay a small object, as a sheet of a million
 * cells would otherwise weigh several times what it needs (and the benchmark measures memory).
 */
export function clearCellContent(cell: Cell): void {
  if (cell.spill !== undefined) {
    for (const spilled of cell.spill) {
      if (spilled.spilledFrom === cell) {
        spilled.spilledFrom = undefined;
        spilled.value = undefined;
        spilled.resultFormat = undefined;
      }
    }
    cell.spill = undefined;
  }
  if (cell.spilledFrom !== undefined) cell.spilledFrom = undefined;
  if (cell.value !== undefined) cell.value = undefined;
  if (cell.formula !== undefined) cell.formula = undefined;
  if (cell.link !== undefined) cell.link = undefined;
  if (cell.resultFormat !== undefined) cell.resultFormat = undefined;
}

export function clearCellFormat(cell: Cell): void {
  cell.numberFormat = undefined;
  cell.fontWeight = undefined;
  cell.background = undefined;
}
