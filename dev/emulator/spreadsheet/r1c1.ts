/**
 * Formulas between A1 and R1C1 notation, as getFormulasR1C1 and setFormulasR1C1 convert them: relative
 * A1 parts become offsets from the formula's own cell ("B3" in D5 is "R[-2]C[-2]", a zero offset written
 * "R[0]"), `$` parts become absolute numbers ("$B$3" is "R3C2"). String literals, function names and
 * names that are not references are left as they are; a reference moved off the sheet becomes #REF!.
 * The same scan finds the A1 references that reference-adjustment.ts moves with their cells.
 */
import { MAX_COLUMNS, MAX_ROWS, columnLetters, columnNumber } from './a1-notation';

/** A row or column of a reference: its number when absolute, its offset from the formula's cell if not. */
interface Part {
  absolute: boolean;
  value: number;
}

/** One end of a reference: a cell, or a row or column alone ("2:5", "B:C", the "C" of "A2:C"). */
interface Corner {
  row?: Part;
  column?: Part;
}

interface Origin {
  row: number;
  column: number;
}

interface Notation {
  /** Matches a reference: an optional sheet prefix, a corner, and a range's second corner. */
  pattern: RegExp;
  /** Null when the text is not a corner of this notation after all. */
  readCorner(text: string, origin: Origin): Corner | null;
  /** Null when the corner falls off the sheet. */
  writeCorner(corner: Corner, origin: Origin): string | null;
}

const SHEET_PREFIX = String.raw`(?:'(?:[^']|'')+'|[\p{L}\p{N}_.]+)!`;
const NAME_CHARACTER = /[\p{L}\p{N}_.$]/u;
const NAME = /[\p{L}\p{N}_.$]+/uy;
/** What cannot follow a reference: more of a name ("A1B", "LOG10("), or a sheet name's "!". */
const NOT_AFTER_REFERENCE = /[\p{L}\p{N}_.$(!]/u;

function referencePattern(corner: string): RegExp {
  return new RegExp(`(${SHEET_PREFIX})?(${corner})(?::(${corner}))?`, 'iuy');
}

function isInSheet(row: number | undefined, column: number | undefined): boolean {
  return (
    (row === undefined || (row >= 1 && row <= MAX_ROWS)) &&
    (column === undefined || (column >= 1 && column <= MAX_COLUMNS))
  );
}

function a1Part(dollar: string, number: number, origin: number): Part {
  const absolute = dollar === '$';
  return { absolute, value: absolute ? number : number - origin };
}

function a1Text(part: Part, origin: number, write: (number: number) => string): string {
  return (part.absolute ? '$' : '') + write(part.absolute ? part.value : origin + part.value);
}

const A1: Notation = {
  pattern: referencePattern(String.raw`\$?[A-Z]{1,3}(?:\$?[1-9]\d*)?|\$?[1-9]\d*`),
  readCorner(text, origin) {
    const [, columnDollar = '', letters, rowDollar = '', digits] =
      /^(?:(\$?)([A-Z]+))?(?:(\$?)(\d+))?$/i.exec(text)!;
    const row = digits === undefined ? undefined : Number(digits);
    const column = letters === undefined ? undefined : columnNumber(letters);
    if (!isInSheet(row, column)) return null;
    return {
      row: row === undefined ? undefined : a1Part(rowDollar, row, origin.row),
      column: column === undefined ? undefined : a1Part(columnDollar, column, origin.column),
    };
  },
  writeCorner(corner, origin) {
    const row = corner.row && (corner.row.absolute ? 0 : origin.row) + corner.row.value;
    const column = corner.column && (corner.column.absolute ? 0 : origin.column) + corner.column.value;
    if (!isInSheet(row, column)) return null;
    const letters = corner.column ? a1Text(corner.column, origin.column, columnLetters) : '';
    const digits = corner.row ? a1Text(corner.row, origin.row, String) : '';
    return letters + digits;
  },
};

const R1C1_PART = String.raw`(?:\[[+-]?\d+\]|[1-9]\d*)?`;

/** "" (a bare R or C) is the formula's own row or column, "[-2]" an offset, "3" an absolute number. */
function r1c1Part(text: string): Part {
  if (text === '') return { absolute: false, value: 0 };
  if (text.startsWith('[')) return { absolute: false, value: Number(text.slice(1, -1)) };
  return { absolute: true, value: Number(text) };
}

function r1c1Text(letter: string, part: Part): string {
  return letter + (part.absolute ? String(part.value) : `[${part.value}]`);
}

const R1C1: Notation = {
  pattern: referencePattern(`R${R1C1_PART}(?:C${R1C1_PART})?|C${R1C1_PART}`),
  readCorner(text) {
    const [, rowText, columnText] = /^(?:R([^C]*))?(?:C(.*))?$/i.exec(text)!;
    const row = rowText === undefined ? undefined : r1c1Part(rowText);
    const column = columnText === undefined ? undefined : r1c1Part(columnText);
    return isInSheet(row?.absolute ? row.value : undefined, column?.absolute ? column.value : undefined)
      ? { row, column }
      : null;
  },
  writeCorner(corner) {
    return (
      (corner.row ? r1c1Text('R', corner.row) : '') + (corner.column ? r1c1Text('C', corner.column) : '')
    );
  },
};

/**
 * A lone corner must be a cell ("B" alone is a name, "3" a number); a range's corners must share a
 * dimension ("A:C", "2:5", "A2:C", but not "A:5").
 */
function isReference(start: Corner, end: Corner | undefined): boolean {
  if (!end) return start.row !== undefined && start.column !== undefined;
  return (
    (start.column !== undefined && end.column !== undefined) ||
    (start.row !== undefined && end.row !== undefined)
  );
}

/** The reference `match` found, in the other notation; null when it is not a reference after all. */
function rewriteReference(
  match: RegExpExecArray,
  from: Notation,
  to: Notation,
  origin: Origin,
): string | null {
  const [, prefix = '', startText, endText] = match;
  const start = from.readCorner(startText!, origin);
  const end = endText === undefined ? undefined : from.readCorner(endText, origin);
  if (!start || end === null || !isReference(start, end)) return null;
  const written = [start, end]
    .filter((corner) => corner !== undefined)
    .map((corner) => to.writeCorner(corner, origin));
  return written.includes(null) ? '#REF!' : prefix + written.join(':');
}

/** The index just past the quote that closes the one at `start` (a doubled quote stays inside). */
function pastClosingQuote(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    if (text[index] !== quote) index += 1;
    else if (text[index + 1] === quote) index += 2;
    else return index + 1;
  }
  return text.length;
}

function pastName(text: string, start: number): number {
  NAME.lastIndex = start;
  NAME.exec(text);
  return NAME.lastIndex;
}

/** The reference `pattern` finds at `index`, rewritten, and where it ends; null when none starts there. */
function referenceAt(
  formula: string,
  index: number,
  pattern: RegExp,
  rewrite: (match: RegExpExecArray) => string | null,
): { text: string; end: number } | null {
  pattern.lastIndex = index;
  const match = pattern.exec(formula);
  if (!match) return null;
  const end = index + match[0].length;
  if (end < formula.length && NOT_AFTER_REFERENCE.test(formula[end]!)) return null;
  const text = rewrite(match);
  return text === null ? null : { text, end };
}

/**
 * Rewrites every reference `pattern` finds outside string literals; `rewrite` returns null for a match
 * that is not a reference after all.
 */
function rewriteMatches(
  formula: string,
  pattern: RegExp,
  rewrite: (match: RegExpExecArray) => string | null,
): string {
  let converted = '';
  let index = 0;
  while (index < formula.length) {
    const character = formula[index]!;
    let end = index + 1;
    if (character === '"') {
      end = pastClosingQuote(formula, index);
    } else if (character === "'" || NAME_CHARACTER.test(character)) {
      const reference = referenceAt(formula, index, pattern, rewrite);
      if (reference) {
        converted += reference.text;
        index = reference.end;
        continue;
      }
      // Not a reference: the whole name is copied, so that its tail is not taken for one.
      end = character === "'" ? pastClosingQuote(formula, index) : pastName(formula, index);
    }
    converted += formula.slice(index, end);
    index = end;
  }
  return converted;
}

function convert(formula: string, from: Notation, to: Notation, origin: Origin): string {
  return rewriteMatches(formula, from.pattern, (match) => rewriteReference(match, from, to, origin));
}

/** An A1 reference as written in a formula: its sheet prefix ("Sheet1!", "'My tab'!" or ""), its corners. */
export interface WrittenReference {
  prefix: string;
  start: string;
  end: string | undefined;
}

/**
 * Rewrites every A1 reference of a formula (string literals and names left alone); `rewrite` returns
 * the new text, or null when the match is not a reference after all (a lone "B" is a name).
 */
export function rewriteA1References(
  formula: string,
  rewrite: (reference: WrittenReference) => string | null,
): string {
  return rewriteMatches(formula, A1.pattern, ([, prefix = '', start, end]) =>
    rewrite({ prefix, start: start!, end }),
  );
}

/** An A1 formula as R1C1, relative to the cell (1-based `row`, `column`) that holds it. */
export function formulaToR1C1(formula: string, row: number, column: number): string {
  return convert(formula, A1, R1C1, { row, column });
}

/** An R1C1 formula as the A1 formula of the cell (1-based `row`, `column`) that holds it. */
export function formulaFromR1C1(formula: string, row: number, column: number): string {
  return convert(formula, R1C1, A1, { row, column });
}
