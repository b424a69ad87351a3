/**
 * How the A1 references of a formula follow the cells they name, as Sheets rewrites them on every tab
 * of the workbook when rows or columns are inserted, deleted or moved, or a tab is renamed:
 * - a reference, relative or absolute ($ makes no difference here), moves with its cells;
 * - lines inserted at or before a range's first line move it, lines inserted strictly inside it grow
 *   it (an open end such as the D of "D2:D" stays open): rows inserted before row 2 turn "D2:D" into
 *   "D3:D", rows inserted after row 2 keep "D2:D", and "D2:D10" becomes "D2:D15";
 * - a deletion shrinks a range; deleting all of a reference's lines leaves #REF!;
 * - a move takes each end of a range where its line goes;
 * - renaming a tab renames it in every reference that names it;
 * - deleting a tab turns every reference that names it into #REF!.
 * Names in text ("…" literals, INDIRECT's arguments) are left alone, as Sheets leaves them.
 */
import { MAX_COLUMNS, columnLetters, columnNumber } from './a1-notation';
import { type LineChange, intervalAfter } from './grid-box';
import { type WrittenReference, rewriteA1References } from './r1c1';

const BROKEN_REFERENCE = '#REF!';

interface Bound {
  absolute: boolean;
  value: number;
}

/** One end of a reference as written: a cell, or a row or column alone. */
interface Corner {
  row?: Bound;
  column?: Bound;
}

function parseCorner(text: string): Corner | null {
  const match = /^(\$?)([A-Z]{1,3})?(\$?)(\d+)?$/i.exec(text);
  if (!match) return null;
  const [, columnDollar, letters, rowDollar, digits] = match;
  const column = letters === undefined ? undefined : columnNumber(letters);
  const row = digits === undefined ? undefined : Number(digits);
  if ((column !== undefined && column > MAX_COLUMNS) || row === 0) return null;
  return {
    column: column === undefined ? undefined : { absolute: columnDollar === '$', value: column },
    row: row === undefined ? undefined : { absolute: rowDollar === '$', value: row },
  };
}

function writeCorner({ row, column }: Corner): string {
  const letters = column ? (column.absolute ? '$' : '') + columnLetters(column.value) : '';
  const digits = row ? (row.absolute ? '$' : '') + String(row.value) : '';
  return letters + digits;
}

/** The tab a reference prefix names ("'My tab'!" is My tab), or null for an unqualified reference. */
function prefixSheetName(prefix: string): string | null {
  if (prefix === '') return null;
  const name = prefix.slice(0, -1);
  return name.startsWith("'") ? name.slice(1, -1).replace(/''/g, "'") : name;
}

/** A tab's name as a reference prefix: quoted unless it is a plain word that cannot be read as a cell. */
export function sheetPrefix(name: string): string {
  const plain = /^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name) && !/^([A-Z]{1,3}\d+|R\d*C\d*)$/i.test(name);
  return plain ? `${name}!` : `'${name.replace(/'/g, "''")}'!`;
}

interface ParsedReference {
  sheetName: string | null;
  start: Corner;
  end: Corner | undefined;
}

/** Null when the match is not a reference: a lone corner must be a cell, a range's corners must share a dimension. */
function parseReference({ prefix, start, end }: WrittenReference): ParsedReference | null {
  const startCorner = parseCorner(start);
  const endCorner = end === undefined ? undefined : parseCorner(end);
  if (!startCorner || endCorner === null) return null;
  const valid = endCorner
    ? (startCorner.column !== undefined && endCorner.column !== undefined) ||
      (startCorner.row !== undefined && endCorner.row !== undefined)
    : startCorner.row !== undefined && startCorner.column !== undefined;
  return valid ? { sheetName: prefixSheetName(prefix), start: startCorner, end: endCorner } : null;
}

function writtenText({ prefix, start, end }: WrittenReference): string {
  return prefix + start + (end === undefined ? '' : `:${end}`);
}

export interface AdjustedFormula {
  formula: string;
  /** A reference lost all its cells: the formula now shows #REF!. */
  broken: boolean;
}

/**
 * A formula after a change to the lines of one tab; `namesChangedTab` tells whether a reference's tab
 * (null: the formula's own) is the one that changed.
 */
export function formulaAfterLineChange(
  formula: string,
  namesChangedTab: (sheetName: string | null) => boolean,
  change: LineChange,
): AdjustedFormula {
  let broken = false;
  const adjusted = rewriteA1References(formula, (written) => {
    const reference = parseReference(written);
    if (!reference) return null;
    if (!namesChangedTab(reference.sheetName)) return writtenText(written);
    const moved = referenceAfter(reference, change);
    if (!moved) {
      broken = true;
      return BROKEN_REFERENCE;
    }
    const end = moved.end && `:${writeCorner(moved.end)}`;
    return written.prefix + writeCorner(moved.start) + (end ?? '');
  });
  return { formula: adjusted, broken };
}

/** Null when the change deleted every line of the reference. */
function referenceAfter(reference: ParsedReference, change: LineChange): ParsedReference | null {
  const key = change.dimension === 'rows' ? 'row' : 'column';
  const { start, end = start } = reference;
  const first = start[key];
  const last = end[key];
  // A reference open on both sides ("A:C" for rows) covers every line: no change moves it.
  if (first === undefined && last === undefined) return reference;
  const interval = intervalAfter(change, first?.value ?? 1, last?.value ?? Infinity);
  if (!interval) return null;
  const bound = (original: Bound | undefined, value: number): Bound | undefined =>
    original && { ...original, value };
  const newStart = { ...start, [key]: bound(first, interval.start) };
  if (!reference.end) return { ...reference, start: newStart };
  return { ...reference, start: newStart, end: { ...end, [key]: bound(last, interval.end) } };
}

/** A formula after a tab was renamed: every reference naming it (in any case) names the new name. */
export function formulaAfterRename(formula: string, oldName: string, newName: string): string {
  return rewriteA1References(formula, (written) => {
    const reference = parseReference(written);
    if (!reference) return null;
    const renamed = reference.sheetName?.toLowerCase() === oldName.toLowerCase();
    return renamed ? writtenText({ ...written, prefix: sheetPrefix(newName) }) : writtenText(written);
  });
}

/** A formula after the tab called `name` was deleted: every reference naming it (in any case) is #REF!. */
export function formulaAfterSheetDeleted(formula: string, name: string): AdjustedFormula {
  let broken = false;
  const adjusted = rewriteA1References(formula, (written) => {
    const reference = parseReference(written);
    if (!reference) return null;
    if (reference.sheetName?.toLowerCase() !== name.toLowerCase()) return writtenText(written);
    broken = true;
    return BROKEN_REFERENCE;
  });
  return { formula: adjusted, broken };
}
