/**
 * A rectangle of cells (1-based, inclusive), and how it moves when rows or columns are inserted or
 * deleted: every stored range (filters, conditional formats, protections) follows the cells it covers,
 * as in Sheets.
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

interface Interval {
  start: number;
  end: number;
}

/** New lines occupy [at, at + count): an interval that straddles `at` grows, one below it moves. */
function intervalAfterInsertion({ start, end }: Interval, at: number, count: number): Interval {
  if (start >= at) return { start: start + count, end: end + count };
  if (end >= at) return { start, end: end + count };
  return { start, end };
}

/** Lines [at, at + count) disappear; an interval made only of them disappears too. */
function intervalAfterDeletion({ start, end }: Interval, at: number, count: number): Interval | null {
  const lastDeleted = at + count - 1;
  const deletedBefore = (line: number): number => Math.max(0, Math.min(line - 1, lastDeleted) - at + 1);
  const deletedUpTo = (line: number): number => Math.max(0, Math.min(line, lastDeleted) - at + 1);
  const newStart = start - deletedBefore(start);
  const newEnd = end - deletedUpTo(end);
  return newEnd < newStart ? null : { start: newStart, end: newEnd };
}

export type Dimension = 'rows' | 'columns';

export function boxAfterInsertion(box: GridBox, dimension: Dimension, at: number, count: number): GridBox {
  if (dimension === 'rows') {
    const { start, end } = intervalAfterInsertion({ start: box.top, end: box.bottom }, at, count);
    return { ...box, top: start, bottom: end };
  }
  const { start, end } = intervalAfterInsertion({ start: box.left, end: box.right }, at, count);
  return { ...box, left: start, right: end };
}

export function boxAfterDeletion(
  box: GridBox,
  dimension: Dimension,
  at: number,
  count: number,
): GridBox | null {
  if (dimension === 'rows') {
    const rows = intervalAfterDeletion({ start: box.top, end: box.bottom }, at, count);
    return rows && { ...box, top: rows.start, bottom: rows.end };
  }
  const columns = intervalAfterDeletion({ start: box.left, end: box.right }, at, count);
  return columns && { ...box, left: columns.start, right: columns.end };
}
