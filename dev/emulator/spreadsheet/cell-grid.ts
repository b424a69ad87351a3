/**
 * Sparse storage for a sheet's cells: only cells that hold something exist, so a 1000-row sheet costs
 * nothing until written, and inserting rows renumbers only the rows that hold cells.
 */
import { type Cell, clearCellContent, hasContent, isBlankCell } from './cells';
import { type Dimension, type GridBox, type LineChange, lineAfter } from './grid-box';

/**
 * One row's cells by column number. A sparse array, not a Map: a row of ten cells then weighs about
 * a third as much, and a sheet of a million cells is a hundred thousand rows (the benchmark measures
 * the memory of such an import).
 */
class RowCells {
  #cells: (Cell | undefined)[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(column: number): Cell | undefined {
    return this.#cells[column];
  }

  set(column: number, cell: Cell): void {
    if (this.#cells[column] === undefined) this.#size++;
    this.#cells[column] = cell;
  }

  delete(column: number): void {
    if (this.#cells[column] === undefined) return;
    this.#cells[column] = undefined;
    this.#size--;
  }

  /** [column, cell] pairs, left to right. */
  *[Symbol.iterator](): Generator<[number, Cell]> {
    const cells = this.#cells;
    for (let column = 0; column < cells.length; column++) {
      const cell = cells[column];
      if (cell !== undefined) yield [column, cell];
    }
  }

  *values(): Generator<Cell> {
    for (const [, cell] of this) yield cell;
  }
}

export class CellGrid {
  #rows = new Map<number, RowCells>();
  /**
   * The row numbers of #rows in ascending order, kept up to date as rows come and go (null until
   * first needed): getLastRow and appendRow then look at the last rows only, not at every row.
   */
  #sortedRows: number[] | null = null;

  get(row: number, column: number): Cell | undefined {
    return this.#rows.get(row)?.get(column);
  }

  /** The cell at a position, created if absent; call `prune` after an edit that may have emptied it. */
  edit(row: number, column: number): Cell {
    let cells = this.#rows.get(row);
    if (!cells) {
      this.#rows.set(row, (cells = new RowCells()));
      if (this.#sortedRows) this.#sortedRows.splice(insertionIndex(this.#sortedRows, row), 0, row);
    }
    let cell = cells.get(column);
    // The two fields nearly every written cell has, declared up front: V8 then gives the object room
    // for those two only, where `{}` reserves four (a million imported cells weigh 16 MB less).
    if (!cell) cells.set(column, (cell = { value: undefined, numberFormat: undefined }));
    return cell;
  }

  prune(row: number, column: number): void {
    const cells = this.#rows.get(row);
    const cell = cells?.get(column);
    if (!cells || !cell || !isBlankCell(cell)) return;
    cells.delete(column);
    if (cells.size === 0) {
      this.#rows.delete(row);
      if (this.#sortedRows) this.#sortedRows.splice(insertionIndex(this.#sortedRows, row), 1);
    }
  }

  /** A deep copy: spilled results point at their formula's copy, and it at theirs. */
  copy(): CellGrid {
    const copies = new Map<Cell, Cell>();
    const copyOf = (cell: Cell): Cell => {
      let copy = copies.get(cell);
      if (copy) return copy;
      copies.set(cell, (copy = { ...cell }));
      if (cell.spilledFrom) copy.spilledFrom = copyOf(cell.spilledFrom);
      if (cell.spill) copy.spill = cell.spill.map(copyOf);
      return copy;
    };
    const grid = new CellGrid();
    for (const [row, cells] of this.#rows) {
      const copied = new RowCells();
      for (const [column, cell] of cells) copied.set(column, copyOf(cell));
      grid.#rows.set(row, copied);
    }
    return grid;
  }

  /** Existing cells inside a box, row by row. */
  *cellsIn(box: GridBox): Generator<{ row: number; column: number; cell: Cell }> {
    for (const [row, cells] of [...this.#rows].sort(([a], [b]) => a - b)) {
      if (row < box.top || row > box.bottom) continue;
      for (const [column, cell] of cells) {
        if (column >= box.left && column <= box.right) yield { row, column, cell };
      }
    }
  }

  /** Every cell holding a formula, in no particular order. */
  *formulaCells(): Generator<{ row: number; column: number; cell: Cell }> {
    for (const [row, cells] of this.#rows) {
      for (const [column, cell] of cells) if (cell.formula !== undefined) yield { row, column, cell };
    }
  }

  lastRowWithContent(): number {
    this.#sortedRows ??= [...this.#rows.keys()].sort((a, b) => a - b);
    for (let index = this.#sortedRows.length - 1; index >= 0; index--) {
      const row = this.#sortedRows[index]!;
      for (const cell of this.#rows.get(row)!.values()) if (hasContent(cell)) return row;
    }
    return 0;
  }

  lastColumnWithContent(): number {
    let last = 0;
    for (const cells of this.#rows.values()) {
      for (const [column, cell] of cells) if (column > last && hasContent(cell)) last = column;
    }
    return last;
  }

  /** Cells follow an inserted, deleted or moved line; the cells of deleted lines are dropped. */
  apply(change: LineChange): void {
    this.#renumber(change.dimension, (line) => lineAfter(change, line));
  }

  /**
   * Moves the cells of a box to other rows of the same columns (a sort); `rowOf` maps each row of the
   * box to its new row, a permutation of the box's rows. Cells outside the box's columns stay.
   */
  permuteRows(box: GridBox, rowOf: (row: number) => number): void {
    const moved = [...this.cellsIn(box)];
    for (const { row, column } of moved) this.#rows.get(row)!.delete(column);
    for (const { row, column, cell } of moved) {
      const newRow = rowOf(row);
      if (!this.#rows.has(newRow)) this.#rows.set(newRow, new RowCells());
      this.#rows.get(newRow)!.set(column, cell);
    }
    for (const [row, cells] of [...this.#rows]) if (cells.size === 0) this.#rows.delete(row);
    this.#sortedRows = null;
  }

  /**
   * Moves every cell to its new row or column number; null drops it. A dropped formula takes its
   * spilled results with it, as the cells they came from are gone.
   */
  #renumber(dimension: Dimension, renumber: (line: number) => number | null): void {
    const rows = new Map<number, RowCells>();
    for (const [row, cells] of this.#rows) {
      const moved = new RowCells();
      for (const [column, cell] of cells) {
        const line = renumber(dimension === 'rows' ? row : column);
        if (line === null) clearCellContent(cell);
        else moved.set(dimension === 'rows' ? column : line, cell);
      }
      const newRow = dimension === 'rows' ? renumber(row) : row;
      if (newRow !== null && moved.size > 0) rows.set(newRow, moved);
    }
    this.#rows = rows;
    this.#sortedRows = null;
  }
}

/** Where `value` is, or would go, in an ascending array. */
function insertionIndex(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
