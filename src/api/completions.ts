/**
 * Reading every completed-training record: page 1 tells the last page, the remaining pages go out
 * in parallel batches. The service pages newest first, so a completion recorded while we page shifts
 * every later page by one: a record can show up twice (de-duplicated by key) or, when pages of one
 * batch are answered on both sides of the change, fall between two pages. A pass that saw such a
 * change (a duplicate, or a different last page or total) is therefore read again; the first pass
 * that saw none is a consistent snapshot and is the answer.
 */
import type { ServiceClient } from './client';
import { InvalidParameterError } from './errors';
import {
  type Completion,
  completionSchema,
  completionsPageSchema,
  type RejectedRecord,
  validateEach,
} from './schemas';

export const COMPLETIONS_METHOD = 'completedtrainings.list';
export const MAX_PAGE_SIZE = 1000;
const MAX_PASSES = 3;

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
  /** Passes over the pages: 1 unless records changed upstream while paging. */
  passes: number;
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
  if (!Number.isInteger(page) || page < 1) throw new InvalidParameterError('page', 'must be a whole number of 1 or more');
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
  rejected: RejectedRecord[];
  lastPage: number;
  total: number | undefined;
}

export function fetchAllCompletions(
  client: ServiceClient,
  filter: CompletionsFilter,
  options: FetchCompletionsOptions,
): CompletionsResult {
  const checkedFilter = checkFilter(filter);
  const batchSize = checkBatchSize(options.batchSize);
  const seen: Completion[][] = [];
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const pages = readAllPages(client, checkedFilter, batchSize, options.onProgress);
    const { records, duplicates } = mergePages(pages);
    const first = pages[0]!;
    const changedUpstream =
      duplicates > 0 || pages.some((page) => page.lastPage !== first.lastPage || page.total !== first.total);
    if (!changedUpstream) {
      return { records, rejected: pages.flatMap((page) => page.rejected), passes: pass };
    }
    seen.push(records);
    if (pass === MAX_PASSES) {
      return { records: unionNewestFirst(seen), rejected: pages.flatMap((page) => page.rejected), passes: pass };
    }
  }
  throw new Error('unreachable');
}

function readAllPages(
  client: ServiceClient,
  filter: CompletionsFilter,
  batchSize: number,
  onProgress: FetchCompletionsOptions['onProgress'],
): Page[] {
  const pages = [fetchPages(client, filter, [1])[0]!];
  let lastPage = pages[0]!.lastPage;
  onProgress?.({ pagesFetched: 1, lastPage });
  // The last page is re-read from every answer: if records arrive meanwhile, the collection grows.
  for (let next = 2; next <= lastPage; next += batchSize) {
    const numbers: number[] = [];
    for (let page = next; page < next + batchSize && page <= lastPage; page++) numbers.push(page);
    const batch = fetchPages(client, filter, numbers);
    pages.push(...batch);
    lastPage = Math.max(lastPage, ...batch.map((page) => page.lastPage));
    onProgress?.({ pagesFetched: pages.length, lastPage });
  }
  return pages;
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
    return { number, records, rejected, lastPage: outcome.value.paging.last_page, total: outcome.value.paging.total };
  });
}

function mergePages(pages: readonly Page[]): { records: Completion[]; duplicates: number } {
  const keys = new Set<string>();
  const records: Completion[] = [];
  let duplicates = 0;
  for (const page of pages) {
    for (const record of page.records) {
      const key = completionKey(record);
      if (keys.has(key)) duplicates++;
      else {
        keys.add(key);
        records.push(record);
      }
    }
  }
  return { records, duplicates };
}

function unionNewestFirst(passes: readonly Completion[][]): Completion[] {
  const byKey = new Map<string, Completion>();
  for (const records of passes) for (const record of records) byKey.set(completionKey(record), record);
  return [...byKey.values()].sort((a, b) => b.dateNumber - a.dateNumber || b.created - a.created);
}
