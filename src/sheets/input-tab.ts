/**
 * A tab the user fills in beside the add-on's columns (the Trainings catalogue, People): its first
 * columns are the add-on's, one of them each row's key; the user's columns come after them, found by
 * their titles wherever the user moved them, and their titles are added when missing. This reads
 * where each of the user's columns is, which rows hold something the user typed (a row kept while
 * it does), and what each typed cell says, in the words a refusal quotes; each tab's module gives
 * its fields their meaning.
 */

export interface InputTabShape<Field extends string> {
  /** How many columns, from the first, are the add-on's. */
  ownColumns: number;
  /** Which of them (0-based) holds the row's key. */
  keyColumn: number;
  /** The title of each column the user fills in. */
  userHeaders: Readonly<Record<Field, string>>;
}

export interface InputRow<Field extends string> {
  key: string;
  /** The row on the tab (1-based; row 1 holds the titles). */
  rowNumber: number;
  /** What the row holds in a user column; '' when the tab lacks the column. */
  cell(field: Field): unknown;
}

export interface InputTabRead<Field extends string> {
  /** The rows with a key, in the tab's order. */
  rows: InputRow<Field>[];
  /** Keys whose rows hold something the user typed beyond the add-on's columns. */
  withUserContent: Set<string>;
  /** User titles the tab lacks, to write after its last column. */
  missingHeaders: string[];
  lastColumn: number;
  /** Where the user's columns are (1-based) once the missing titles are written: styled as inputs. */
  inputColumns: number[];
  /** Where each of the user's columns is (1-based) once the missing titles are written. */
  columns: Record<Field, number>;
}

/** An empty cell as getValues gives it (''), or nothing at all (a short row). */
export function isBlankCell(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}

/** A typed cell as a refusal quotes it: text in quotes, its first 40 characters. */
export function quoteCell(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
}

/**
 * A whole number of at least `min`, typed as a number or as digits (spaces around them read);
 * null for anything else, "1e3", "+12", "12.0" and "0x1F" included, which Number() would take.
 */
export function wholeNumberCell(value: unknown, min: number): number | null {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= min ? number : null;
}

const YES = ['yes', 'y', 'true'];
const NO = ['no', 'n', 'false'];

/** A checkbox, or yes/no in words (y, n, true, false; any case); null for anything else. */
export function yesOrNoCell(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : null;
  if (word === null) return null;
  if (YES.includes(word)) return true;
  return NO.includes(word) ? false : null;
}

/** The tab as getValues returns it, titles first ([] for no tab). */
export function readInputTab<Field extends string>(
  values: readonly (readonly unknown[])[],
  shape: InputTabShape<Field>,
): InputTabRead<Field> {
  const header = (values[0] ?? []).map((cell) => (isBlankCell(cell) ? '' : String(cell)));
  const fields = Object.keys(shape.userHeaders) as Field[];
  // Only the user's columns: beyond the add-on's own, so that a title of theirs is never the user's.
  const columnOf = new Map<Field, number>();
  for (const field of fields) {
    const index = header.indexOf(shape.userHeaders[field], shape.ownColumns);
    if (index >= 0) columnOf.set(field, index);
  }
  const rows: InputRow<Field>[] = [];
  const withUserContent = new Set<string>();
  values.slice(1).forEach((row, index) => {
    const keyCell = row[shape.keyColumn];
    const key = isBlankCell(keyCell) ? '' : String(keyCell);
    if (key === '') return;
    if (row.slice(shape.ownColumns).some((cell) => !isBlankCell(cell))) withUserContent.add(key);
    rows.push({
      key,
      rowNumber: index + 2,
      cell: (field) => {
        const column = columnOf.get(field);
        return column === undefined ? '' : row[column];
      },
    });
  });
  const missing = fields.filter((field) => !columnOf.has(field));
  const firstMissing = Math.max(header.length, shape.ownColumns) + 1;
  const columns = Object.fromEntries([
    ...fields.flatMap((field) => (columnOf.has(field) ? [[field, columnOf.get(field)! + 1]] : [])),
    ...missing.map((field, index) => [field, firstMissing + index]),
  ]) as Record<Field, number>;
  return {
    rows,
    withUserContent,
    missingHeaders: missing.map((field) => shape.userHeaders[field]),
    lastColumn: header.length,
    inputColumns: Object.values(columns),
    columns,
  };
}

/** Every cell of a tab, titles first, as readInputTab takes them ([] for no tab or an empty one). */
export function wholeTabValues(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): unknown[][] {
  if (!sheet || sheet.getLastRow() === 0) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}
