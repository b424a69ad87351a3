/**
 * Reading the arguments Sheets hands a custom function: a literal or a one-cell reference arrives
 * as its value ('' for an empty cell, a Date for a date-formatted cell), a range as a 2D array, a
 * left-out argument as undefined. Each reader accepts what a user can reasonably mean, converts it
 * (a number typed where an id belongs becomes the id's text), and otherwise throws a message that
 * names the argument, so nothing is sent to the service for an argument that cannot be valid.
 */
import { MAX_PAGE_SIZE } from '../api/completions-contract';
import {
  type CalendarDate,
  epochMsToSheetSerial,
  fromSheetSerial,
  parseDateCell,
  type UtcOffsetAt,
} from '../lib/dates';

/** An argument a function cannot use; the message names it and says what would do. */
export class FormulaArgumentError extends Error {
  constructor(
    readonly argument: string,
    problem: string,
  ) {
    super(`${argument} ${problem}`);
    this.name = 'FormulaArgumentError';
  }
}

const QUOTED_TEXT_LENGTH = 40;

/** A value as a message quotes it. */
function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, QUOTED_TEXT_LENGTH));
  if (isDate(value)) return 'a date';
  return String(value);
}

// Not `instanceof Date`: Sheets' Dates may come from another realm.
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** A left-out argument or an empty cell. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function rangeSize(range: unknown[]): string {
  const rows = range.length;
  const columns = Array.isArray(range[0]) ? range[0].length : 1;
  return `${rows}×${columns}`;
}

/** The one value of an argument that must not be a range (a one-cell array is that cell). */
export function single(value: unknown, argument: string): unknown {
  if (!Array.isArray(value)) return value;
  const only =
    value.length === 1 && Array.isArray(value[0]) && value[0].length === 1 ? value[0][0] : undefined;
  if (only !== undefined) return only;
  throw new FormulaArgumentError(argument, `must be one value, not a range (${rangeSize(value)} cells)`);
}

/** An id as text, or undefined when left out. Numbers become their digits; dates and TRUE/FALSE are refused. */
export function optionalId(value: unknown, argument: string): string | undefined {
  const one = single(value, argument);
  if (isBlank(one)) return undefined;
  return idText(one, argument);
}

/** Ids are opaque: "  padded  " is its own id, kept as typed (an id of only spaces counts as left out). */
function idText(value: unknown, argument: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FormulaArgumentError(argument, `must be an id (text or a number), not ${quote(value)}`);
}

function wholeNumber(value: unknown, argument: string, min: number, max: number): number {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new FormulaArgumentError(argument, `must be a whole number ${range}, not ${quote(value)}`);
  }
  return number;
}

/**
 * A name to compare with a tab's cells (a site, a department, a role), trimmed, or undefined when
 * left out; a number is its digits (a department may be "200").
 */
export function optionalText(value: unknown, argument: string): string | undefined {
  const one = single(value, argument);
  if (isBlank(one)) return undefined;
  if (typeof one === 'string') return one.trim();
  if (typeof one === 'number' && Number.isFinite(one)) return String(one);
  throw new FormulaArgumentError(argument, `must be text, not ${quote(one)}`);
}

/** How many records at most: 1 to 1000 (the service's page limit), or undefined for all; numeric text too. */
export function optionalLimit(value: unknown): number | undefined {
  const one = single(value, 'limit');
  return isBlank(one) ? undefined : wholeNumber(one, 'limit', 1, MAX_PAGE_SIZE);
}

/** TRUE or FALSE (also 1 or 0, or the words), `fallback` when left out. */
export function optionalFlag(value: unknown, argument: string, fallback: boolean): boolean {
  const one = single(value, argument);
  if (isBlank(one)) return fallback;
  if (typeof one === 'boolean') return one;
  if (one === 1 || one === 0) return one === 1;
  if (typeof one === 'string' && /^\s*(true|false)\s*$/i.test(one))
    return one.trim().toLowerCase() === 'true';
  throw new FormulaArgumentError(argument, `must be TRUE or FALSE, not ${quote(one)}`);
}

/** One of `choices` (case-insensitive), `fallback` when left out. */
export function optionalChoice<T extends string>(
  value: unknown,
  argument: string,
  choices: readonly T[],
  fallback: T,
): T {
  const one = single(value, argument);
  if (isBlank(one)) return fallback;
  const choice =
    typeof one === 'string' ? choices.find((candidate) => candidate === one.trim().toLowerCase()) : undefined;
  if (choice === undefined) {
    throw new FormulaArgumentError(
      argument,
      `must be one of ${choices.map((c) => `"${c}"`).join(', ')}, not ${quote(one)}`,
    );
  }
  return choice;
}

/** A rectangle of cells: what a range argument holds, and what a function returns for it. */
export interface Shape {
  rows: number;
  columns: number;
}

function shapeOf(range: unknown[]): Shape {
  return { rows: range.length, columns: Array.isArray(range[0]) ? range[0].length : 1 };
}

/**
 * The shape shared by the range arguments (1×1 when every argument is one value). Arguments given
 * as one value apply to every cell; ranges must all have the same size.
 */
export function commonShape(args: Readonly<Record<string, unknown>>): Shape {
  let found: { argument: string; shape: Shape } | undefined;
  for (const [argument, value] of Object.entries(args)) {
    if (!Array.isArray(value)) continue;
    const shape = shapeOf(value);
    if (!found) found = { argument, shape };
    else if (found.shape.rows !== shape.rows || found.shape.columns !== shape.columns) {
      throw new FormulaArgumentError(
        argument,
        `is a ${shape.rows}×${shape.columns} range but ${found.argument} is ${found.shape.rows}×${found.shape.columns}: give ranges of the same size, or one value`,
      );
    }
  }
  return found?.shape ?? { rows: 1, columns: 1 };
}

/** The value an argument gives the cell at (row, column) of the common shape. */
export function cellOf(value: unknown, row: number, column: number): unknown {
  if (!Array.isArray(value)) return value;
  const line: unknown = value[row];
  return Array.isArray(line) ? line[column] : line;
}

/** Where a cell of a range sits, for messages ('' when the function was given single values). */
export function positionOf(shape: Shape, row: number, column: number): string {
  if (shape.rows === 1 && shape.columns === 1) return '';
  return shape.columns === 1
    ? ` (row ${row + 1} of the range)`
    : ` (row ${row + 1}, column ${column + 1} of the range)`;
}

/** Every cell of a required argument that may be one value or a range, as a grid. */
export function grid(value: unknown): unknown[][] {
  if (!Array.isArray(value)) return [[value]];
  return value.map((line: unknown) => (Array.isArray(line) ? line : [line]));
}

/** The id in one cell of an id range, or '' for an empty cell. */
export function idCell(value: unknown, argument: string): string {
  return isBlank(value) ? '' : idText(value, argument);
}

/**
 * The zones a date cell's Date may have been made in: Google does not document whether a custom
 * function receives a date cell as midnight of the spreadsheet's zone or of the script's.
 */
export interface DateCellZones {
  /** The spreadsheet's offsets: the zone its users' days are in. */
  utcOffsetAt: UtcOffsetAt;
  /** The script's offsets (Session.getScriptTimeZone()). */
  scriptUtcOffsetAt: UtcOffsetAt;
}

/**
 * A date argument: a date cell, a date serial or 'YYYY-MM-DD' text; null when empty. A time of day
 * is refused: it is what NOW() gives, and a formula recalculates only when its arguments change.
 *
 * A Date is a whole day when it is a midnight of either zone, and its day is the one it begins
 * there (see wholeDayOf).
 */
export function dateCell(value: unknown, argument: string, zones: DateCellZones): CalendarDate | null {
  const parsed = parseDateCell(value, zones.utcOffsetAt);
  if (parsed.kind === 'empty') return null;
  if (parsed.kind === 'notADate') {
    throw new FormulaArgumentError(
      argument,
      `is not a date: ${parsed.text}. Give a date cell, DATE(2024, 3, 1) or "2024-03-01"`,
    );
  }
  const day = isDate(value) ? wholeDayOf(value, zones) : parsed.date;
  if (day === null || (typeof value === 'number' && !Number.isInteger(value))) {
    throw new FormulaArgumentError(
      argument,
      'has a time of day, as NOW() gives; a formula cannot follow a value that changes every second. Give a date without a time: TODAY(), a date cell, or INT() of a date-time',
    );
  }
  return day;
}

/**
 * The day a date cell's Date stands for: the day whose midnight it is, in the spreadsheet's zone or
 * else the script's, whichever Google made it in, however far apart the two zones are; null for a
 * Date with a time of day. (Only zones a whole day apart, UTC+14 and UTC−10, share midnights: the
 * spreadsheet's day is taken.)
 */
export function wholeDayOf(value: Date, zones: DateCellZones): CalendarDate | null {
  for (const offsetAt of [zones.utcOffsetAt, zones.scriptUtcOffsetAt]) {
    const serial = epochMsToSheetSerial(value.getTime(), offsetAt);
    if (Number.isInteger(serial)) return fromSheetSerial(serial);
  }
  return null;
}

/** A number in one cell of a range argument (numeric text too), or null when empty. */
export function numberCell(value: unknown, argument: string): number | null {
  if (isBlank(value)) return null;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new FormulaArgumentError(argument, `must be a number, not ${quote(value)}`);
  }
  return number;
}

/** A whole number in one cell of a range argument, or null when empty. */
export function wholeNumberCell(value: unknown, argument: string, min: number): number | null {
  return isBlank(value) ? null : wholeNumber(value, argument, min, Number.MAX_SAFE_INTEGER);
}

/** Text in one cell of a range argument ('' when empty); other values are refused. */
export function textCell(value: unknown, argument: string): string {
  if (isBlank(value)) return '';
  if (typeof value === 'string') return value.trim();
  throw new FormulaArgumentError(argument, `must be text, not ${quote(value)}`);
}
