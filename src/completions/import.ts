/**
 * The main job: every completed-training record in the "Completed trainings" tab.
 *
 * - Full import: all pages (resumable: when the execution budget runs out, what was read is staged
 *   in a hidden tab and a small cursor saved, and the next execution goes on). The tab changes only
 *   once every page is in; rows that disappeared upstream go, with their user-added cells.
 * - Incremental refresh: records arrive newest first, so it reads page 1 onwards only until it
 *   reaches back past the newest record held, less an overlap of some days, and adds what is new.
 */
import { appendAll, prependAll } from '../lib/arrays';
import {
  catchUpCompletions,
  checkFilter,
  type CompletionsFilter,
  completionKey,
  continueCompletionsPaging,
  fetchRecentCompletions,
  MAX_PAGE_SIZE,
  type PagingCursor,
  startCompletionsPaging,
} from '../api/completions';
import type { Completion, RejectedRecord } from '../api/schemas';
import {
  COMPLETION_COLUMN,
  COMPLETION_COLUMNS,
  completionRow,
  COMPLETIONS_SHEET,
  completionsTable,
  recordFingerprint,
} from './table';
import { addDays, cellToSheetSerial, fromSheetSerial, toDateNumber, type UtcOffsetAt } from '../lib/dates';
import { checkRoomForRows } from '../sheets/cell-limit';
import { type CellValue, numberFormatOf } from '../sheets/table';
import { formatHeaderAndColumns, getOrCreateSheet, writeTable } from '../sheets/table-writer';
import { clearStaging, readStaging, stageRecords } from './staging';
import { deleteDocumentState, readDocumentState, writeDocumentState } from '../platform/document-state';
import type { JobContext, JobReport } from '../platform/job-runner';
import { readConnection } from '../platform/settings-store';
import { type ResolvedNames, resolveNames } from './user-names';

export type CompletionsMode = 'full' | 'incremental';

/** Stop reading before this much of an execution has gone (Apps Script stops it at 6 minutes). */
export const EXECUTION_BUDGET_MS = 270_000;

const STATE_KEY = 'safetySync.completions.state';
const RUN_KEY = 'safetySync.completions.run';

interface ImportState {
  filterSignature: string;
  lastFullAtMs: number;
}

/** Records of the wrong shape: the first few, to list, and how many in all. */
interface RejectedSummary {
  listed: RejectedRecord[];
  count: number;
}

const REJECTED_LISTED = 20;

interface RunInProgress {
  filterSignature: string;
  cursor: PagingCursor;
  startedAtMs: number;
  /** What earlier executions of this import skipped: the final summary lists them too. */
  rejected: RejectedSummary;
}

export interface CompletionsJobOptions {
  mode: CompletionsMode;
  /** When this execution started (Date.now()), for the budget. */
  executionStartMs: number;
}

function filterSignature(filter: CompletionsFilter): string {
  const checked = checkFilter(filter);
  return JSON.stringify([checked.user_id ?? null, checked.training_id ?? null]);
}

export function describeFilter(filter: CompletionsFilter): string {
  const parts = [
    filter.user_id && `user ${filter.user_id}`,
    filter.training_id && `training ${filter.training_id}`,
  ];
  const named = parts.filter(Boolean).join(' and ');
  return named ? `completions of ${named}` : 'all completions';
}

/** When the last full import finished, or null when none has for the current filter. */
export function lastFullImportMs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  filter: CompletionsFilter,
): number | null {
  const state = readDocumentState<ImportState>(spreadsheet, STATE_KEY);
  return state && state.filterSignature === filterSignature(filter) ? state.lastFullAtMs : null;
}

export function importCompletions(context: JobContext, job: CompletionsJobOptions): JobReport {
  const filter = context.options.completionsFilter;
  const signature = filterSignature(filter);
  const run = readDocumentState<RunInProgress>(context.spreadsheet, RUN_KEY);
  if (run && run.filterSignature === signature) return fullImport(context, job, run);
  if (run) abandonRun(context.spreadsheet);
  const sheet = context.spreadsheet.getSheetByName(COMPLETIONS_SHEET);
  const canRefresh =
    job.mode === 'incremental' &&
    lastFullImportMs(context.spreadsheet, filter) !== null &&
    sheet &&
    sheet.getLastRow() > 1;
  return canRefresh ? incrementalRefresh(context, sheet) : fullImport(context, job, null);
}

function abandonRun(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  deleteDocumentState(spreadsheet, RUN_KEY);
  clearStaging(spreadsheet);
}

function fullImport(context: JobContext, job: CompletionsJobOptions, run: RunInProgress | null): JobReport {
  const { client, options, spreadsheet } = context;
  const timeIsUp = () => Date.now() - job.executionStartMs > EXECUTION_BUDGET_MS;
  const records: Completion[] = run ? readStaging(spreadsheet) : [];
  /** Records read by earlier executions, already in the staging tab. */
  const alreadyStaged = records.length;
  const rejected: RejectedRecord[] = [];
  const rejectedSoFar = () => summarizeRejected(rejected, run?.rejected);
  let cursor: PagingCursor;
  if (run) {
    cursor = run.cursor;
  } else {
    const first = startCompletionsPaging(client, options.completionsFilter);
    // Refuse before reading thousands of pages that could never fit.
    const fewestRows = (first.cursor.lastPage - 1) * MAX_PAGE_SIZE + first.records.length;
    checkRoomForRows(spreadsheet, COMPLETIONS_SHEET, fewestRows, COMPLETION_COLUMNS.length);
    appendAll(records, first.records);
    appendAll(rejected, first.rejected);
    cursor = first.cursor;
  }
  const pause = () =>
    pauseRun(context, records.slice(alreadyStaged), records.length, {
      filterSignature: filterSignature(options.completionsFilter),
      cursor,
      startedAtMs: run?.startedAtMs ?? job.executionStartMs,
      rejected: rejectedSoFar(),
    });
  const held = new Set(records.map(completionKey));
  // Every execution makes progress: the budget is checked only after its first batch.
  let batches = 0;
  while (cursor.nextPage <= cursor.lastPage) {
    if (batches++ > 0 && timeIsUp()) return pause();
    const step = continueCompletionsPaging(client, cursor, options.batchSize, held);
    appendAll(records, step.records);
    appendAll(rejected, step.rejected);
    cursor = step.cursor;
    context.progress(`Reading completed trainings: page ${cursor.nextPage - 1} of ${cursor.lastPage}`);
  }
  if (cursor.changed) {
    const caughtUp = catchUpCompletions(client, cursor.filter, held);
    prependAll(records, caughtUp.records);
    appendAll(rejected, caughtUp.rejected);
    cursor = { ...caughtUp.cursor, changed: false };
  }
  context.progress(`Resolving user names for ${records.length.toLocaleString('en-US')} records`);
  const baseUrl = readConnection().baseUrl!;
  const resolved = resolveNames(
    client,
    baseUrl,
    userIdsOf(records),
    options.batchSize,
    () => batches++ > 0 && timeIsUp(),
  );
  if (!resolved.complete) return pause();
  const report = replaceAllRows(context, records, resolved, rejectedSoFar());
  writeDocumentState(spreadsheet, STATE_KEY, {
    filterSignature: filterSignature(options.completionsFilter),
    lastFullAtMs: Date.now(),
  } satisfies ImportState);
  if (run) abandonRun(spreadsheet);
  return report;
}

function pauseRun(
  context: JobContext,
  unstaged: readonly Completion[],
  readSoFar: number,
  run: RunInProgress,
): JobReport {
  stageRecords(context.spreadsheet, unstaged);
  writeDocumentState(context.spreadsheet, RUN_KEY, run);
  return {
    added: 0,
    removed: 0,
    continuing: true,
    summary:
      `Read ${readSoFar.toLocaleString('en-US')} records (page ${run.cursor.nextPage - 1} of ${run.cursor.lastPage}) ` +
      'before the time limit of one run; the import continues in the next run and the tab changes only once all are in.',
  };
}

/** The keys of the rows in the tab now, to count what a run adds and removes. */
function keysInSheet(sheet: GoogleAppsScript.Spreadsheet.Sheet | null): Set<string> {
  if (!sheet || sheet.getLastRow() < 2) return new Set();
  const values = sheet.getRange(2, COMPLETION_COLUMN.key + 1, sheet.getLastRow() - 1, 1).getValues();
  return new Set(values.map((row) => String(row[0])).filter((key) => key !== ''));
}

function userIdsOf(records: readonly Completion[]): string[] {
  return records.flatMap((record) => [record.user_id, record.instructor_id]);
}

function replaceAllRows(
  context: JobContext,
  records: readonly Completion[],
  { names, requested }: ResolvedNames,
  rejected: RejectedSummary,
): JobReport {
  const { spreadsheet } = context;
  const table = completionsTable(records, names, context.utcOffsetAt);
  checkRoomForRows(spreadsheet, COMPLETIONS_SHEET, table.rows.length, table.columns.length);
  const existing = spreadsheet.getSheetByName(COMPLETIONS_SHEET);
  const before = keysInSheet(existing);
  const sheet = existing ?? getOrCreateSheet(spreadsheet, COMPLETIONS_SHEET);
  const result = writeTable(sheet, table);
  const after = new Set(table.rows.map((row) => String(row[COMPLETION_COLUMN.key])));
  const added = [...after].filter((key) => !before.has(key)).length;
  const removed = [...before].filter((key) => !after.has(key)).length;
  return {
    added,
    removed,
    summary:
      `Imported ${records.length.toLocaleString('en-US')} completed trainings (${added} new, ${removed} removed` +
      `${result.userRowsDropped ? `, ${result.userRowsDropped} with your notes` : ''}); ` +
      `${requested} user names looked up.`,
    details: describeRejected(rejected),
  };
}

function summarizeRejected(rejected: readonly RejectedRecord[], earlier?: RejectedSummary): RejectedSummary {
  const all = [...(earlier?.listed ?? []), ...rejected.slice(0, REJECTED_LISTED)];
  return { listed: all.slice(0, REJECTED_LISTED), count: (earlier?.count ?? 0) + rejected.length };
}

function describeRejected({ listed, count }: RejectedSummary): string | undefined {
  if (count === 0) return undefined;
  const described = listed.map((record) => `${record.source} (${record.problem})`);
  const more = count > listed.length ? `; and ${count - listed.length} more` : '';
  const skipped =
    count === 1 ? '1 record skipped because it does' : `${count} records skipped because they do`;
  return `${skipped} not have the documented shape: ${described.join('; ')}${more}`;
}

const DATE_COLUMNS = COMPLETION_COLUMNS.flatMap((column, index) =>
  column.kind === 'date' || column.kind === 'datetime' ? [index] : [],
);

/** The rows in the tab, with date cells back as serials (the service hands them out as Dates). */
function readHeldRows(sheet: GoogleAppsScript.Spreadsheet.Sheet, utcOffsetAt: UtcOffsetAt): CellValue[][] {
  const rows = sheet
    .getRange(2, 1, sheet.getLastRow() - 1, COMPLETION_COLUMNS.length)
    .getValues() as unknown[][];
  return rows.map((row) => {
    const cells = row as CellValue[];
    for (const index of DATE_COLUMNS) cells[index] = cellToSheetSerial(row[index], utcOffsetAt);
    return cells;
  });
}

function incrementalRefresh(context: JobContext, sheet: GoogleAppsScript.Spreadsheet.Sheet): JobReport {
  const { client, options, spreadsheet } = context;
  const width = COMPLETION_COLUMNS.length;
  const held = readHeldRows(sheet, context.utcOffsetAt);
  const heldKeys = new Set(held.map((row) => String(row[COMPLETION_COLUMN.key])));
  const newestSerial = Math.max(...held.map((row) => Number(row[COMPLETION_COLUMN.completionDate]) || 0));
  const newest = fromSheetSerial(newestSerial);
  if (newest === null) return fullImport(context, { mode: 'full', executionStartMs: Date.now() }, null);
  const since = toDateNumber(addDays(newest, -options.overlapDays));
  const recent = fetchRecentCompletions(client, options.completionsFilter, since);
  const fresh = recent.records.filter((record) => !heldKeys.has(recordFingerprint(record)));
  const details = describeRejected(summarizeRejected(recent.rejected));
  if (fresh.length === 0) return { added: 0, removed: 0, summary: 'No new completed trainings.', details };

  const { names } = resolveNames(client, readConnection().baseUrl!, userIdsOf(fresh), options.batchSize);
  const rows = fresh.map((record) => completionRow(record, names, context.utcOffsetAt));
  checkRoomForRows(spreadsheet, COMPLETIONS_SHEET, held.length + rows.length, width);
  const topSerial = Number(held[0]![COMPLETION_COLUMN.completionDate]);
  const allOnTop = rows.every((row) => Number(row[COMPLETION_COLUMN.completionDate]) >= topSerial);
  if (allOnTop) {
    // The common case: new records are the newest. Inserting rows keeps every user-added cell with
    // its record and writes only the new rows.
    sheet.insertRowsBefore(2, rows.length);
    const range = sheet.getRange(2, 1, rows.length, width);
    range.setNumberFormats(rows.map(() => COMPLETION_COLUMNS.map((column) => numberFormatOf(column.kind))));
    range.setValues(rows.map((row) => row.map((value) => value ?? '')));
    range.setFontWeight('normal');
    formatHeaderAndColumns(sheet, COMPLETION_COLUMNS, held.length + rows.length + 1);
  } else {
    const merged = [...rows, ...held].sort(
      (a, b) =>
        Number(b[COMPLETION_COLUMN.completionDate]) - Number(a[COMPLETION_COLUMN.completionDate]) ||
        Number(b[COMPLETION_COLUMN.created]) - Number(a[COMPLETION_COLUMN.created]),
    );
    writeTable(sheet, { columns: COMPLETION_COLUMNS, rows: merged, keyColumn: COMPLETION_COLUMN.key });
  }
  return {
    added: fresh.length,
    removed: 0,
    summary: `Added ${fresh.length} new completed trainings.`,
    details,
  };
}
