/**
 * The full import: every page of the list (resumable: when the execution budget runs out, what was
 * read is staged in a hidden tab and a small cursor saved, and the next execution goes on). The tab
 * changes only once every page is in; rows that disappeared upstream go, with their user-added cells.
 */
import { rowKeys } from '../../api/completion-key';
import { type CompletionsRead, MAX_PASSES, readCompletionPages } from '../../api/completions';
import { recordsOf } from '../../api/completions-contract';
import type { Completion } from '../../api/schemas';
import { formatCount } from '../../lib/numbers';
import { findAddonTab } from '../../platform/addon-tabs';
import type { JobContext, JobReport } from '../../platform/job-runner';
import { summarizeRejected } from '../../platform/problem-lists';
import type { TimeBudget } from '../../platform/time-budget';
import { checkRoomForRows, readSheetGrids } from '../../sheets/cell-limit';
import { readTabContent } from '../../sheets/tab-content';
import { COMPLETIONS_ADDON_TAB } from '../completions-tab';
import { heldRowsOf } from './removal-check';
import { replacementOf } from './replacement';
import {
  abandonRun,
  checkRemovals,
  filterSignature,
  keepRunInProgress,
  lastFullImport,
  MAX_REMEMBERED_GONE,
  refuseStillListed,
  rememberFullImport,
  type ResumedRun,
  type RunInProgress,
  rowsGoneFrom,
} from './run-state';
import { clearStaging, describeStaged, readStaging, STAGING_SHEET, stageEntries } from './staging';
import { COMPLETION_COLUMNS, COMPLETIONS_SHEET, COMPLETIONS_TAB } from './table';
import { NameLookups } from './user-names';

/**
 * A run left unfinished this long starts again from page 1: what it staged is too old to be
 * finished with as if it were one import.
 */
const STALE_RUN_MS = 24 * 3_600_000;

/** What one execution of a full import works with, from its first read to its report. */
interface FullImportRun {
  context: JobContext;
  resumed: ResumedRun | null;
  control: ReturnType<TimeBudget['control']>;
  confirmedGone: Set<string>;
  startedAtMs: number;
  names: NameLookups;
}

/** Goes on with an unfinished run, or starts it again when what it staged cannot be trusted. */
export function resumeRun(context: JobContext, run: RunInProgress): JobReport {
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

export function fullImport(context: JobContext, resumed: ResumedRun | null): JobReport {
  const run: FullImportRun = {
    context,
    resumed,
    control: context.budget.control(),
    confirmedGone: new Set(resumed?.run.confirmedGone ?? []),
    startedAtMs: resumed?.run.startedAtMs ?? Date.now(),
    names: new NameLookups(context.client.baseUrl, context.options.batchSize),
  };
  const pausedOnHeld = resumed && goOnWithHeld(run, resumed);
  if (pausedOnHeld) return pausedOnHeld;
  let read: CompletionsRead | null = readPages(run);
  const next = replacementAfter(run, read);
  // The records read are in the rows about to be written: they go before the writing does, as a
  // hundred thousand of them take as much memory again as their rows.
  read = null;
  if ('paused' in next) return next.paused;
  const report = next.replace();
  rememberFullImport(context.state, context.options.completionsFilter, next.lastPage);
  if (resumed) abandonRun(context);
  return report;
}

/**
 * What earlier executions read comes first: its names (cached ones cost nothing) and, once every
 * page has been read, the filtered reads confirming that rows with the user's notes it no longer
 * holds are gone. Every execution then makes progress on them, and a slow service's look-ups never
 * leave the pages waiting so long that they must be confirmed again, and again. Returns the report
 * of the pause when they did not fit in this execution; null when the pages can be read.
 */
function goOnWithHeld(run: FullImportRun, resumed: ResumedRun): JobReport | null {
  const { context, names, control, confirmedGone } = run;
  const heldRecords = recordsOf(resumed.entries);
  if (heldRecords.length === 0) return null;
  const { cursor } = resumed.run;
  const unchanged: CompletionsRead = {
    entries: resumed.entries,
    records: cursor.phase === 'confirm' ? recordsOf(resumed.entries.slice(cursor.previous)) : heldRecords,
    rejected: [],
    extendsHeld: true,
    cursor,
    done: false,
  };
  context.progress(`Resolving user names for ${formatCount(heldRecords.length)} records`);
  if (!names.resolve(context.client, userIdsOf(heldRecords), control).complete)
    return pauseRun(run, unchanged);
  // Only for a settled list: the rows a pass still going on lacks may come with its next pages,
  // and checking them in every execution would leave it no time to read them.
  if (cursor.phase !== 'settled') return null;
  const { sheet } = findAddonTab(context.spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
  const tab = heldRowsOf(sheet && readTabContent(sheet, COMPLETIONS_TAB));
  const gone = rowsGoneFrom(tab, rowKeys(heldRecords));
  const checked = checkRemovals(context, gone, confirmedGone, true);
  if ('paused' in checked || !context.budget.canAfford()) return pauseRun(run, unchanged);
  if (checked.stillListed.length > 0) refuseStillListed(context, checked.stillListed);
  return null;
}

/** Reads the pages (on from where an earlier execution paused, when it did), telling the user how far. */
function readPages(run: FullImportRun): CompletionsRead {
  const { context, resumed, names } = run;
  const { client, options, spreadsheet } = context;
  return readCompletionPages(
    client,
    resumed
      ? { cursor: resumed.run.cursor, held: resumed.entries }
      : {
          filter: options.completionsFilter,
          lastPageBefore: lastFullImport(context.state, options.completionsFilter)?.lastPage,
        },
    options.batchSize,
    {
      ...run.control,
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
}

/**
 * After the pages: the names, then what writes the records over the tab and the last page read;
 * the report of the pause when the read or either of those did not finish in this execution.
 */
function replacementAfter(
  run: FullImportRun,
  read: CompletionsRead,
): { paused: JobReport } | { replace: () => JobReport; lastPage: number } {
  const { context, names, control } = run;
  const pause = () => {
    names.keep();
    return { paused: pauseRun(run, read) };
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
  const resolved = names.resolve(context.client, ids, control);
  if (!resolved.complete) return pause();
  const replace = replacementOf(
    context,
    read.records,
    resolved,
    summarizeRejected(read.rejected),
    run.confirmedGone,
    read.cursor.unconfirmed,
  );
  return replace ? { replace, lastPage: read.cursor.lastPage } : pause();
}

/**
 * Keeps what the execution read for the next one: appended to the staging tab when it extends what
 * was staged, in its place when a confirming pass replaced it.
 */
function pauseRun(run: FullImportRun, read: CompletionsRead): JobReport {
  const { context, resumed, confirmedGone } = run;
  const { spreadsheet, options } = context;
  let stagedBefore = resumed?.entries.length ?? 0;
  if (!read.extendsHeld && stagedBefore > 0) {
    clearStaging(spreadsheet, context.state);
    stagedBefore = 0;
  }
  stageEntries(spreadsheet, context.state, read.entries.slice(stagedBefore));
  const { cursor } = read;
  keepRunInProgress(context.state, {
    filterSignature: filterSignature(options.completionsFilter),
    cursor,
    startedAtMs: run.startedAtMs,
    staged: describeStaged(read.entries),
    ...(confirmedGone.size <= MAX_REMEMBERED_GONE && { confirmedGone: [...confirmedGone] }),
  });
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
          : cursor.recheckThrough !== undefined
            ? `Read all ${count} records; reading again the first ${formatCount(cursor.recheckThrough)} pages, which an ` +
              'earlier run read, continues in the next run. The tab changes only once all are in.'
            : `Read all ${count} records; the user names and the checks of the rows to remove continue in the next run. ` +
              'The tab changes only once all are in.',
  };
}

/** The users `records` name: each record's user and instructor. */
export function userIdsOf(records: readonly Completion[]): string[] {
  return records.flatMap((record) => [record.user_id, record.instructor_id]);
}
