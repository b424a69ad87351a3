/** A1 notation, for the calls that take ranges only that way (getRangeList, the Sheets API). */

/** 1 → A, 27 → AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** One cell: (column 3, row 5) → "C5". */
export function cellA1(column: number, row: number): string {
  return `${columnLetters(column)}${row}`;
}

/** Rows `top` to `bottom` (1-based, inclusive) of one column: "K2:K500", or "K2" for a single cell. */
export function columnRunA1(column: number, top: number, bottom: number): string {
  const letters = columnLetters(column);
  return top === bottom ? `${letters}${top}` : `${letters}${top}:${letters}${bottom}`;
}

/** `rows` × `columns` cells from (`row`, `column`): "C2:E2001". */
export function gridA1(row: number, column: number, rows: number, columns: number): string {
  return `${columnLetters(column)}${row}:${columnLetters(column + columns - 1)}${row + rows - 1}`;
}
