/**
 * Reading every completed-training record: page 1 tells the last page, the remaining pages go out
 * in parallel batches. The service pages newest first, so a completion recorded while we page
 * shifts every later page: a record can show up twice (de-duplicated by key) or, when the pages of
 * one batch are answered on both sides of the change, fall between two pages. So a batch that shows
 * a change (a duplicate, or pages disagreeing on the last page or total) is read again until two
 * reads agree, and a run that saw a change ends by re-reading from page 1 the records that arrived
 * on top meanwhile. Paging can stop between batches and resume from a small cursor, so an import
 * larger than one Apps Script execution continues in the next one.
 */
import { appendAll } from '../lib/arrays';
import type { ServiceClient } from './client';
import { completionIdentity } from './completion-key';
import { InvalidParameterError, TransportError } from './errors';
import { type ReadControl, runRound } from './read-control';
import {
  type Completion,
  completionSchema,
  completionsPageSchema,
  type RejectedRecord,
  validateEach,
} from './schemas';

export const COMPLETIONS_METHOD = 'completedtrainings.list';
export const MAX_PAGE_SIZE = 1000;

export interface CompletionsFilter {
  user_id?: string;
  training_id?: string;
}

export interface CompletionsRead {
  /** Records not held before, in service order (after the ones held). */
  records: Completion[];
  /** Records that arrived on top meanwhile (found by the catch-up): they go before every other. */
  onTop: Completion[];
  rejected: RejectedRecord[];
  cursor: PagingCursor;
  /** False when the read paused; it resumes from `cursor` with the same `held` keys. */
  done: boolean;
}

export interface PagingControl extends ReadControl {
  /** After page 1, which tells how many pages there are: a caller may refuse what could never fit. */
  afterFirstPage?: (cursor: PagingCursor, recordsOnFirstPage: number) => void;
  /** After each round, with where paging stands. */
  onProgress?: (cursor: PagingCursor) => void;
}

/** Where a read starts: page 1 of a filter, or a paused read's cursor and the keys it holds. */
export type PagingStart = { filter: CompletionsFilter } | { cursor: PagingCursor; held: Set<string> };

/** Checks the filter before anything is sent; returns it without empty members. */
export function checkFilter(filter: CompletionsFilter): CompletionsFilter {
  const checked: CompletionsFilter = {};
  for (const name of ['user_id', 'training_id'] as const) {
    const value = filter[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidParameterError(name, 'must be a non-empty id, or left out to mean all');
    }
    checked[name] = value;
  }
  return checked;
}

export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidParameterError('limit', `must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

export function checkPage(page: number): number {
  if (!Number.isInteger(page) || page < 1)
    throw new InvalidParameterError('page', 'must be a whole number of 1 or more');
  return page;
}

export function checkBatchSize(batchSize: number): number {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) {
    throw new InvalidParameterError('The batch size', 'must be a whole number from 1 to 100');
  }
  return batchSize;
}

interface Page {
  number: number;
  records: Completion[];
  /** completionIdentity of each record, computed once. */
  keys: string[];
  rejected: RejectedRecord[];
  lastPage: number;
  total: number | undefined;
}

/** Where paging stands between batches; small enough for a document property. */
export interface PagingCursor {
  filter: CompletionsFilter;
  nextPage: number;
  lastPage: number;
  /** The last page and total the last accepted batch agreed on. */
  signature: string;
  /** Whether records changed upstream during this run (then it ends with a catch-up). */
  changed: boolean;
}

interface PagingStep {
  cursor: PagingCursor;
  /** Records not seen before, in service order. */
  records: Completion[];
  rejected: RejectedRecord[];
}

const MAX_BATCH_READS = 4;

/**
 * The one reader of completions: from page 1 (or a paused read's cursor) batch by batch to the last
 * page, then, when records changed meanwhile, the catch-up from page 1. `control` may pause it
 * between batches; what it read so far comes back with the cursor to resume from.
 */
export function readCompletionPages(
  client: ServiceClient,
  start: PagingStart,
  batchSize: number,
  control: PagingControl = {},
): CompletionsRead {
  checkBatchSize(batchSize);
  const records: Completion[] = [];
  const rejected: RejectedRecord[] = [];
  let cursor: PagingCursor;
  let held: Set<string>;
  let rounds = 0;
  if ('filter' in start) {
    held = new Set();
    const fresh = held;
    const first = runRound(control, () => readFirstPage(client, start.filter, fresh));
    rounds++;
    appendAll(records, first.records);
    appendAll(rejected, first.rejected);
    cursor = first.cursor;
    control.afterFirstPage?.(cursor, first.records.length);
    control.onProgress?.(cursor);
  } else {
    ({ cursor, held } = start);
  }
  while (cursor.nextPage <= cursor.lastPage) {
    if (rounds++ > 0 && control.shouldPause?.()) return { records, onTop: [], rejected, cursor, done: false };
    const from = cursor;
    const step = runRound(control, () => readNextBatch(client, from, batchSize, held));
    appendAll(records, step.records);
    appendAll(rejected, step.rejected);
    cursor = step.cursor;
    control.onProgress?.(cursor);
  }
  let onTop: Completion[] = [];
  if (cursor.changed) {
    const { filter } = cursor;
    const caughtUp = runRound(control, () =>
      readFromTop(client, filter, held, (_page, fresh) => !fresh.length),
    );
    onTop = caughtUp.records;
    appendAll(rejected, caughtUp.rejected);
    cursor = caughtUp.cursor;
  }
  return { records, onTop, rejected, cursor, done: true };
}

function readFirstPage(client: ServiceClient, filter: CompletionsFilter, held: Set<string>): PagingStep {
  const checkedFilter = checkFilter(filter);
  const [first] = fetchPages(client, checkedFilter, [1]) as [Page];
  const { records } = takeNew([first], held);
  const cursor: PagingCursor = {
    filter: checkedFilter,
    nextPage: 2,
    lastPage: first.lastPage,
    signature: signatureOf(first),
    changed: records.length !== first.records.length,
  };
  return { cursor, records, rejected: first.rejected };
}

/**
 * Reads the next batch of pages. `held` holds the keys of every record already taken in this run
 * and is updated with the new ones. A batch that repeats any record held or read in the batch
 * (a shift), or whose pages disagree on the last page or total, is read again.
 */
function readNextBatch(
  client: ServiceClient,
  cursor: PagingCursor,
  batchSize: number,
  held: Set<string>,
): PagingStep {
  const numbers: number[] = [];
  for (let page = cursor.nextPage; page < cursor.nextPage + batchSize && page <= cursor.lastPage; page++) {
    numbers.push(page);
  }
  let batch = fetchPages(client, cursor.filter, numbers);
  // Taking the records is also the check for a shift: one pass over the keys, not two.
  let taken = takeNew(batch, held);
  let changed = cursor.changed;
  for (let reads = 1; taken.duplicates > 0 || !agreesWith(batch, cursor); reads++) {
    changed = true;
    for (const key of taken.keys) held.delete(key);
    if (reads === MAX_BATCH_READS) {
      throw new TransportError(
        COMPLETIONS_METHOD,
        'unstable',
        `the records kept changing while they were read (${reads} reads of pages ${numbers[0]}–${numbers[numbers.length - 1]})`,
      );
    }
    const again = fetchPages(client, cursor.filter, numbers);
    const stable = sameRecords(batch, again);
    batch = again;
    taken = takeNew(batch, held);
    if (stable) break;
  }
  const { records, duplicates } = taken;
  const last = batch[batch.length - 1]!;
  const lastPage = batch.reduce((highest, page) => Math.max(highest, page.lastPage), cursor.lastPage);
  const next: PagingCursor = {
    filter: cursor.filter,
    nextPage: last.number + 1,
    lastPage,
    signature: signatureOf(last),
    changed: changed || duplicates > 0 || lastPage !== cursor.lastPage,
  };
  return { cursor: next, records, rejected: batch.flatMap((page) => page.rejected) };
}

/**
 * Reads from page 1, one page at a time, taking the records not held, until `enough` says so or the
 * last page is read. The catch-up after a change stops at a page with nothing new; an incremental
 * refresh stops at the first page that reaches back far enough.
 */
function readFromTop(
  client: ServiceClient,
  filter: CompletionsFilter,
  held: Set<string>,
  enough: (page: Page, fresh: readonly Completion[]) => boolean,
): PagingStep {
  const records: Completion[] = [];
  const rejected: RejectedRecord[] = [];
  let page: Page;
  for (let number = 1; ; number++) {
    [page] = fetchPages(client, filter, [number]) as [Page];
    appendAll(rejected, page.rejected);
    const fresh = takeNew([page], held).records;
    appendAll(records, fresh);
    if (enough(page, fresh) || number >= page.lastPage) break;
  }
  const cursor: PagingCursor = {
    filter,
    nextPage: page.lastPage + 1,
    lastPage: page.lastPage,
    signature: signatureOf(page),
    changed: false,
  };
  return { cursor, records, rejected };
}

function fetchPages(client: ServiceClient, filter: CompletionsFilter, numbers: readonly number[]): Page[] {
  const calls = numbers.map((page) => ({
    apiMethod: COMPLETIONS_METHOD,
    params: { ...filter, limit: MAX_PAGE_SIZE, page },
  }));
  return client.callAll(calls, completionsPageSchema).map((outcome, index) => {
    if (!outcome.ok) throw outcome.error;
    const number = numbers[index]!;
    const { records, rejected } = validateEach(
      outcome.value.completedtrainings,
      completionSchema,
      (position) => `${COMPLETIONS_METHOD} page ${number}, record ${position + 1}`,
    );
    return {
      number,
      records,
      keys: records.map(completionIdentity),
      rejected,
      lastPage: outcome.value.paging.last_page,
      total: outcome.value.paging.total,
    };
  });
}

function signatureOf(page: Page): string {
  return `${page.lastPage}/${page.total ?? ''}`;
}

/** Whether every page of the batch tells the last page and total the cursor holds. */
function agreesWith(batch: readonly Page[], cursor: PagingCursor): boolean {
  return batch.every((page) => signatureOf(page) === cursor.signature);
}

/**
 * The records from page 1 down to the first page that reaches back before `sinceDateNumber`: what
 * an incremental refresh needs (newest first, so usually page 1 alone).
 */
export function fetchRecentCompletions(
  client: ServiceClient,
  filter: CompletionsFilter,
  sinceDateNumber: number,
): { records: Completion[]; rejected: RejectedRecord[] } {
  const reachedBack = (page: Page) =>
    page.records.length === 0 || page.records.some((record) => record.dateNumber < sinceDateNumber);
  const { records, rejected } = readFromTop(client, checkFilter(filter), new Set(), reachedBack);
  return { records, rejected };
}

function sameRecords(a: readonly Page[], b: readonly Page[]): boolean {
  const keys = (pages: readonly Page[]) => pages.map((page) => page.keys.join('\n')).join('\f');
  return keys(a) === keys(b) && a.every((page, index) => signatureOf(page) === signatureOf(b[index]!));
}

/**
 * The pages' records whose key is not in `held`, adding their keys (also listed, to take them back
 * when the batch is read again); and how many repeat a record of an earlier page, which only a
 * shift causes. A record repeated within its own page is the same record twice in the service's
 * data, not a shift: it is taken once and not counted.
 */
function takeNew(
  pages: readonly Page[],
  held: Set<string>,
): { records: Completion[]; keys: string[]; duplicates: number } {
  const records: Completion[] = [];
  const keys: string[] = [];
  let duplicates = 0;
  for (const page of pages) {
    page.keys.forEach((key, index) => {
      if (!held.has(key)) {
        held.add(key);
        keys.push(key);
        records.push(page.records[index]!);
      } else if (page.keys.indexOf(key) === index) {
        duplicates++;
      }
    });
  }
  return { records, keys, duplicates };
}
