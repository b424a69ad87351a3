/**
 * Argument checks for script-visible methods. Apps Script checks types at the boundary and rejects
 * what does not fit the signature; the emulator does too, and also refuses fractional row and column
 * numbers that Apps Script might round, because they are always a bug in the caller.
 */
import { AppsScriptException } from '../core';

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '(class)';
  if (Array.isArray(value)) return 'Object[]';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'number') return 'number';
  return 'Object';
}

export function signatureMismatch(method: string, args: readonly unknown[]): AppsScriptException {
  return new AppsScriptException(
    `The parameters (${args.map(typeName).join(',')}) don't match the method signature for SpreadsheetApp.${method}.`,
  );
}

/** The arguments of an overloaded call without trailing undefined ones (optional parameters left out). */
export function givenArguments(...args: unknown[]): unknown[] {
  const given = [...args];
  while (given.length > 0 && given[given.length - 1] === undefined) given.pop();
  return given;
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** `method` is "Class.method"; `args` all the call's arguments, for the message. */
export function requireIntegers(method: string, args: readonly unknown[], values: readonly unknown[]): void {
  if (!values.every(isInteger)) throw signatureMismatch(method, args);
}

export function requireString(
  method: string,
  args: readonly unknown[],
  value: unknown,
): asserts value is string {
  if (typeof value !== 'string') throw signatureMismatch(method, args);
}

export function requireBoolean(
  method: string,
  args: readonly unknown[],
  value: unknown,
): asserts value is boolean {
  if (typeof value !== 'boolean') throw signatureMismatch(method, args);
}

/** A 2D array argument, without checking its size (see checkGridSize). */
export function requireGrid(method: string, args: readonly unknown[], value: unknown): unknown[][] {
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row)))
    throw signatureMismatch(method, args);
  return value as unknown[][];
}

/** The exact messages of Range.setValues and the other 2D setters; a ragged row fails the column check. */
export function checkGridSize(grid: unknown[][], numRows: number, numColumns: number): void {
  if (grid.length !== numRows) {
    throw new AppsScriptException(
      `The number of rows in the data does not match the number of rows in the range. The data has ${grid.length} but the range has ${numRows}.`,
    );
  }
  for (const row of grid) {
    if (row.length !== numColumns) {
      throw new AppsScriptException(
        `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${numColumns}.`,
      );
    }
  }
}

const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  maroon: '#800000',
  olive: '#808000',
  lime: '#00ff00',
  aqua: '#00ffff',
  cyan: '#00ffff',
  teal: '#008080',
  navy: '#000080',
  fuchsia: '#ff00ff',
  magenta: '#ff00ff',
  pink: '#ffc0cb',
  brown: '#a52a2a',
  lightgray: '#d3d3d3',
  lightgrey: '#d3d3d3',
};

/**
 * A colour as Sheets stores it ('#rrggbb', lower case). Sheets accepts any CSS colour; the emulator
 * accepts hex and the common names above and refuses the rest rather than guess.
 */
export function normalizeColor(method: string, args: readonly unknown[], color: unknown): string {
  if (typeof color !== 'string') throw signatureMismatch(method, args);
  const text = color.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  const named = NAMED_COLORS[text];
  if (named) return named;
  throw new AppsScriptException(
    `Invalid color: "${color}" (the emulator accepts #rgb, #rrggbb and basic CSS names).`,
  );
}
