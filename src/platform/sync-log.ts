/**
 * The "Sync log" tab: one line per run, newest first, so a manager can see when data was last
 * fetched, by whom, what changed, and why a run failed (identifier and request ID for support).
 */
import { epochMsToSheetSerial, type UtcOffsetAt } from '../lib/dates';
import { addonTab, describeRemade, findAddonTab, keepAddonTabIds } from './addon-tabs';
import { DocumentState } from './document-state';
import {
  type CellValue,
  type ColumnSpec,
  numberFormatOf,
  PLAIN_TEXT,
  setColumnWidths,
} from '../sheets/table';

export const SYNC_LOG_SHEET = 'Sync log';
/** Found by its sheet id, so that a log the user renamed keeps its lines. */
export const SYNC_LOG_TAB = addonTab('safetySync.syncLogTab', 'syncLog', SYNC_LOG_SHEET);
/** Older lines are dropped so the log never grows without bound. */
export const SYNC_LOG_MAX_LINES = 500;

export interface SyncLogEntry {
  startedAtMs: number;
  user: string;
  action: string;
  added: number;
  removed: number;
  requests: number;
  durationMs: number;
  /**
   * Skipped: something did not run or was not sent, and the line says why (another run held the
   * spreadsheet, the owner has not confirmed a change, a mail that did not fit the quota, a gap in
   * the schedule's runs). Paused: the scheduled refresh stopped itself.
   */
  outcome: 'Success' | 'Failed' | 'Continuing' | 'Skipped' | 'Paused';
  error?: string;
  requestId?: string;
  details?: string;
}

const COLUMNS: ColumnSpec[] = [
  { header: 'Time', kind: 'datetime', width: 150 },
  { header: 'User', kind: 'text', width: 180 },
  { header: 'Action', kind: 'text', width: 200 },
  { header: 'Added', kind: 'integer', width: 100 },
  { header: 'Removed', kind: 'integer', width: 100 },
  { header: 'Requests', kind: 'integer', width: 100 },
  { header: 'Duration (s)', kind: 'integer', width: 100 },
  { header: 'Outcome', kind: 'text', width: 100 },
  { header: 'Error', kind: 'text', width: 160 },
  { header: 'Request ID', kind: 'text', width: 140 },
  { header: 'Details', kind: 'text', width: 400 },
];

/** The log, as far as adding a line needs to know it: read before a run writes anything. */
export interface SyncLog {
  append(entry: SyncLogEntry, utcOffsetAt: UtcOffsetAt): void;
}

/**
 * Reads where the log stands (whether the tab is there, how many lines it holds), so that a run
 * adds its line after its own writes without reading again: a read would commit those writes a
 * second time (0.3–0.8 s on Google). `state`: the run's, when it holds one (one read fewer).
 *
 * A log the user deleted is made again, and its first line says so. A log made by a line has its id
 * kept by the next run, which finds it by the name it was made under: reading the id after the run's
 * writes would cost a commit (the full import's commits are a benchmark target). So a log renamed
 * before any other run has run is taken for deleted, and the next run makes another.
 */
export function openSyncLog(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState = DocumentState.read(spreadsheet),
): SyncLog {
  const found = findAddonTab(spreadsheet, state, SYNC_LOG_TAB);
  let { sheet } = found;
  let lastRow = sheet ? sheet.getLastRow() : 0;
  let remade = found.deleted;
  /** Its id, or the name this run made it under (see keepAddonTabIds). */
  let kept: number | string | null = found.sheetId;
  return {
    append(entry, utcOffsetAt) {
      if (!sheet) {
        sheet = spreadsheet.insertSheet(found.newName!);
        kept = found.newName!;
      }
      keepAddonTabIds(state, [[SYNC_LOG_TAB, kept]]);
      const details = remade
        ? `${describeRemade([SYNC_LOG_SHEET])} ${entry.details ?? ''}`.trim()
        : entry.details;
      remade = false;
      const width = COLUMNS.length;
      const line: CellValue[] = [
        epochMsToSheetSerial(entry.startedAtMs, utcOffsetAt),
        entry.user,
        entry.action,
        entry.added,
        entry.removed,
        entry.requests,
        Math.round(entry.durationMs / 1000),
        entry.outcome,
        entry.error ?? '',
        entry.requestId ?? '',
        (details ?? '').slice(0, 45_000),
      ];
      const lineFormats = COLUMNS.map((column) => numberFormatOf(column.kind));
      if (lastRow === 0) {
        // A new log: its titles and first line in one write.
        const range = sheet.getRange(1, 1, 2, width);
        range.setNumberFormats([COLUMNS.map(() => PLAIN_TEXT), lineFormats]);
        range.setValues([COLUMNS.map((column) => column.header), line]);
        sheet.getRange(1, 1, 1, width).setFontWeight('bold');
        sheet.setFrozenRows(1);
        setColumnWidths(sheet, new Map(COLUMNS.map((column, index) => [index + 1, column.width])));
        lastRow = 2;
        return;
      }
      sheet.insertRowsBefore(2, 1);
      lastRow++;
      const range = sheet.getRange(2, 1, 1, width);
      range.setNumberFormats([lineFormats]);
      range.setValues([line]);
      // An inserted row takes the bold of the titles above it.
      range.setFontWeight('normal');
      const excess = lastRow - 1 - SYNC_LOG_MAX_LINES;
      if (excess > 0) {
        sheet.deleteRows(SYNC_LOG_MAX_LINES + 2, excess);
        lastRow -= excess;
      }
    },
  };
}

export function appendSyncLog(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  entry: SyncLogEntry,
  utcOffsetAt: UtcOffsetAt,
): void {
  openSyncLog(spreadsheet).append(entry, utcOffsetAt);
}
