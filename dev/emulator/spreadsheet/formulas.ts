/**
 * Formulas. The emulator keeps every formula's text and computes only what it can compute exactly:
 * arithmetic over number literals, HYPERLINK, and custom functions (through the runtime, and only when
 * a test asks for a recalculation, as Sheets computes them asynchronously). Everything else shows
 * #NAME? instead of a guessed value.
 *
 * Custom function arguments are passed as Sheets passes them: literals as values, a single cell as its
 * value (a Date under a date format, '' when empty), a range as a 2D array. An array result spills into
 * the cells below and to the right, unless that would overwrite data or leave the sheet.
 */
import { type A1Reference, cellA1, parseA1, referenceBox } from './a1-notation';
import { cellValue } from './cell-values';
import {
  type Cell,
  type CellError,
  type CellValue,
  LOADING,
  clearCellContent,
  hasContent,
  isCellError,
} from './cells';
import { boxHeight, boxWidth } from './grid-box';
import { conventionsOf } from './locale-conventions';
import { serialOfInstant } from './serial-dates';
import { evaluateArithmetic } from './typed-input';
import type { SheetModel, WorkbookModel } from './workbook-model';

/**
 * How a cell's custom function is computed: `spreadsheetId` is the document of the cell. Throws
 * UnknownFunctionError for a name that is not a custom function.
 */
export type CustomFunctionEvaluator = (name: string, args: unknown[], spreadsheetId: string) => unknown;

/** Thrown by a runtime's evaluateCustomFunction when no such function exists: the cell shows #NAME?. */
export class UnknownFunctionError extends Error {
  constructor(name: string) {
    super(`Unknown function: '${name}'.`);
    this.name = 'UnknownFunctionError';
  }
}

export const MAX_CELL_CHARACTERS = 50_000;
/**
 * The formats given to a Date a script writes or a formula returns (Sheets uses the locale's own date
 * formats; the emulator uses one, unambiguous in any locale).
 */
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const DATE_FORMAT = 'yyyy-mm-dd';

type FormulaArgument =
  { kind: 'literal'; value: string | number | boolean } | { kind: 'reference'; reference: A1Reference };

type ParsedFormula =
  | { kind: 'arithmetic'; value: number | null }
  | { kind: 'call'; name: string; args: FormulaArgument[] }
  | { kind: 'parse-error' }
  | { kind: 'unsupported' };

/** What the emulator's formulas depend on besides their text and their spreadsheet's locale. */
export interface FormulaSupport {
  /** Whether a runtime evaluates other function names later; without one they are unknown (#NAME?). */
  customFunctions: boolean;
  /** The reading of readings.ts: whether `;` separates arguments in a point-decimal locale too. */
  semicolonArgumentsInEveryLocale: boolean;
}

/**
 * How a spreadsheet's locale writes a formula: where decimals are written with a comma, `;` alone
 * separates arguments and `,` is the decimal mark (=ROUND(1,5;0)); elsewhere `,` separates them, and
 * `;` too under the looser reading of semicolonArgumentsInEveryLocale.
 */
interface FormulaSyntax {
  decimalMark: '.' | ',';
  separators: readonly string[];
}

function syntaxOf(locale: string, support: FormulaSupport): FormulaSyntax {
  const { decimalMark } = conventionsOf(locale);
  if (decimalMark === ',') return { decimalMark, separators: [';'] };
  return { decimalMark, separators: support.semicolonArgumentsInEveryLocale ? [',', ';'] : [','] };
}

/**
 * Splits on top-level separators outside "strings" and 'sheet names'. Null when quotes do not close.
 * `stray`: whether the part holds a `,` or `;` that does not separate arguments here (a decimal
 * comma, or a parse error).
 */
function splitArguments(
  text: string,
  separators: readonly string[],
): Array<{ text: string; stray: boolean }> | null {
  const parts: Array<{ text: string; stray: boolean }> = [];
  let current = { text: '', stray: false };
  let quote: string | null = null;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (separators.includes(char)) {
      parts.push(current);
      current = { text: '', stray: false };
      continue;
    } else if (char === ',' || char === ';') {
      current.stray = true;
    }
    current.text += char;
  }
  if (quote) return null;
  parts.push(current);
  return parts;
}

function numberPattern(decimalMark: '.' | ','): RegExp {
  const mark = decimalMark === '.' ? '\\.' : ',';
  return new RegExp(`^[+-]?(?:\\d+${mark}?\\d*|${mark}\\d+)(?:[eE][+-]?\\d+)?$`);
}

const NUMBER_PATTERNS = { '.': numberPattern('.'), ',': numberPattern(',') };

function parseArgument(text: string, decimalMark: '.' | ','): FormulaArgument | null {
  const trimmed = text.trim();
  // An argument left out (=F(a;;c)) reaches the function as an empty value, as an empty cell does.
  if (trimmed === '') return { kind: 'literal', value: '' };
  const string = /^"((?:[^"]|"")*)"$/.exec(trimmed);
  if (string) return { kind: 'literal', value: string[1]!.replace(/""/g, '"') };
  if (NUMBER_PATTERNS[decimalMark].test(trimmed))
    return { kind: 'literal', value: Number(trimmed.replace(decimalMark, '.')) };
  if (/^true$/i.test(trimmed)) return { kind: 'literal', value: true };
  if (/^false$/i.test(trimmed)) return { kind: 'literal', value: false };
  const reference = parseA1(trimmed);
  return reference ? { kind: 'reference', reference } : null;
}

function parseFormula(formula: string, syntax: FormulaSyntax): ParsedFormula {
  const body = formula.slice(1).trim();
  const call = /^([A-Za-z_][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)$/.exec(body);
  if (call) {
    const inner = call[2]!;
    const parts = inner.trim() === '' ? [] : splitArguments(inner, syntax.separators);
    if (!parts) return { kind: 'unsupported' };
    // A `,` or `;` that separates nothing here is a parse error, unless it is a number's decimal mark.
    const isDecimalNumber = (part: string) =>
      syntax.decimalMark === ',' && NUMBER_PATTERNS[','].test(part.trim());
    if (parts.some((part) => part.stray && !isDecimalNumber(part.text))) return { kind: 'parse-error' };
    const args = parts.map((part) => parseArgument(part.text, syntax.decimalMark));
    if (args.every((arg): arg is FormulaArgument => arg !== null)) {
      return { kind: 'call', name: call[1]!, args };
    }
    return { kind: 'unsupported' };
  }
  const arithmetic = syntax.decimalMark === '.' ? /^[\d\s.+\-*/^%()eE]+$/ : /^[\d\s,+\-*/^%()eE]+$/;
  if (arithmetic.test(body))
    return { kind: 'arithmetic', value: evaluateArithmetic(body.replace(/,/g, '.')) };
  return { kind: 'unsupported' };
}

export function arithmeticResult(value: number | null): CellValue {
  if (value === null) return { code: '#ERROR!', message: 'Formula parse error.' };
  if (!Number.isFinite(value))
    return { code: '#DIV/0!', message: 'Function DIVIDE parameter 2 cannot be zero.' };
  return value;
}

export interface FormulaCell {
  sheet: SheetModel;
  row: number;
  column: number;
  cell: Cell;
}

/**
 * Stores a formula and computes what can be computed at once, in the syntax of the spreadsheet's
 * locale. A formula that does not parse is kept and shows #ERROR!, as Sheets keeps it.
 */
export function applyFormula(target: FormulaCell, formula: string, support: FormulaSupport): void {
  const { cell } = target;
  clearCellContent(cell);
  cell.formula = formula;
  const parsed = parseFormula(formula, syntaxOf(target.sheet.workbook.locale, support));
  if (parsed.kind === 'arithmetic') {
    cell.value = arithmeticResult(parsed.value);
  } else if (parsed.kind === 'parse-error') {
    cell.value = arithmeticResult(null);
  } else if (parsed.kind === 'unsupported') {
    cell.value = { code: '#NAME?', message: 'The emulator does not compute this formula.' };
  } else if (parsed.name.toUpperCase() === 'HYPERLINK') {
    applyHyperlink(target, parsed.args);
  } else {
    cell.value = support.customFunctions ? LOADING : unknownFunction(parsed.name);
  }
}

function unknownFunction(name: string): CellError {
  return { code: '#NAME?', message: `Unknown function: '${name}'.` };
}

type ArgumentValue = string | number | boolean | Date | ArgumentValue[][];

/** A resolved argument, or the error the formula shows instead (a bad reference, an error cell). */
function argumentValue(
  sheet: SheetModel,
  argument: FormulaArgument,
  makeDate: (ms: number) => Date,
): ArgumentValue | CellError {
  if (argument.kind === 'literal') return argument.value;
  const { reference } = argument;
  const target =
    reference.sheetName === null ? sheet : sheet.workbook.sheetByNameIgnoringCase(reference.sheetName);
  if (!target) return { code: '#REF!', message: `Unresolved sheet name '${reference.sheetName}'.` };
  const box = referenceBox(reference, target.maxRows, target.maxColumns);
  if (box.bottom > target.maxRows || box.right > target.maxColumns) {
    return { code: '#REF!', message: 'Reference is outside the sheet.' };
  }
  const read = (row: number, column: number): ArgumentValue =>
    cellValue(target.cells.get(row, column), target.workbook.timeZone, makeDate);
  if (boxHeight(box) === 1 && boxWidth(box) === 1) {
    const value = target.cells.get(box.top, box.left)?.value;
    return isCellError(value) ? value : read(box.top, box.left);
  }
  const rows: ArgumentValue[][] = [];
  for (let row = box.top; row <= box.bottom; row++) {
    const values: ArgumentValue[] = [];
    for (let column = box.left; column <= box.right; column++) values.push(read(row, column));
    rows.push(values);
  }
  return rows;
}

function applyHyperlink(target: FormulaCell, args: FormulaArgument[]): void {
  const { cell, sheet } = target;
  if (args.length < 1 || args.length > 2) {
    cell.value = {
      code: '#N/A',
      message: `Wrong number of arguments to HYPERLINK. Expected between 1 and 2 arguments, but got ${args.length} arguments.`,
    };
    return;
  }
  const [url, label = url] = args.map((arg) => argumentValue(sheet, arg, (ms) => new Date(ms)));
  const error = [url, label].find(isCellError);
  if (error) {
    cell.value = error;
  } else if (Array.isArray(url) || Array.isArray(label) || url instanceof Date || label instanceof Date) {
    cell.value = { code: '#VALUE!', message: 'HYPERLINK takes a text URL and label.' };
  } else {
    cell.link = String(url);
    cell.value = label as string | number | boolean;
  }
}

interface ResultCell {
  value: CellValue | undefined;
  format?: string;
}

function resultCell(value: unknown, timeZone: string): ResultCell {
  if (value === null || value === undefined || value === '') return { value: undefined };
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? { value }
      : { value: { code: '#NUM!', message: 'The result is not a finite number.' } };
  }
  if (typeof value === 'boolean') return { value };
  if (typeof value === 'string') {
    return value.length > MAX_CELL_CHARACTERS
      ? {
          value: {
            code: '#ERROR!',
            message: `Text result is longer than the limit of ${MAX_CELL_CHARACTERS} characters.`,
          },
        }
      : { value };
  }
  if (Object.prototype.toString.call(value) === '[object Date]') {
    const epochMs = (value as Date).getTime();
    if (Number.isNaN(epochMs)) return { value: { code: '#NUM!', message: 'The result is an invalid Date.' } };
    const serial = serialOfInstant(epochMs, timeZone);
    return { value: serial, format: Number.isInteger(serial) ? DATE_FORMAT : DATE_TIME_FORMAT };
  }
  return {
    value: { code: '#ERROR!', message: `Unsupported result: ${Object.prototype.toString.call(value)}.` },
  };
}

/** A result as rows of cells: a 2D array as is (short rows padded), a 1D array as a column. */
function resultGrid(result: unknown, timeZone: string): ResultCell[][] | CellError {
  if (!Array.isArray(result)) return [[resultCell(result, timeZone)]];
  if (result.length === 0) return { code: '#N/A', message: 'The result was empty.' };
  const rows = result.map((row: unknown) => (Array.isArray(row) ? row : [row]));
  const width = Math.max(...rows.map((row) => row.length));
  if (width === 0) return { code: '#N/A', message: 'The result was empty.' };
  return rows.map((row) => Array.from({ length: width }, (_, i) => resultCell(row[i], timeZone)));
}

function errorMessageOf(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown) return String(thrown.message);
  return String(thrown);
}

function recalculateCustomFormula(
  target: FormulaCell,
  name: string,
  args: FormulaArgument[],
  evaluate: CustomFunctionEvaluator | undefined,
  makeDate: (ms: number) => Date,
): void {
  const { sheet, row, column, cell } = target;
  const formula = cell.formula;
  clearCellContent(cell);
  cell.formula = formula;
  if (!evaluate) {
    cell.value = unknownFunction(name);
    return;
  }
  const values = args.map((arg) => argumentValue(sheet, arg, makeDate));
  const argumentError = values.find(isCellError);
  if (argumentError) {
    cell.value = argumentError;
    return;
  }
  let result: unknown;
  try {
    result = evaluate(name, values, sheet.workbook.id);
  } catch (thrown) {
    cell.value =
      thrown instanceof UnknownFunctionError
        ? unknownFunction(name)
        : { code: '#ERROR!', message: errorMessageOf(thrown) };
    return;
  }
  const grid = resultGrid(result, sheet.workbook.timeZone);
  if (isCellError(grid)) {
    cell.value = grid;
    return;
  }
  const blocked = spillBlocker(target, grid.length, grid[0]!.length);
  if (blocked) {
    cell.value = blocked;
    return;
  }
  cell.spill = [];
  grid.forEach((cells, i) =>
    cells.forEach((result, j) => {
      if (i === 0 && j === 0) {
        cell.value = result.value;
        cell.resultFormat = result.format;
        return;
      }
      if (result.value === undefined) return;
      const spilled = sheet.cells.edit(row + i, column + j);
      spilled.value = result.value;
      spilled.resultFormat = result.format;
      spilled.spilledFrom = cell;
      cell.spill!.push(spilled);
    }),
  );
}

/** Why an array result cannot spill, in Sheets' words, or null when it can. */
function spillBlocker({ sheet, row, column }: FormulaCell, rows: number, columns: number): CellError | null {
  const missingRows = row + rows - 1 - sheet.maxRows;
  if (missingRows > 0) {
    return {
      code: '#REF!',
      message: `Result was not automatically expanded, please insert more rows (${missingRows}).`,
    };
  }
  const missingColumns = column + columns - 1 - sheet.maxColumns;
  if (missingColumns > 0) {
    return {
      code: '#REF!',
      message: `Result was not automatically expanded, please insert more columns (${missingColumns}).`,
    };
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      if ((i > 0 || j > 0) && hasContent(sheet.cells.get(row + i, column + j))) {
        return {
          code: '#REF!',
          message: `Array result was not expanded because it would overwrite data in ${cellA1(row + i, column + j)}.`,
        };
      }
    }
  }
  return null;
}

/** Recomputes every custom function formula of a workbook, sheet by sheet, row by row. */
export function recalculateWorkbook(
  workbook: WorkbookModel,
  evaluate: CustomFunctionEvaluator | undefined,
  makeDate: (ms: number) => Date,
  support: FormulaSupport,
): void {
  const syntax = syntaxOf(workbook.locale, support);
  for (const sheet of [...workbook.sheets]) {
    const everything = { top: 1, left: 1, bottom: sheet.maxRows, right: sheet.maxColumns };
    const formulas = [...sheet.cells.cellsIn(everything)].filter(({ cell }) => cell.formula !== undefined);
    for (const { row, column, cell } of formulas) {
      const parsed = parseFormula(cell.formula!, syntax);
      if (parsed.kind !== 'call' || parsed.name.toUpperCase() === 'HYPERLINK') continue;
      recalculateCustomFormula({ sheet, row, column, cell }, parsed.name, parsed.args, evaluate, makeDate);
    }
  }
}
