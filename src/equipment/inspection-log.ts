/**
 * The Inspection log: every "Last inspected" date the add-on's runs saw, once each, so that the
 * inspection before the latest one is not lost when someone types the next (the record of previous
 * examinations an auditor asks for). "Last inspected" keeps one date a schedule; this tab keeps them
 * all.
 *
 * - Every run that reads the schedules tab (Import equipment types, Refresh all, the scheduled
 *   refresh, Show upcoming inspections) adds a row for each schedule whose date it has not logged
 *   yet: the schedule, the date, when and by whom it was seen, and by which run. Not at edit time:
 *   an add-on's simple onEdit trigger runs for every edit anywhere in the workbook, in a mode that
 *   cannot open the add-on's state, and a date corrected seconds after it was typed would be logged
 *   twice. So a date typed and replaced before the next run is not logged (the tab's note says so).
 * - Rows are only ever added, at the bottom; the add-on never changes or removes one. What it has
 *   logged it finds again by the rows' Type ID, Schedule ID and Inspected on, wherever a manager
 *   sorted or filtered them and whatever the tab is called (found by its sheet id): a row edited or
 *   deleted by hand is the manager's; the date it held, if still in "Last inspected", is logged
 *   again by the next run.
 */
import { addonTab, findAddonTab, keepAddonTabIds } from '../platform/addon-tabs';
import type { DocumentState } from '../platform/document-state';
import { UserFacingError } from '../platform/user-facing-error';
import {
  type CalendarDate,
  epochMsToSheetSerial,
  parseDateCell,
  toIsoDate,
  toSheetSerial,
  type UtcOffsetAt,
} from '../lib/dates';
import {
  type CellValue,
  type ColumnSpec,
  columnIndexes,
  numberFormatOf,
  PLAIN_TEXT,
  setColumnWidths,
} from '../sheets/table';
import { formatCount } from '../lib/numbers';
import type { ScheduleEntry } from './upcoming';

export const INSPECTION_LOG_SHEET = 'Inspection log';
export const INSPECTION_LOG_TAB = addonTab('safetySync.inspectionLogTab', 'log', INSPECTION_LOG_SHEET);

export const INSPECTION_LOG_COLUMNS = [
  { id: 'typeTitle', header: 'Equipment type', kind: 'text', width: 200 },
  { id: 'typeId', header: 'Type ID', kind: 'text', width: 110 },
  { id: 'scheduleName', header: 'Schedule', kind: 'text', width: 200 },
  { id: 'scheduleId', header: 'Schedule ID', kind: 'text', width: 110 },
  { id: 'inspectedOn', header: 'Inspected on', kind: 'date', width: 110 },
  { id: 'seenAt', header: 'Seen at', kind: 'datetime', width: 150 },
  { id: 'seenBy', header: 'Seen by', kind: 'text', width: 180 },
  { id: 'seenIn', header: 'Seen in', kind: 'text', width: 200 },
] as const satisfies readonly ColumnSpec[];
export const INSPECTION_LOG_COLUMN = columnIndexes(INSPECTION_LOG_COLUMNS);

/** The columns a logged row is found again by. */
const IDENTIFYING = [
  INSPECTION_LOG_COLUMN.typeId,
  INSPECTION_LOG_COLUMN.scheduleId,
  INSPECTION_LOG_COLUMN.inspectedOn,
] as const;

/** The warning-only protection of the log a run makes: an edit by hand asks first. */
export const INSPECTION_LOG_PROTECTION = 'Safety Sync: Inspection log (rows are only added)';

export const INSPECTION_LOG_NOTE =
  'Every date Safety Sync saw in "Last inspected" on the schedules tab, once, added by the first run ' +
  'that saw it (an import, a refresh, Show upcoming inspections). A date typed and replaced before ' +
  'the next run is not here: the log holds what the runs saw. Safety Sync only adds rows, at the ' +
  'bottom, and never changes one.';

/** What a run says of the log: nothing when it added nothing. */
export function describeLogged(added: number, log: Pick<InspectionLog, 'deleted' | 'name'>): string | null {
  if (added === 0) return null;
  const dates = added === 1 ? '1 inspection date' : `${formatCount(added)} inspection dates`;
  const restarted = log.deleted
    ? ` (the "${INSPECTION_LOG_SHEET}" tab was deleted: a new log was started)`
    : '';
  return `${dates} added to "${log.name}"${restarted}.`;
}

/** Who saw the dates, and when: one run. */
export interface LogSighting {
  atMs: number;
  /** The user's e-mail where Apps Script tells it; '' where it does not. */
  by: string;
  /** The run: "Import equipment types", "Refresh all", "Show upcoming inspections"… */
  runName: string;
  utcOffsetAt: UtcOffsetAt;
}

/** What identifies a logged inspection: the schedule (its type's id and its own) and the date. */
export function logKey(typeId: string, scheduleId: string, date: CalendarDate): string {
  return JSON.stringify([typeId, scheduleId, toIsoDate(date)]);
}

/**
 * The keys of the rows a log holds, from each row's Type ID, Schedule ID and Inspected on (in that
 * order); rows whose date is not a date (a manager's own line, say) are no inspection of a schedule.
 */
export function loggedKeys(rows: readonly (readonly unknown[])[], utcOffsetAt: UtcOffsetAt): Set<string> {
  const keys = new Set<string>();
  for (const [typeId, scheduleId, inspectedOn] of rows) {
    const date = parseDateCell(inspectedOn, utcOffsetAt);
    if (date.kind === 'date') keys.add(logKey(String(typeId), String(scheduleId), date.date));
  }
  return keys;
}

/** The rows to add for the schedules' dates `logged` does not hold yet, in the schedules' order. */
export function newLogRows(
  entries: readonly ScheduleEntry[],
  logged: ReadonlySet<string>,
  sighting: LogSighting,
): CellValue[][] {
  const seenAt = epochMsToSheetSerial(sighting.atMs, sighting.utcOffsetAt);
  const added = new Set<string>();
  const rows: CellValue[][] = [];
  for (const entry of entries) {
    const seen = entry.inspectionInput.lastInspected;
    if (seen?.kind !== 'date') continue;
    const key = logKey(entry.typeId, entry.scheduleId, seen.date);
    if (logged.has(key) || added.has(key)) continue;
    added.add(key);
    rows.push([
      entry.typeTitle,
      entry.typeId,
      entry.scheduleName,
      entry.scheduleId,
      toSheetSerial(seen.date),
      seenAt,
      sighting.by,
      sighting.runName,
    ]);
  }
  return rows;
}

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The log as a run found it, read before the run writes anything. */
export interface InspectionLog {
  /** The tab, when it is there. */
  sheet: Sheet | null;
  /** Its name, or the one a run makes it under. */
  name: string;
  /** Rows below its titles now. */
  rows: number;
  /** The add-on made it, and someone deleted it since: the next rows start a new log. */
  deleted: boolean;
  /** Adds the dates of `entries` it has not logged; returns how many it added. */
  append(entries: readonly ScheduleEntry[], sighting: LogSighting): number;
}

/**
 * Reads the log (its titles, and the three columns its rows are found by), before the run's first
 * write: a read after one costs a commit. Throws, before anything is written, when a column it needs
 * lost its title.
 */
export function openInspectionLog(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  utcOffsetAt: UtcOffsetAt,
): InspectionLog {
  const found = findAddonTab(spreadsheet, state, INSPECTION_LOG_TAB);
  const existing = found.sheet;
  const lastRow = existing?.getLastRow() ?? 0;
  // An empty tab (cleared of everything, titles too) is written as a new one.
  const read = existing && lastRow > 0 ? readLog(existing, lastRow, utcOffsetAt) : null;
  const logged = read?.logged ?? new Set<string>();
  let sheet = existing;
  return {
    sheet: existing,
    name: existing?.getName() ?? found.newName!,
    rows: Math.max(0, lastRow - 1),
    deleted: found.deleted,
    append(entries, sighting) {
      const rows = newLogRows(entries, logged, sighting);
      let sheetId = found.sheetId;
      if (rows.length > 0 && !sheet) {
        sheet = spreadsheet.insertSheet(found.newName!);
        // Its id, at once (one commit, in the run that makes it): a log renamed before the next
        // run must still be found, or the evidence would go on in a second tab.
        sheetId = sheet.getSheetId();
      }
      if (sheetId !== null) keepAddonTabIds(state, [[INSPECTION_LOG_TAB, sheetId]]);
      if (rows.length === 0) return 0;
      const written = sheet!;
      if (!read) {
        writeTitles(written);
        writeRows(
          written,
          INSPECTION_LOG_COLUMNS.map((_, index) => index + 1),
          2,
          rows,
        );
      } else {
        writeRows(written, read.columnsAt, lastRow + 1, rows);
      }
      return rows.length;
    },
  };
}

/** Each log column's place in the tab (1-based), found by its title wherever a manager moved it. */
function logColumnsOf(sheet: Sheet): number[] {
  const titles = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0]!.map(String);
  const columnsAt = INSPECTION_LOG_COLUMNS.map((column) => titles.indexOf(column.header) + 1);
  const missing = INSPECTION_LOG_COLUMNS.filter((_, index) => columnsAt[index] === 0);
  if (missing.length > 0) {
    const names = missing.map((column) => `"${column.header}"`).join(', ');
    throw new UserFacingError(
      `The "${sheet.getName()}" tab has no ${names} column${missing.length > 1 ? 's' : ''}: Safety Sync ` +
        'finds the inspections it logged by their titles, and adds to them. Put the title back (or undo ' +
        'the change), then run it again. Nothing was changed.',
    );
  }
  return columnsAt;
}

/** Where the log's columns are, and what it holds: its titles, then its rows' identifying cells. */
function readLog(
  sheet: Sheet,
  lastRow: number,
  utcOffsetAt: UtcOffsetAt,
): { columnsAt: number[]; logged: Set<string> } {
  const columnsAt = logColumnsOf(sheet);
  if (lastRow < 2) return { columnsAt, logged: new Set() };
  const places = IDENTIFYING.map((column) => columnsAt[column]!);
  const first = Math.min(...places);
  const span = sheet.getRange(2, first, lastRow - 1, Math.max(...places) - first + 1).getValues();
  return {
    columnsAt,
    logged: loggedKeys(
      span.map((row) => places.map((place) => row[place - first])),
      utcOffsetAt,
    ),
  };
}

function writeTitles(sheet: Sheet): void {
  const width = INSPECTION_LOG_COLUMNS.length;
  const titles = sheet.getRange(1, 1, 1, width);
  titles.setNumberFormats([INSPECTION_LOG_COLUMNS.map(() => PLAIN_TEXT)]);
  titles.setValues([INSPECTION_LOG_COLUMNS.map((column) => column.header)]);
  titles.setFontWeight('bold');
  sheet.getRange(1, INSPECTION_LOG_COLUMN.inspectedOn + 1).setNote(INSPECTION_LOG_NOTE);
  sheet.setFrozenRows(1);
  // Evidence: anyone may still edit it (a hard protection would stop another editor's run), after
  // a warning.
  sheet.protect().setDescription(INSPECTION_LOG_PROTECTION).setWarningOnly(true);
  setColumnWidths(sheet, new Map(INSPECTION_LOG_COLUMNS.map((column, index) => [index + 1, column.width])));
}

/**
 * Writes `rows` from row `first` down, each cell in its column's place (`columnsAt`, 1-based): one
 * write of formats and one of values for each run of adjacent columns. The tab grows first when
 * it has too few rows.
 */
function writeRows(sheet: Sheet, columnsAt: readonly number[], first: number, rows: CellValue[][]): void {
  const missing = first + rows.length - 1 - sheet.getMaxRows();
  if (missing > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missing);
  const order = columnsAt.map((at, index) => ({ at, index })).sort((a, b) => a.at - b.at);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && order[end]!.at === order[end - 1]!.at + 1) end++;
    const block = order.slice(start, end);
    const range = sheet.getRange(first, block[0]!.at, rows.length, block.length);
    const formats = block.map(({ index }) => numberFormatOf(INSPECTION_LOG_COLUMNS[index]!.kind));
    range.setNumberFormats(rows.map(() => formats));
    range.setValues(rows.map((row) => block.map(({ index }) => row[index]!)));
    // Rows added below the titles may take their bold.
    range.setFontWeight('normal');
    start = end;
  }
}
