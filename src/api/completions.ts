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
import { appendAll, prependAll } from '../lib/arrays';
import type { ServiceClient } from './client';
import { InvalidParameterError, TransportError } from './errors';
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

export interface PagingProgress {
  pagesFetched: number;
  lastPage: number;
}

export interface FetchCompletionsOptions {
  /** Pages requested at once after page 1. */
  batchSize: number;
  onProgress?: (progress: PagingProgress) => void;
}

export interface CompletionsResult {
  records: Completion[];
  rejected: RejectedRecord[];
}

/** Completions have no id: the whole record is the key (identical records are indistinguishable). */
export function completionKey(record: Completion): string {
  return JSON.stringify([
    record.user_id,
    record.training_id,
    record.created,
    record.dateNumber,
    record.specialExpirationDateNumber ?? null,
    record.instructor_id,
    record.groupTraining_id,
  ]);
}

/** Checks the filter before anything is sent; returns it without empty members. */
export function checkFilter(filter: CompletionsFilter): CompletionsFilter {
  const checked: CompletionsFilter = {};
  for (const name of ['user_id', 'training_id'] as const) {
    const value = filter[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidParameterError(name, 'must be a non-empty id, or left out to mean all');
    }
    checked[name] = value.trim();
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
  /** completionKey of each record, computed once. */
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

export interface PagingStep {
  cursor: PagingCursor;
  /** Records not seen before, in service order. */
  records: Completion[];
  rejected: RejectedRecord[];
  done: boolean;
}

const MAX_BATCH_READS = 4;

/** Reads page 1 and returns the cursor for the rest. */
export function startCompletionsPaging(client: ServiceClient, filter: CompletionsFilter): PagingStep {
  const checkedFilter = checkFilter(filter);
  const [first] = fetchPages(client, checkedFilter, [1]);
  const { records } = takeNew([first!], new Set());
  const cursor: PagingCursor = {
    filter: checkedFilter,
    nextPage: 2,
    lastPage: first!.lastPage,
    signature: signatureOf(first!),
    changed: records.length !== first!.records.length,
  };
  return { cursor, records, rejected: first!.rejected, done: cursor.nextPage > cursor.lastPage };
}

/**
 * Reads the next batch of pages. `held` holds the keys of every record already taken in this run
 * and is updated with the new ones. A batch that repeats any record held or read in the batch
 * (a shift), or whose pages disagree on the last page or total, is read again.
 */
export function continueCompletionsPaging(
  client: ServiceClient,
  cursor: PagingCursor,
  batchSize: number,
  held: Set<string>,
): PagingStep {
  checkBatchSize(batchSize);
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
  const lastPage = Math.max(cursor.lastPage, ...batch.map((page) => page.lastPage));
  const next: PagingCursor = {
    filter: cursor.filter,
    nextPage: last.number + 1,
    lastPage,
    signature: signatureOf(last),
    changed: changed || duplicates > 0 || lastPage !== cursor.lastPage,
  };
  return {
    cursor: next,
    records,
    rejected: batch.flatMap((page) => page.rejected),
    done: next.nextPage > lastPage,
  };
}

/**
 * After a run that saw records change: reads from page 1 until a page holds nothing new, and
 * returns the records that arrived on top meanwhile.
 */
export function catchUpCompletions(
  client: ServiceClient,
  filter: CompletionsFilter,
  held: Set<string>,
): PagingStep {
  const records: Completion[] = [];
  const rejected: RejectedRecord[] = [];
  let page: Page;
  for (let number = 1; ; number++) {
    [page] = fetchPages(client, filter, [number]) as [Page];
    appendAll(rejected, page.rejected);
    const fresh = takeNew([page], held).records;
    appendAll(records, fresh);
    if (fresh.length === 0 || number >= page.lastPage) break;
  }
  const cursor: PagingCursor = {
    filter,
    nextPage: page.lastPage + 1,
    lastPage: page.lastPage,
    signature: signatureOf(page),
    changed: false,
  };
  return { cursor, records, rejected, done: true };
}

/** Every record, in one go (no execution budget to respect: tests, tools, small imports). */
export function fetchAllCompletions(
  client: ServiceClient,
  filter: CompletionsFilter,
  options: FetchCompletionsOptions,
): CompletionsResult {
  const batchSize = checkBatchSize(options.batchSize);
  let step = startCompletionsPaging(client, filter);
  const held = new Set(step.records.map(completionKey));
  const records = [...step.records];
  const rejected = [...step.rejected];
  options.onProgress?.({ pagesFetched: 1, lastPage: step.cursor.lastPage });
  while (!step.done) {
    step = continueCompletionsPaging(client, step.cursor, batchSize, held);
    appendAll(records, step.records);
    appendAll(rejected, step.rejected);
    options.onProgress?.({ pagesFetched: step.cursor.nextPage - 1, lastPage: step.cursor.lastPage });
  }
  if (step.cursor.changed) {
    const caughtUp = catchUpCompletions(client, step.cursor.filter, held);
    prependAll(records, caughtUp.records);
    appendAll(rejected, caughtUp.rejected);
  }
  return { records, rejected };
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
      keys: records.map(completionKey),
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
): CompletionsResult {
  const checkedFilter = checkFilter(filter);
  const held = new Set<string>();
  const records: Completion[] = [];
  const rejected: RejectedRecord[] = [];
  for (let number = 1; ; number++) {
    const [page] = fetchPages(client, checkedFilter, [number]) as [Page];
    appendAll(records, takeNew([page], held).records);
    appendAll(rejected, page.rejected);
    const reachedBack = page.records.some((record) => record.dateNumber < sinceDateNumber);
    if (reachedBack || page.records.length === 0 || number >= page.lastPage) break;
  }
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
