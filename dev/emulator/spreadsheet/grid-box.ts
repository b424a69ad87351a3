/**
 * A rectangle of cells (1-based, inclusive), and how lines and ranges move when rows or columns are
 * inserted, deleted or moved: every stored range (filters, conditional formats, protections) and every
 * reference in a formula follows the cells it covers, as in Sheets.
 */
export interface GridBox {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

export function boxOf(row: number, column: number, numRows: number, numColumns: number): GridBox {
  return { top: row, left: column, bottom: row + numRows - 1, right: column + numColumns - 1 };
}

export function boxHeight(box: GridBox): number {
  return box.bottom - box.top + 1;
}

export function boxWidth(box: GridBox): number {
  return box.right - box.left + 1;
}

export function forEachCell(box: GridBox, visit: (row: number, column: number) => void): void {
  for (let row = box.top; row <= box.bottom; row++) {
    for (let column = box.left; column <= box.right; column++) visit(row, column);
  }
}

export function boxContains(box: GridBox, row: number, column: number): boolean {
  return row >= box.top && row <= box.bottom && column >= box.left && column <= box.right;
}

export type Dimension = 'rows' | 'columns';

/**
 * One structural change to a sheet's rows or columns. `move` takes lines start … start + count − 1
 * to before line `destination`, numbered as before the move (Sheet.moveRows/moveColumns).
 */
export type LineChange =
  | { kind: 'insert'; dimension: Dimension; at: number; count: number }
  | { kind: 'delete'; dimension: Dimension; at: number; count: number }
  | { kind: 'move'; dimension: Dimension; start: number; count: number; destination: number };

/** Where a line goes; null when it is deleted. */
export function lineAfter(change: LineChange, line: number): number | null {
  switch (change.kind) {
    case 'insert':
      return line >= change.at ? line + change.count : line;
    case 'delete':
      if (line < change.at) return line;
      return line >= change.at + change.count ? line - change.count : null;
    case 'move': {
      const { start, count, destination } = change;
      const end = start + count;
      if (line >= start && line < end)
        return (destination < start ? destination : destination - count) + line - start;
      if (destination < start && line >= destination && line < start) return line + count;
      if (destination > end && line >= end && line < destination) return line - count;
      return line;
    }
  }
}

/**
 * Where the lines start … end go (end may be Infinity: an open-ended reference). An insertion
 * strictly inside grows the interval, one at or before its start moves it; a deletion shrinks it,
 * and one of all its lines leaves nothing (null); a move takes each end where its line goes.
 */
export function intervalAfter(
  change: LineChange,
  start: number,
  end: number,
): { start: number; end: number } | null {
  if (change.kind === 'insert') {
    const { at, count } = change;
    if (start >= at) return { start: start + count, end: end + count };
    return { start, end: end >= at ? end + count : end };
  }
  if (change.kind === 'delete') {
    const lastDeleted = change.at + change.count - 1;
    const deletedBefore = (line: number): number =>
      Math.max(0, Math.min(line - 1, lastDeleted) - change.at + 1);
    const deletedUpTo = (line: number): number => Math.max(0, Math.min(line, lastDeleted) - change.at + 1);
    const newStart = start - deletedBefore(start);
    const newEnd = end - deletedUpTo(end);
    return newEnd < newStart ? null : { start: newStart, end: newEnd };
  }
  const newStart = lineAfter(change, start)!;
  const newEnd = end === Infinity ? end : lineAfter(change, end)!;
  return { start: Math.min(newStart, newEnd), end: Math.max(newStart, newEnd) };
}

/** Where a stored range goes; null when all of its rows or columns were deleted. */
export function boxAfter(box: GridBox, change: LineChange): GridBox | null {
  if (change.dimension === 'rows') {
    const rows = intervalAfter(change, box.top, box.bottom);
    return rows && { ...box, top: rows.start, bottom: rows.end };
  }
  const columns = intervalAfter(change, box.left, box.right);
  return columns && { ...box, left: columns.start, right: columns.end };
}
