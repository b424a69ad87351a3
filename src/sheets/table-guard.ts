/**
 * What keeps an imported table trustworthy around the add-on's writes:
 * - a named range over the whole table (titles, records and the user's columns between, as the
 *   filter covers them), set again after every write, so that a user's QUERY or FILTER over
 *   `SafetySync_…` covers every record however many there are;
 * - warning-only protection over the imported columns (titles and records): anyone can still edit
 *   them after a confirmation, which tells them the next refresh rewrites what they type. Hard
 *   protection would stop another editor's refresh, so it is never used. The user's own columns and
 *   the columns the table leaves to them ("Last inspected") stay unprotected. Imported columns the
 *   user separated (by inserting a column between them) get one protection each run of columns.
 * Ours are found by their name and description, and updated in place (never piled up); the user's
 * own named ranges and protections are left as they are. Everything is read before the run writes
 * (readTableGuards): a read after a write would cost a commit.
 */
import { adjacentRuns, type ColumnSpan } from './row-writer';
import type { TablePlacement } from './table-writer';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type NamedRange = GoogleAppsScript.Spreadsheet.NamedRange;
type Protection = GoogleAppsScript.Spreadsheet.Protection;

/** How our protections are told from the user's, and what Sheets shows in Protected sheets and ranges. */
export const IMPORTED_COLUMNS_PROTECTION =
  'Safety Sync: imported columns. The next refresh rewrites them; edit them in the service.';

/** The named ranges and protections already there, read before the run's writes. */
export interface TableGuards {
  namedRanges: ReadonlyMap<string, NamedRange>;
  /** Our protections, by sheet id. */
  protections: ReadonlyMap<number, Protection[]>;
}

/** Reads the spreadsheet's named ranges and our protections on `sheets` (null: a tab not there yet). */
export function readTableGuards(spreadsheet: Spreadsheet, sheets: readonly (Sheet | null)[]): TableGuards {
  const namedRanges = new Map<string, NamedRange>();
  for (const named of spreadsheet.getNamedRanges()) namedRanges.set(named.getName(), named);
  const protections = new Map<number, Protection[]>();
  for (const sheet of sheets) {
    if (!sheet) continue;
    const ours = sheet
      .getProtections(SpreadsheetApp.ProtectionType.RANGE)
      .filter((protection) => protection.getDescription() === IMPORTED_COLUMNS_PROTECTION);
    protections.set(sheet.getSheetId(), ours);
  }
  return { namedRanges, protections };
}

export interface GuardedTable {
  /** The named range over the whole table, e.g. SafetySync_Schedules. */
  rangeName: string;
  /** The table's columns (by index in its column list) left unprotected: the ones users fill in. */
  userFilledColumns?: readonly number[];
  /**
   * How many columns the named range spans, when the user's columns come after the table's (People):
   * a QUERY over it then reads what they typed too. By default, the table's own.
   */
  rangeWidth?: number;
}

/**
 * Points the table's named range at it and its protections at its imported columns, as `placement`
 * (the write's WriteResult) says they are now. `sheetId`: the sheet's id, read before the writes;
 * null for a tab the run inserts (nothing guards it yet).
 */
export function guardTable(
  spreadsheet: Spreadsheet,
  sheet: Sheet,
  sheetId: number | null,
  guards: TableGuards,
  { layout, height }: Pick<TablePlacement, 'layout' | 'height'>,
  { rangeName, userFilledColumns = [], rangeWidth = layout.width }: GuardedTable,
): void {
  const whole = sheet.getRange(1, 1, height, Math.max(rangeWidth, layout.width));
  const named = guards.namedRanges.get(rangeName);
  if (named) named.setRange(whole);
  else spreadsheet.setNamedRange(rangeName, whole);

  const runs = importedRuns(layout, userFilledColumns);
  const ours = (sheetId !== null && guards.protections.get(sheetId)) || [];
  runs.forEach((run, index) => {
    const range = sheet.getRange(1, run.left, height, run.width);
    const existing = ours[index];
    if (existing) existing.setRange(range);
    else range.protect().setDescription(IMPORTED_COLUMNS_PROTECTION).setWarningOnly(true);
  });
  for (const extra of ours.slice(runs.length)) extra.remove();
}

/** The sheet columns the table imports (not those it leaves to users), as runs of adjacent ones. */
function importedRuns(layout: TablePlacement['layout'], userFilledColumns: readonly number[]): ColumnSpan[] {
  return adjacentRuns(layout.tableColumns.filter((_, index) => !userFilledColumns.includes(index)));
}
