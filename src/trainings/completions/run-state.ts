/**
 * What a completions import keeps between executions: when the last full import of a filter
 * finished, and the run in progress (its cursor, what it staged, the rows it confirmed gone), with
 * the removal checks that add to those.
 */
import { checkFilter, type CompletionsFilter, type ListEntry } from '../../api/completions-contract';
import type { PagingCursor } from '../../api/completion-pass';
import type { DocumentState } from '../../platform/document-state';
import type { JobContext } from '../../platform/job-runner';
import { clearStaging, type StagedRecords } from './staging';
import { confirmRemovals, type HeldRow, type RemovalCheck, stillListedRefusal } from './removal-check';

const STATE_KEY = 'safetySync.completions.state';
const RUN_KEY = 'safetySync.completions.run';

interface ImportState {
  filterSignature: string;
  lastFullAtMs: number;
  /** The last page the service listed then: the next full import asks for page 1 and those after it at once. */
  lastPage?: number;
}

export interface RunInProgress {
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
export const MAX_REMEMBERED_GONE = 500;

/** What earlier executions of a run read: its state and the list staged for it. */
export interface ResumedRun {
  run: RunInProgress;
  entries: ListEntry[];
}

export function filterSignature(filter: CompletionsFilter): string {
  const checked = checkFilter(filter);
  return JSON.stringify([checked.user_id ?? null, checked.training_id ?? null]);
}

/** What the last full import of the current filter left, or null when none has finished. */
export function lastFullImport(state: DocumentState, filter: CompletionsFilter): ImportState | null {
  const imported = state.get<ImportState>(STATE_KEY);
  return imported && imported.filterSignature === filterSignature(filter) ? imported : null;
}

/** When the last full import finished, or null when none has for the current filter. */
export function lastFullImportMs(state: DocumentState, filter: CompletionsFilter): number | null {
  return lastFullImport(state, filter)?.lastFullAtMs ?? null;
}

/** Remembers a full import of `filter` finished now, with the last page the service listed. */
export function rememberFullImport(state: DocumentState, filter: CompletionsFilter, lastPage: number): void {
  state.set(STATE_KEY, {
    filterSignature: filterSignature(filter),
    lastFullAtMs: Date.now(),
    lastPage,
  } satisfies ImportState);
}

/** The run an earlier execution left unfinished, or null when there is none. */
export function runInProgress(state: DocumentState): RunInProgress | null {
  return state.get<RunInProgress>(RUN_KEY);
}

export function keepRunInProgress(state: DocumentState, run: RunInProgress): void {
  state.set(RUN_KEY, run);
}

export function abandonRun({ spreadsheet, state }: JobContext): void {
  state.delete(RUN_KEY);
  clearStaging(spreadsheet, state);
}

/**
 * Confirms that the tab's rows with notes among `goneRows` are gone upstream, adding the rows it
 * confirms to `confirmedGone`.
 */
export function checkRemovals(
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
export function refuseStillListed(context: JobContext, stillListed: readonly HeldRow[]): never {
  abandonRun(context);
  throw stillListedRefusal(stillListed);
}

/** The tab's rows whose keys are not among `keys`. */
export function rowsGoneFrom(held: readonly HeldRow[], keys: Iterable<string>): HeldRow[] {
  const after = new Set(keys);
  return held.filter((row) => !after.has(row.key));
}
