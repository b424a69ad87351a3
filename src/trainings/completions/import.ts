/**
 * The main job: every completed-training record in the "Completed trainings" tab.
 *
 * - Full import: all pages (resumable: when the execution budget runs out, what was read is staged
 *   in a hidden tab and a small cursor saved, and the next execution goes on). The tab changes only
 *   once every page is in; rows that disappeared upstream go, with their user-added cells.
 * - Incremental refresh: records arrive newest first, so it reads page 1 onwards only until it
 *   reaches back past the newest record held, less an overlap of some days, and adds what is new.
 */
import { rowKeys } from '../../api/completion-key';
import {
  checkFilter,
  type CompletionsFilter,
  type CompletionsRead,
  fetchRecentCompletions,
  type ListEntry,
  MAX_PASSES,
  type PagingCursor,
  readCompletionPages,
} from '../../api/completions';
import type { Completion } from '../../api/schemas';
import { addDays, cellToSheetSerial, fromSheetSerial, toDateNumber, type UtcOffsetAt } from '../../lib/dates';
import { formatCount } from '../../lib/numbers';
import { describeRemade, findAddonTab, keepAddonTabIds } from '../../platform/addon-tabs';
import { DocumentState } from '../../platform/document-state';
import type { JobContext, JobReport } from '../../platform/job-runner';
import {
  describeCuts,
  describeRejected,
  type RejectedSummary,
  summarizeRejected,
} from '../../platform/problem-lists';
import { checkRoomForRows, readSheetGrids } from '../../sheets/cell-limit';
import { fitTableText } from '../../sheets/cell-text';
import { guardTable, readTableGuards } from '../../sheets/table-guard';
import { requireWritableTabs } from '../../platform/write-permission';
import type { CellValue } from '../../sheets/table';
import { readTabLayout } from '../../sheets/added-columns';
import { tableCellsOf, type TabLayout } from '../../sheets/tab-layout';
import {
  formatHeaderAndColumns,
  insertRowsOnTop,
  prepareTab,
  prepareTabThroughApi,
  readTab,
  readTabContent,
  readTabFrame,
  type TabContent,
  writeTable,
  writeTableOver,
} from '../../sheets/table-writer';
import { SHEETS_API_MIN_CELLS } from '../../sheets/sheets-api';
import {
  clearStaging,
  describeStaged,
  readStaging,
  STAGING_SHEET,
  stageEntries,
  type StagedRecords,
} from './staging';
import {
  COMPLETION_COLUMN,
  COMPLETION_COLUMNS,
  completionRow,
  COMPLETIONS_GUARD,
  COMPLETIONS_SHEET,
  COMPLETIONS_TAB,
  completionsTable,
  describeInvalidExpirations,
  sortedByUser,
} from './table';
import {
  confirmRemovals,
  type HeldRow,
  heldRowsOf,
  type RemovalCheck,
  stillListedRefusal,
} from './removal-check';
import { describeNames, NameLookups, type ResolvedNames } from './user-names';
import { COMPLETIONS_ADDON_TAB } from '../completions-tab';
import { planTrainingStatus, withFailure, withTrainingOutcome, withTrainingStatus } from '../actions';

export type CompletionsMode = 'full' | 'incremental';

const STATE_KEY = 'safetySync.completions.state';
const RUN_KEY = 'safetySync.completions.run';

interface ImportState {
  filterSignature: string;
  lastFullAtMs: number;
  /** The last page the service listed then: the next full import asks for page 1 and those after it at once. */
  lastPage?: number;
}

interface RunInProgress {
  filterSignature: string;
  cursor: PagingCursor;
  startedAtMs: number;
  /** What the staging tab holds for this run, to recognise it in the next execution. */
  staged: StagedRecords;
  /**
   * Rows with the user's notes that earlier executions confirmed gone upstream (filtered reads
   * that are not made again); left out when there are too many for a document property.
   */
  confirmedGone?: string[];
}

/** Row keys remembered as confirmed gone, at most: a document property holds about 9 KB. */
const MAX_REMEMBERED_GONE = 500;

/** What earlier executions of a run read: its state and the list staged for it. */
interface ResumedRun {
  run: RunInProgress;
  entries: ListEntry[];
}

/**
 * A run left unfinished this long starts again from page 1: what it staged is too old to be
 * finished with as if it were one import.
 */
const STALE_RUN_MS = 24 * 3_600_000;

export interface CompletionsJobOptions {
  mode: CompletionsMode;
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

/** What the last full import of the current filter left, or null when none has finished. */
function lastFullImport(state: DocumentState, filter: CompletionsFilter): ImportState | null {
  const imported = state.get<ImportState>(STATE_KEY);
  return imported && imported.filterSignature === filterSignature(filter) ? imported : null;
}

/** When the last full import finished, or null when none has for the current filter. */
export function lastFullImportMs(state: DocumentState, filter: CompletionsFilter): number | null {
  return lastFullImport(state, filter)?.lastFullAtMs ?? null;
}

export function importCompletions(context: JobContext, job: CompletionsJobOptions): JobReport {
  const filter = context.options.completionsFilter;
  const signature = filterSignature(filter);
  const run = context.state.get<RunInProgress>(RUN_KEY);
  const found = findAddonTab(context.spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
  const { sheet } = found;
  // Before anything is written (abandoning a run clears its staging tab).
  requireWritableTabs(context.spreadsheet, [sheet]);
  // A full import writes the training tabs with its own (see replaceAllRows).
  if (run && run.filterSignature === signature) return resumeRun(context, run);
  if (run) abandonRun(context);
  // A tab whose titles moved away is refused before any request; the write checks it again.
  if (sheet) readTabLayout(sheet, COMPLETION_COLUMNS);
  const canRefresh =
    job.mode === 'incremental' &&
    lastFullImportMs(context.state, filter) !== null &&
    sheet &&
    sheet.getLastRow() > 1;
  if (!canRefresh) return fullImport(context, null);
  const refreshed = incrementalRefresh(context, sheet);
  keepAddonTabIds(context.state, [[COMPLETIONS_ADDON_TAB, found.sheetId]]);
  return withTrainingStatus(context, refreshed);
}

function abandonRun({ spreadsheet, state }: JobContext): void {
  state.delete(RUN_KEY);
  clearStaging(spreadsheet, state);
}

/** Goes on with an unfinished run, or starts it again when what it staged cannot be trusted. */
function resumeRun(context: JobContext, run: RunInProgress): JobReport {
  const ageMs = Date.now() - run.startedAtMs;
  if (ageMs >= STALE_RUN_MS) {
    return restartRun(
      context,
      `The unfinished import started ${Math.floor(ageMs / 3_600_000)} hours ago was begun again from page 1, so that nothing it had read is out of date.`,
    );
  }
  if (typeof run.cursor.anchorAt !== 'number') {
    return restartRun(
      context,
      'The unfinished import had been begun by an earlier version of Safety Sync, so it started again from page 1.',
    );
  }
  const staged = readStaging(context.spreadsheet, context.state, run.staged);
  if (!staged) {
    return restartRun(
      context,
      `The hidden "${STAGING_SHEET}" tab no longer held the records the unfinished import had read ` +
        '(it was deleted, cleared or edited), so the import started again from page 1.',
    );
  }
  return fullImport(context, { run, entries: staged });
}

function restartRun(context: JobContext, reason: string): JobReport {
  abandonRun(context);
  const report = fullImport(context, null);
  return {
    ...report,
    summary: `${reason} ${report.summary}`,
    details: report.details && `${reason} ${report.details}`,
  };
}

function fullImport(context: JobContext, resumed: ResumedRun | null): JobReport {
  const { client, options, spreadsheet } = context;
  const control = context.budget.control();
  const heldRecords = resumed ? recordsOf(resumed.entries) : [];
  const confirmedGone = new Set(resumed?.run.confirmedGone ?? []);
  const startedAtMs = resumed?.run.startedAtMs ?? Date.now();
  const names = new NameLookups(client.baseUrl, options.batchSize);
  if (resumed && heldRecords.length > 0) {
    const unchanged: CompletionsRead = {
      entries: resumed.entries,
      records:
        resumed.run.cursor.phase === 'confirm'
          ? recordsOf(resumed.entries.slice(resumed.run.cursor.previous))
          : heldRecords,
      rejected: [],
      extendsHeld: true,
      cursor: resumed.run.cursor,
      done: false,
    };
    // What earlier executions read comes first: its names (cached ones cost nothing) and, once
    // every page has been read, the filtered reads confirming that rows with the user's notes it
    // no longer holds are gone. Every execution then makes progress on them, and a slow service's
    // look-ups never leave the pages waiting so long that they must be confirmed again, and again.
    context.progress(`Resolving user names for ${formatCount(heldRecords.length)} records`);
    if (!names.resolve(client, userIdsOf(heldRecords), control).complete)
      return pauseRun(context, unchanged, resumed, startedAtMs, confirmedGone);
    // Only for a settled list: the rows a pass still going on lacks may come with its next pages,
    // and checking them in every execution would leave it no time to read them.
    if (resumed.run.cursor.phase === 'settled') {
      const { sheet } = findAddonTab(spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
      const tab = heldRowsOf(sheet && readTabContent(sheet, COMPLETIONS_TAB));
      const gone = rowsGoneFrom(tab, rowKeys(heldRecords));
      const checked = checkRemovals(context, gone, confirmedGone, true);
      if ('paused' in checked || !context.budget.canAfford()) {
        return pauseRun(context, unchanged, resumed, startedAtMs, confirmedGone);
      }
      if (checked.stillListed.length > 0) refuseStillListed(context, checked.stillListed);
    }
  }
  let read: CompletionsRead | null = readCompletionPages(
    client,
    resumed
      ? { cursor: resumed.run.cursor, held: resumed.entries }
      : {
          filter: options.completionsFilter,
          lastPageBefore: lastFullImport(context.state, options.completionsFilter)?.lastPage,
        },
    options.batchSize,
    {
      ...control,
      // Refuse before reading thousands of pages that could never fit, staged on the way (one
      // cell a record, and a confirming pass's beside the pass before it) if the import needs
      // more than one execution.
      afterFirstPage: (cursor, onFirstPage) => {
        const rows = cursor.lastPage * onFirstPage;
        checkRoomForRows(
          readSheetGrids(spreadsheet),
          COMPLETIONS_SHEET,
          rows,
          COMPLETION_COLUMNS.length,
          2 * rows,
        );
      },
      onProgress: (cursor) =>
        context.progress(
          cursor.phase === 'read'
            ? `Reading completed trainings: page ${cursor.nextPage - 1} of ${cursor.lastPage}`
            : `Checking completed trainings against the service: page ${cursor.nextPage - 1} of ${cursor.lastPage}`,
        ),
      // The names of the users a round's records name ride with the next round's pages.
      onEntriesRead: (entries) =>
        names.see(userIdsOf(entries.flatMap(({ record }) => (record ? [record] : [])))),
      riding: () => names.riding(),
    },
  );
  const pause = () => {
    names.keep();
    return pauseRun(context, read!, resumed, startedAtMs, confirmedGone);
  };
  const count = formatCount(read.records.length);
  if (read.interruption) {
    if (read.records.length === 0) throw read.interruption;
    pause();
    read.interruption.message += ` The ${count} records read so far are kept: the next run of the import goes on from there.`;
    throw read.interruption;
  }
  // Names and removal checks go on in the same execution (a pause after a finished read costs the
  // next execution a read of page 1, for what arrived on top meanwhile), each only while a round of
  // requests still fits: a look-up's first round is never refused by the look-up itself. Most
  // names rode with the pages.
  if (!read.done) return pause();
  const ids = userIdsOf(read.records);
  if (names.needLookUp(ids) && !context.budget.canAfford()) return pause();
  context.progress(`Resolving user names for ${count} records`);
  const resolved = names.resolve(client, ids, control);
  if (!resolved.complete) return pause();
  const replace = replacementOf(
    context,
    read.records,
    resolved,
    summarizeRejected(read.rejected),
    confirmedGone,
    read.cursor.unconfirmed,
  );
  if (!replace) return pause();
  const { lastPage } = read.cursor;
  // The records read are in the rows about to be written: they go before the writing does, as a
  // hundred thousand of them take as much memory again as their rows.
  read = null;
  const report = replace();
  context.state.set(STATE_KEY, {
    filterSignature: filterSignature(options.completionsFilter),
    lastFullAtMs: Date.now(),
    lastPage,
  } satisfies ImportState);
  if (resumed) abandonRun(context);
  return report;
}

/**
 * Keeps what the execution read for the next one: appended to the staging tab when it extends what
 * was staged, in its place when a confirming pass replaced it.
 */
function pauseRun(
  context: JobContext,
  read: CompletionsRead,
  resumed: ResumedRun | null,
  startedAtMs: number,
  confirmedGone: ReadonlySet<string>,
): JobReport {
  const { spreadsheet, options } = context;
  let stagedBefore = resumed?.entries.length ?? 0;
  if (!read.extendsHeld && stagedBefore > 0) {
    clearStaging(spreadsheet, context.state);
    stagedBefore = 0;
  }
  stageEntries(spreadsheet, context.state, read.entries.slice(stagedBefore));
  const { cursor } = read;
  const run: RunInProgress = {
    filterSignature: filterSignature(options.completionsFilter),
    cursor,
    startedAtMs,
    staged: describeStaged(read.entries),
    ...(confirmedGone.size <= MAX_REMEMBERED_GONE && { confirmedGone: [...confirmedGone] }),
  };
  context.state.set(RUN_KEY, run);
  const count = formatCount(read.records.length);
  return {
    added: 0,
    removed: 0,
    continuing: true,
    summary:
      cursor.phase === 'read'
        ? `Read ${count} records (page ${cursor.nextPage - 1} of ${cursor.lastPage}) before the time limit of one run; ` +
          'the import continues in the next run and the tab changes only once all are in.'
        : cursor.phase === 'confirm'
          ? `Read ${formatCount(cursor.previous)} records, then ${count} again (page ${cursor.nextPage - 1} of ${cursor.lastPage}, ` +
            `pass ${cursor.passes} of at most ${MAX_PASSES}) before the time limit of one run; checking that they are still ` +
            "the service's list continues in the next run. The tab changes only once all are in."
          : `Read all ${count} records; the user names and the checks of the rows to remove continue in the next run. ` +
            'The tab changes only once all are in.',
  };
}

/**
 * The sentence a read that settled without confirming every record adds to its summary and its
 * Sync log line: how many, and what settles them (a full read of a list that holds still for two
 * passes).
 */
function describeUnconfirmed(unconfirmed: number): string | null {
  if (unconfirmed === 0) return null;
  const records = unconfirmed === 1 ? '1 record' : `${formatCount(unconfirmed)} records`;
  return (
    `${records} could not be confirmed: the service's list kept changing while it was read ` +
    `(records deleted or backdated meanwhile may still be listed here, or missing). The next Reconcile settles them.`
  );
}

function recordsOf(entries: readonly ListEntry[]): Completion[] {
  return entries.flatMap((entry) => (entry.record ? [entry.record] : []));
}

function userIdsOf(records: readonly Completion[]): string[] {
  return records.flatMap((record) => [record.user_id, record.instructor_id]);
}

/**
 * Confirms that the tab's rows with notes among `goneRows` are gone upstream, adding the rows it
 * confirms to `confirmedGone`.
 */
function checkRemovals(
  context: JobContext,
  goneRows: readonly HeldRow[],
  confirmedGone: Set<string>,
  first = false,
): RemovalCheck {
  const { client, options, budget } = context;
  const checked = confirmRemovals(
    client,
    options.batchSize,
    goneRows,
    budget.control(),
    confirmedGone,
    first,
  );
  for (const key of checked.confirmedGone) confirmedGone.add(key);
  return checked;
}

/**
 * Refuses a read that lacks records the service still lists, with the user's notes beside their
 * rows: what it staged is dropped, so that running the import again reads the list afresh.
 */
function refuseStillListed(context: JobContext, stillListed: readonly HeldRow[]): never {
  abandonRun(context);
  throw stillListedRefusal(stillListed);
}

/** The tab's rows whose keys are not among `keys`. */
function rowsGoneFrom(held: readonly HeldRow[], keys: Iterable<string>): HeldRow[] {
  const after = new Set(keys);
  return held.filter((row) => !after.has(row.key));
}

/**
 * Reads the tab and confirms the removals its rows need, then gives what writes the records over it;
 * null when the confirmations did not fit in this execution. What it gives holds the rows to write,
 * not the records.
 */
function replacementOf(
  context: JobContext,
  records: readonly Completion[],
  resolved: ResolvedNames,
  rejected: RejectedSummary,
  confirmedGone: Set<string>,
  unconfirmed: number,
): (() => JobReport) | null {
  const { spreadsheet } = context;
  const count = formatCount(records.length);
  const invalidExpirations = describeInvalidExpirations(records);
  const { table, cuts } = fitTableText(
    COMPLETIONS_SHEET,
    completionsTable(records, resolved.names, context.utcOffsetAt),
  );
  const found = findAddonTab(spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
  // The name the tab has now, or the one it is made under.
  const tabName = found.sheet?.getName() ?? found.newName!;
  // The tabs' sizes, read once for this tab's room and the training tabs'.
  const grids = readSheetGrids(spreadsheet);
  checkRoomForRows(grids, tabName, table.rows.length, table.columns.length);
  const keys = table.rows.map((row) => String(row[COMPLETION_COLUMN.key]));
  let content: TabContent;
  let held: HeldRow[];
  let goneRows: HeldRow[];
  let checked: RemovalCheck;
  for (;;) {
    content = readTab(spreadsheet, tabName, table, found.sheet);
    held = heldRowsOf(content);
    goneRows = rowsGoneFrom(held, keys);
    const readsService = goneRows.some((row) => row.hasUserContent && !confirmedGone.has(row.key));
    checked = checkRemovals(context, goneRows, confirmedGone);
    // Null: the filtered reads that confirm removals did not fit in this execution.
    if ('paused' in checked) return null;
    if (checked.stillListed.length > 0) refuseStillListed(context, checked.stillListed);
    // While the service was read, the user may have typed beside a row that is going: read the tab
    // again, and check such rows too, so that what is written is what the tab holds now.
    if (!readsService) break;
  }
  const heldKeys = new Set(held.map((row) => row.key));
  const added = keys.filter((key) => !heldKeys.has(key)).length;
  const removedNote = checked.note;
  const userOrder = sortedByUser(held);
  if (userOrder) table.rows = inUserOrder(table.rows, held);
  const sheetId = content.sheet?.getSheetId() ?? null;
  const guards = readTableGuards(spreadsheet, [content.sheet]);
  return () => {
    const height = table.rows.length + 1;
    const width = content.layout.width;
    // Everything is read: the training tabs are computed from the rows about to be written.
    const training = planTrainingStatus(context, table.rows, grids, {
      sheetName: tabName,
      rows: height,
      columns: width,
    });
    const plan = 'failure' in training ? null : training;

    // A table the Sheets API writes into tabs that are all there has its tab grown by the API too, so
    // that the execution commits once, at its end. Otherwise (a tab to insert, or the API refuses) the
    // Spreadsheet service inserts and grows every tab, committed once before the rows, so that the
    // writes after them need no other commit before the end.
    const preparedThroughApi =
      !plan?.insertsTabs &&
      table.rows.length * table.columns.length >= SHEETS_API_MIN_CELLS &&
      prepareTabThroughApi(content, height, width);
    if (!preparedThroughApi) {
      prepareTab(content, height, width);
      plan?.prepare();
      SpreadsheetApp.flush();
    }
    // Ids are reads, free while nothing is buffered: before the rows' formats are.
    const completionsId = sheetId ?? content.sheet!.getSheetId();
    plan?.readIds(completionsId);
    const result = writeTableOver(content, table, { nothingBuffered: true });
    if (preparedThroughApi) plan?.prepare();
    // After the rows: the writer inserts and deletes rows, which would move a named range or
    // protection set before them.
    const placement = { layout: content.layout, height };
    guardTable(spreadsheet, content.sheet!, sheetId, guards, placement, COMPLETIONS_GUARD);
    keepAddonTabIds(context.state, [[COMPLETIONS_ADDON_TAB, completionsId]]);
    const removed = new Set(goneRows.map((row) => row.key)).size;
    const written = {
      added,
      removed,
      records: table.rows.length,
      summary:
        `Imported ${count} completed trainings (${added} new, ${removed} removed` +
        `${result.userRowsDropped ? `, ${result.userRowsDropped} with your notes` : ''}); ` +
        `${userOrder ? `${KEPT_ORDER} ` : ''}${describeNames(resolved)}${cuts.length ? ` ${CUTS_SEEN}` : ''}` +
        (unconfirmed ? ` ${describeUnconfirmed(unconfirmed)}` : ''),
      details: runDetails(
        [
          describeUnconfirmed(unconfirmed),
          describeRejected(rejected),
          invalidExpirations,
          removedNote,
          describeCuts(cuts),
          result.slowerWrite,
        ],
        resolved,
      ),
    };
    const remade = found.deleted ? describeRemade([COMPLETIONS_SHEET]) : null;
    const report = remade
      ? {
          ...written,
          summary: `${remade} ${written.summary}`,
          details: written.details && `${remade} ${written.details}`,
        }
      : written;
    if ('failure' in training) return withFailure(report, training.failure);
    return withTrainingOutcome(report, () => training.write());
  };
}

/**
 * The Sync log's details: what the run could not take as the service sent it, then why names are
 * missing (when they are). With nothing of the first kind there are none, and the log shows the
 * summary, which says it.
 */
function runDetails(problems: (string | null | undefined)[], resolved: ResolvedNames): string | undefined {
  const sentences = problems.filter((problem): problem is string => Boolean(problem));
  if (sentences.length === 0) return undefined;
  if (resolved.refusal) sentences.push(describeNames(resolved));
  return sentences.join(' ');
}

const CUTS_SEEN = 'Some texts were longer than a cell holds and were cut to fit: see the Sync log.';

const KEPT_ORDER = 'The tab keeps the order you sorted it in; new records are at the top.';

/** `rows` (newest first) with the ones the tab holds in the tab's order, below the new ones. */
function inUserOrder(rows: CellValue[][], held: readonly HeldRow[]): CellValue[][] {
  const position = new Map(held.map((row, index) => [row.key, index]));
  const positionOf = (row: CellValue[]) => position.get(String(row[COMPLETION_COLUMN.key]));
  const fresh = rows.filter((row) => positionOf(row) === undefined);
  const kept = rows.filter((row) => positionOf(row) !== undefined);
  kept.sort((a, b) => positionOf(a)! - positionOf(b)!);
  return [...fresh, ...kept];
}

const DATE_COLUMNS = COMPLETION_COLUMNS.flatMap((column, index) =>
  column.kind === 'date' || column.kind === 'datetime' ? [index] : [],
);

/**
 * The records in the tab as the table's cells (its columns found by their titles), with date cells
 * back as serials (the service hands them out as Dates).
 */
function readHeldRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layout: TabLayout,
  utcOffsetAt: UtcOffsetAt,
): CellValue[][] {
  const rows = sheet.getRange(2, 1, sheet.getLastRow() - 1, layout.width).getValues() as unknown[][];
  return rows.map((row) => {
    const cells = tableCellsOf(row, layout) as CellValue[];
    for (const index of DATE_COLUMNS) cells[index] = cellToSheetSerial(cells[index], utcOffsetAt);
    return cells;
  });
}

function incrementalRefresh(context: JobContext, sheet: GoogleAppsScript.Spreadsheet.Sheet): JobReport {
  const { client, options, spreadsheet } = context;
  const width = COMPLETION_COLUMNS.length;
  const layout = readTabLayout(sheet, COMPLETION_COLUMNS);
  const held = readHeldRows(sheet, layout, context.utcOffsetAt);
  const heldKeys = new Set(held.map((row) => String(row[COMPLETION_COLUMN.key])));
  // A loop, not Math.max(...rows): spreading 125,000 arguments overflows the stack.
  const newestSerial = held.reduce(
    (newestSoFar, row) => Math.max(newestSoFar, Number(row[COMPLETION_COLUMN.completionDate]) || 0),
    0,
  );
  const newest = fromSheetSerial(newestSerial);
  if (newest === null) return fullImport(context, null);
  const since = toDateNumber(addDays(newest, -options.overlapDays));
  const recent = fetchRecentCompletions(client, options.completionsFilter, since, context.budget.control());
  if (!recent.complete) {
    return {
      added: 0,
      removed: 0,
      continuing: true,
      summary:
        `Read ${formatCount(recent.records.length)} recent completed trainings before the time limit of one run ` +
        'without reaching the newest one already in the tab; the refresh continues in the next run.',
    };
  }
  // Keys as the full list numbers twins: a second identical record is new even when the first is held.
  const recentKeys = rowKeys(recent.records);
  const fresh: Completion[] = [];
  const freshKeys: string[] = [];
  recent.records.forEach((record, index) => {
    if (heldKeys.has(recentKeys[index]!)) return;
    fresh.push(record);
    freshKeys.push(recentKeys[index]!);
  });
  const details = describeRejected(summarizeRejected(recent.rejected)) ?? undefined;
  if (fresh.length === 0) return { added: 0, removed: 0, summary: 'No new completed trainings.', details };

  const resolved = new NameLookups(client.baseUrl, options.batchSize).resolve(
    client,
    userIdsOf(fresh),
    context.budget.control(),
  );
  if (!resolved.complete) {
    // The names found so far are cached: the next refresh reads the same records and goes on.
    return {
      added: 0,
      removed: 0,
      continuing: true,
      summary:
        `Looked up ${resolved.requested} user names for ${formatCount(fresh.length)} new completed trainings ` +
        'before the time limit of one run; they are added in the next run.',
    };
  }
  const { table: fitted, cuts } = fitTableText(COMPLETIONS_SHEET, {
    ...COMPLETIONS_TAB,
    rows: fresh.map((record, index) =>
      completionRow(record, freshKeys[index]!, resolved.names, context.utcOffsetAt),
    ),
  });
  const { rows } = fitted;
  checkRoomForRows(readSheetGrids(spreadsheet), sheet.getName(), held.length + rows.length, width);
  const dateOf = (row: CellValue[]) => Number(row[COMPLETION_COLUMN.completionDate]);
  const userOrder = sortedByUser(held.map((row) => ({ completionDate: dateOf(row) })));
  const allOnTop = rows.every((row) => dateOf(row) >= dateOf(held[0]!));
  let slowerWrite: string | null;
  // Rows inserted inside the table (below its first record) widen its named range and protections,
  // as Sheets widens any range rows are inserted into; they must be set again otherwise.
  const guardAfterwards = !(allOnTop || userOrder) || held.length < 2;
  // Read before the writes, as everything a run reads: a read after them would cost a commit.
  const guards = guardAfterwards && {
    sheetId: sheet.getSheetId(),
    found: readTableGuards(spreadsheet, [sheet]),
  };
  if (allOnTop || userOrder) {
    // The common case: new records are the newest (or the user sorted the tab: new ones go on
    // top). Rows are inserted, so every other row and the user's cells beside it stay untouched.
    const frame = readTabFrame(sheet);
    slowerWrite = insertRowsOnTop(sheet, COMPLETION_COLUMNS, layout, rows);
    formatHeaderAndColumns(sheet, COMPLETION_COLUMNS, held.length + rows.length + 1, layout, frame);
  } else {
    const merged = [...rows, ...held].sort(
      (a, b) =>
        Number(b[COMPLETION_COLUMN.completionDate]) - Number(a[COMPLETION_COLUMN.completionDate]) ||
        Number(b[COMPLETION_COLUMN.created]) - Number(a[COMPLETION_COLUMN.created]),
    );
    slowerWrite = writeTable(sheet, {
      columns: COMPLETION_COLUMNS,
      rows: merged,
      keyColumn: COMPLETION_COLUMN.key,
    }).slowerWrite;
  }
  if (guards) {
    const placement = { layout, height: held.length + rows.length + 1 };
    guardTable(spreadsheet, sheet, guards.sheetId, guards.found, placement, COMPLETIONS_GUARD);
  }
  return {
    added: fresh.length,
    removed: 0,
    summary:
      `Added ${fresh.length} new completed trainings.${resolved.refusal ? ` ${describeNames(resolved)}` : ''}` +
      `${cuts.length ? ` ${CUTS_SEEN}` : ''}`,
    details: runDetails(
      [details, describeInvalidExpirations(fresh), describeCuts(cuts), slowerWrite],
      resolved,
    ),
  };
}
