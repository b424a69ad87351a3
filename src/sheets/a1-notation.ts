/** A1 notation, for the Spreadsheet service calls that take ranges only that way (getRangeList). */

/** 1 → A, 27 → AA. */
function columnLetters(column: number): string {
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
