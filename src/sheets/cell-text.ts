/**
 * Google Sheets holds at most 50,000 characters in a cell, and a write with one longer string fails
 * whole. Service text longer than that (a long instruction, a name) is cut to fit instead, with a
 * visible marker that says how long it was and where the rest is, and every cut is reported: a
 * long text never fails a run, and never disappears without a word.
 */
import { formatCount } from '../lib/numbers';
import type { CellValue, Table } from './table';

export const CELL_TEXT_LIMIT = 50_000;

/** One text that was cut: on which tab, in which record (its key) and field (its header), and how long it was. */
export interface TextCut {
  tab: string;
  record: string;
  field: string;
  length: number;
}

function cutMarker(length: number): string {
  return `… [cut: ${formatCount(length)} characters; the full text is in the service]`;
}

/**
 * `text` whole when it takes at most `room` characters; otherwise as much of its start as fits
 * with the marker, `room` characters in all. `quoted`: the text goes inside a formula's string
 * literal, where each quote takes two characters (see formulaString).
 */
export function fitText(text: string, room = CELL_TEXT_LIMIT, quoted = false): string {
  const weight = (index: number) => (quoted && text[index] === '"' ? 2 : 1);
  let size = 0;
  for (let index = 0; index < text.length; index++) size += weight(index);
  if (size <= room) return text;
  const marker = cutMarker(text.length);
  let end = 0;
  for (let used = marker.length; end < text.length && used + weight(end) <= room; end++) {
    used += weight(end);
  }
  // Never half a character: a surrogate pair is kept or dropped whole.
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}

/** How a cut names its record: at most this many characters of its key. */
const RECORD_NAME_LENGTH = 40;

export function recordName(header: string, key: CellValue): string {
  const text = String(key ?? '');
  return `${header} ${text.length > RECORD_NAME_LENGTH ? `${text.slice(0, RECORD_NAME_LENGTH)}…` : text}`;
}

/**
 * The table with every text that does not fit a cell cut to fit, and the cuts. Cells of formula
 * columns are left alone: the add-on builds those formulas, and fits the text it puts in them.
 * `recordOf` names a row's record; by default, by the table's key column.
 */
export function fitTableText(
  tab: string,
  table: Table,
  recordOf: (row: readonly CellValue[]) => string = (row) =>
    recordName(table.columns[table.keyColumn]!.header, row[table.keyColumn]!),
): { table: Table; cuts: TextCut[] } {
  const cuts: TextCut[] = [];
  const rows = table.rows.map((row) => {
    if (!row.some((value) => typeof value === 'string' && value.length > CELL_TEXT_LIMIT)) return row;
    return row.map((value, column) => {
      const spec = table.columns[column]!;
      if (typeof value !== 'string' || value.length <= CELL_TEXT_LIMIT || spec.kind === 'formula') {
        return value;
      }
      cuts.push({ tab, record: recordOf(row), field: spec.header, length: value.length });
      return fitText(value);
    });
  });
  return { table: { ...table, rows }, cuts };
}

/** "Inspection schedules, Schedule ID sch-1: Instructions (61,234 characters)". */
export function describeCut(cut: TextCut): string {
  return `${cut.tab}, ${cut.record}: ${cut.field} (${formatCount(cut.length)} characters)`;
}
