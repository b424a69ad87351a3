/**
 * The rounds of a read of completions: which pages each round asks for (with the requests riding
 * along), how many rounds and requests a read costs when nothing changes, and how a round's pages
 * are placed in its pass.
 */
import { appendAll } from '../lib/arrays';
import type * as z from 'zod/mini';
import type { CallOutcome, ServiceClient } from './client';
import { completionIdentity } from './completion-key';
import type { Pass, PagingCursor } from './completion-pass';
import {
  COMPLETIONS_METHOD,
  type CompletionsFilter,
  type ListEntry,
  MAX_PAGE_SIZE,
} from './completions-contract';
import { type ReadControl, type RidingCalls, runRound } from './read-control';
import { type CompletionsPage, completionSchema, completionsPageSchema, describeIssues } from './schemas';

export interface PagingControl extends ReadControl {
  /** After page 1, which tells how many pages there are: a caller may refuse what could never fit. */
  afterFirstPage?: (cursor: PagingCursor, recordsOnFirstPage: number) => void;
  /** After each round, with where paging stands. */
  onProgress?: (cursor: PagingCursor) => void;
  /** The entries each round read, as they arrive (before the pass places them). */
  onEntriesRead?: (entries: readonly ListEntry[]) => void;
  /** Calls to send with the next round's pages (the users its records name, say); null: none. */
  riding?: () => RidingCalls<unknown> | null;
}

interface Page {
  number: number;
  entries: ListEntry[];
  lastPage: number;
}

/**
 * The requests of each round of reading `lastPage` pages when nothing changes: one round (page 1)
 * for a single page; else two passes. The first sends page 1 alone (it tells how many pages there
 * are), then `batchSize` pages a round with the page before them, which anchors it; the confirming
 * pass, which knows the last page, sends page 1 with the `batchSize` pages after it, then the same.
 */
export function readRounds(lastPage: number, batchSize: number): number[] {
  if (lastPage <= 1) return [1];
  const pass = (knowsLastPage: boolean): number[] => {
    const first = knowsLastPage ? Math.min(lastPage, 1 + batchSize) : 1;
    const rounds = [first];
    for (let read = first; read < lastPage; read += batchSize) {
      rounds.push(1 + Math.min(batchSize, lastPage - read));
    }
    return rounds;
  };
  return [...pass(false), ...pass(true)];
}

/** The rounds and requests of `readRounds`. */
export function readCost(lastPage: number, batchSize: number): { rounds: number; requests: number } {
  const rounds = readRounds(lastPage, batchSize);
  return { rounds: rounds.length, requests: rounds.reduce((sum, requests) => sum + requests, 0) };
}

/**
 * Reads the next round of `pass`. Its first round is page 1, with the `batchSize` pages after it
 * when the pass expects more than one (page 1 alone tells how many there are); each later round is
 * a batch of pages with the page before them, which anchors it. With `topUp`, page 1 goes too, for
 * what arrived on top since the pass began (a settled read sends it alone).
 */
export function readRound(
  client: ServiceClient,
  pass: Pass,
  batchSize: number,
  control: PagingControl,
  known: ReadonlyMap<string, ListEntry> | null,
  topUp: boolean,
): void {
  const from = pass.cursor;
  const settledPages = from.phase === 'settled' ? pagesToCheck(from, batchSize) : null;
  const passNumbers =
    settledPages ??
    (from.nextPage === 1
      ? [1, ...pageNumbers(2, from.lastPage, batchSize)]
      : [from.nextPage - 1, ...pageNumbers(from.nextPage, from.lastPage, batchSize)]);
  // Pages of a settled list read again are compared where it holds them: page 1 goes with them,
  // for what arrived on top meanwhile (the list moved down by that much, and nothing else).
  const withTop = topUp || (settledPages !== null && from.recheckThrough !== undefined);
  // A round anchored on page 1 reads it anyway.
  const extraTop = withTop && passNumbers[0] !== 1;
  const numbers = extraTop ? [1, ...passNumbers] : passNumbers;
  const riders = control.riding?.() ?? null;
  const pageOneLast = from.nextPage === 1 || extraTop;
  let pages = runRound(control, () => fetchPages(client, from.filter, numbers, riders, known, pageOneLast));
  if (control.onEntriesRead) for (const page of pages) control.onEntriesRead(page.entries);
  if (withTop) pass.takeArrivals(pages[0]!.entries);
  if (settledPages !== null) {
    checkSettledPages(pass, from, pages);
    return;
  }
  if (extraTop) pages = pages.slice(1);
  const lastPage = Math.max(...pages.map((page) => page.lastPage));
  const [first, ...rest] = pages as [Page, ...Page[]];
  // Page 1 is where the list begins; any other round's first page is its anchor.
  let next = from.nextPage === 1 ? pass.place(first.entries, 0) : pass.placeAnchor(first.entries, topUp);
  let anchorAt = next - first.entries.length;
  for (const page of rest) {
    anchorAt = next;
    next = pass.place(page.entries, next);
  }
  pass.cursor = {
    ...pass.cursor,
    nextPage: pages[pages.length - 1]!.number + 1,
    lastPage,
    ...(from.nextPage === 1 && { pageSize: first.entries.length }),
    anchorAt,
  };
}

/**
 * The pages a round of a settled list reads again: while it rechecks the pages a confirming pass
 * read in an earlier execution, the next `batchSize` of them (page 1 is read with each); else,
 * for a read handed back in a later execution, its last page (none for a list of one page).
 */
function pagesToCheck(cursor: PagingCursor, batchSize: number): number[] {
  const { recheckThrough, nextPage, lastPage } = cursor;
  if (recheckThrough !== undefined) return pageNumbers(Math.max(2, nextPage), recheckThrough, batchSize);
  return lastPage > 1 ? [lastPage] : [];
}

/**
 * Compares the pages of a settled list read again (page 1 too, once what arrived on top is taken)
 * with where the list holds them, and moves a recheck on past them; it ends after its last page.
 */
function checkSettledPages(pass: Pass, from: PagingCursor, pages: readonly Page[]): void {
  for (const page of pages) pass.checkPage(page.entries, page.number);
  const next = pages[pages.length - 1]!.number + 1;
  // A recheck goes on while pages it must read again are left (none for a read handed back).
  if (next <= (from.recheckThrough ?? 0)) {
    pass.cursor = { ...pass.cursor, nextPage: next };
  } else {
    const { recheckThrough: _done, ...settled } = pass.cursor;
    pass.cursor = settled;
  }
}

/** Up to `batchSize` page numbers from `from` on, none beyond `lastPage`. */
function pageNumbers(from: number, lastPage: number, batchSize: number): number[] {
  const numbers: number[] = [];
  for (let page = from; page < from + batchSize && page <= lastPage; page++) numbers.push(page);
  return numbers;
}

function fetchPages(
  client: ServiceClient,
  filter: CompletionsFilter,
  numbers: readonly number[],
  riders: RidingCalls<unknown> | null,
  known: ReadonlyMap<string, ListEntry> | null,
  pageOneLast: boolean,
): Page[] {
  // Page 1, where the list begins, is asked for last (unless it anchors the round): a busy
  // service's newest records arrive on top, and a record that arrives between two answers of the
  // round shifts the pages answered after it, at a boundary no anchor sees; answered last, page 1
  // shows it and no page after it is shifted.
  const sent = pageOneLast
    ? [...numbers.filter((page) => page !== 1), ...numbers.filter((page) => page === 1)]
    : numbers;
  const calls = sent.map((page) => ({
    apiMethod: COMPLETIONS_METHOD,
    params: { ...filter, limit: MAX_PAGE_SIZE, page },
    schema: completionsPageSchema as z.ZodMiniType<unknown>,
  }));
  if (riders)
    appendAll(
      calls,
      riders.calls.map((call) => ({ ...call, schema: riders.schema })),
    );
  const outcomes = client.callEach(calls);
  riders?.settle(outcomes.slice(numbers.length));
  const answers = numbers.map(
    (page) => outcomes[sent.indexOf(page)],
  ) as (CallOutcome<CompletionsPage> | null)[];
  outcomes.length = 0;
  return answers.map((answer, index) => {
    const outcome = answer!;
    // Each page's records as sent are let go once validated: a round holds a hundred pages.
    answers[index] = null;
    if (!outcome.ok) throw outcome.error;
    const number = numbers[index]!;
    const entries = outcome.value.completedtrainings.map((served, position): ListEntry => {
      const parsed = completionSchema.safeParse(served);
      if (parsed.success) {
        const key = completionIdentity(parsed.data);
        return known?.get(key) ?? { key, record: parsed.data, rejected: null };
      }
      const source = `${COMPLETIONS_METHOD} page ${number}, record ${position + 1}`;
      return {
        key: `!${JSON.stringify(served)}`,
        record: null,
        rejected: { source, problem: describeIssues(parsed.error) },
      };
    });
    return { number, entries, lastPage: outcome.value.paging.last_page };
  });
}
