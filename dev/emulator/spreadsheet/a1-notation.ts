/**
 * A1 notation: "B3", "A1:C10", "A:C" (whole columns), "2:5" (whole rows), "A2:C" (open-ended down),
 * optionally prefixed by a sheet name ("Sheet1!A1", "'Sheet name'!A1:B2", quotes doubled inside).
 */
import type { GridBox } from './grid-box';

export const MAX_COLUMNS = 18_278; // ZZZ
/** Sheets holds at most ten million cells, so no sheet has more rows. */
export const MAX_ROWS = 10_000_000;

export function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

export function columnNumber(letters: string): number {
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column;
}

export function cellA1(row: number, column: number): string {
  return `${columnLetters(column)}${row}`;
}

export function boxA1(box: GridBox): string {
  const start = cellA1(box.top, box.left);
  return box.top === box.bottom && box.left === box.right
    ? start
    : `${start}:${cellA1(box.bottom, box.right)}`;
}

/** Bounds as written; null where the notation leaves them open ("A:C" has no rows). */
export interface A1Reference {
  sheetName: string | null;
  top: number | null;
  left: number | null;
  bottom: number | null;
  right: number | null;
}

interface Corner {
  row: number | null;
  column: number | null;
}

const CORNER = /^\$?([A-Za-z]{1,3})?\$?([0-9]+)?$/;

function parseCorner(text: string): Corner | null {
  const match = CORNER.exec(text);
  if (!match || (!match[1] && !match[2])) return null;
  const column = match[1] ? columnNumber(match[1]) : null;
  const row = match[2] ? Number(match[2]) : null;
  if ((column !== null && column > MAX_COLUMNS) || row === 0) return null;
  return { row, column };
}

function splitSheetName(text: string): { sheetName: string | null; rest: string } | null {
  if (text.startsWith("'")) {
    const match = /^'((?:[^']|'')+)'!(.*)$/.exec(text);
    return match ? { sheetName: match[1]!.replace(/''/g, "'"), rest: match[2]! } : null;
  }
  const bang = text.lastIndexOf('!');
  if (bang === -1) return { sheetName: null, rest: text };
  return bang === 0 ? null : { sheetName: text.slice(0, bang), rest: text.slice(bang + 1) };
}

export function parseA1(text: string): A1Reference | null {
  const split = splitSheetName(text.trim());
  if (!split) return null;
  const [first, second, extra] = split.rest.split(':');
  if (first === undefined || extra !== undefined) return null;
  const start = parseCorner(first);
  if (!start) return null;
  if (second === undefined) {
    // A lone corner must be a cell: "A" or "3" alone is not a range.
    if (start.row === null || start.column === null) return null;
    return {
      sheetName: split.sheetName,
      top: start.row,
      left: start.column,
      bottom: start.row,
      right: start.column,
    };
  }
  const end = parseCorner(second);
  if (!end) return null;
  const wholeColumns = start.row === null && end.row === null && start.column !== null && end.column !== null;
  const wholeRows = start.column === null && end.column === null && start.row !== null && end.row !== null;
  const cells = start.row !== null && start.column !== null && end.column !== null;
  if (!wholeColumns && !wholeRows && !cells) return null;
  const rows = orderedPair(start.row, end.row);
  const columns = orderedPair(start.column, end.column);
  return { sheetName: split.sheetName, top: rows[0], bottom: rows[1], left: columns[0], right: columns[1] };
}

function orderedPair(a: number | null, b: number | null): [number | null, number | null] {
  return a !== null && b !== null && b < a ? [b, a] : [a, b];
}

/** Closes the open ends of a reference against a sheet's current size. */
export function referenceBox(reference: A1Reference, maxRows: number, maxColumns: number): GridBox {
  return {
    top: reference.top ?? 1,
    left: reference.left ?? 1,
    bottom: reference.bottom ?? maxRows,
    right: reference.right ?? maxColumns,
  };
}
