/**
 * Reading every completed-training record, exactly, while the service may change under the read.
 *
 * The service pages newest first by position, and the contract promises neither a total nor a
 * record id: a record inserted or deleted above a page already read shifts every later page, so one
 * pass over the pages can double a record, lose one, or miss a record backdated into a page it had
 * already read. No probe of page boundaries sees a delete and an insert that cancel out, so the read
 * is confirmed instead: a first pass (which may span several executions, its records staged
 * between them) reads every page in order, then a second pass reads every page again, within one
 * execution, and is compared with the first by position. When every page of the second pass is the
 * first pass's record sequence at its place (shifted only by records that arrived on top, which
 * page 1 shows and which go first), the first pass is the service's list, exactly: twins stay twins,
 * and nothing read before a change is kept. Otherwise the second pass becomes the candidate and
 * another pass confirms it. A read of one page is one answer, consistent in itself, and needs no
 * confirmation.
 */
import { appendAll } from '../lib/arrays';
import type * as z from 'zod/mini';
import type { CallOutcome, ServiceClient } from './client';
import { completionIdentity } from './completion-key';
import { InvalidParameterError, ServiceError, TransportError } from './errors';
import { checkBatchSize } from './batch-size';
import { type ReadControl, type RidingCalls, runRound } from './read-control';
import {
  type Completion,
  type CompletionsPage,
  completionSchema,
  completionsPageSchema,
  describeIssues,
  type RejectedRecord,
} from './schemas';

export const COMPLETIONS_METHOD = 'completedtrainings.list';
export const MAX_PAGE_SIZE = 1000;

export interface CompletionsFilter {
  user_id?: string;
  training_id?: string;
}

export interface CompletionsRead {
  /** The list read, in service order (once `done`, the service's list exactly); staged when paused. */
  entries: ListEntry[];
  /** Its records. */
  records: Completion[];
  /**
   * Whether `records` begins with the held records, unchanged and in order (what was staged still
   * stands and only the rest is new); false when a confirming pass replaced them.
   */
  extendsHeld: boolean;
  /** Entries of the list that are not records of the contract's shape, at their places. */
  rejected: RejectedRecord[];
  cursor: PagingCursor;
  /** False when the read paused; it resumes from `cursor` with `records` as the held ones. */
  done: boolean;
  /**
   * Why a pausable read stopped short, when a round failed even after the client's retries: what
   * it read before is kept, to resume from.
   */
  interruption?: ServiceError | TransportError;
}

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

/**
 * Where a read starts: page 1 of a filter (with the last page an earlier read of it found, when
 * there was one: page 1 then goes out with the pages after it), or a paused read's cursor and the
 * records it held.
 */
export type PagingStart =
  | { filter: CompletionsFilter; lastPageBefore?: number }
  | { cursor: PagingCursor; held: readonly ListEntry[] };

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

/** One place of the list: a record, or an entry the contract's shape refuses (it keeps its place). */
export interface ListEntry {
  /** completionIdentity of the record, or the entry's JSON (marked) when it is refused. */
  key: string;
  record: Completion | null;
  rejected: RejectedRecord | null;
}

interface Page {
  number: number;
  entries: ListEntry[];
  lastPage: number;
}

/**
 * The requests of each round of reading `lastPage` pages when nothing changes: one round (page 1)
 * for a single page; else two passes. A pass that knows the last page (the confirming one always;
 * the first one when `lastPageKnown`, from an earlier read) sends page 1 with the `batchSize` pages
 * after it; one that does not sends page 1 alone. Each later round is `batchSize` pages with the
 * page before them.
 */
export function readRounds(lastPage: number, batchSize: number, lastPageKnown = false): number[] {
  if (lastPage <= 1) return [1];
  const pass = (knowsLastPage: boolean): number[] => {
    const first = knowsLastPage ? Math.min(lastPage, 1 + batchSize) : 1;
    const rounds = [first];
    for (let read = first; read < lastPage; read += batchSize) {
      rounds.push(1 + Math.min(batchSize, lastPage - read));
    }
    return rounds;
  };
  return [...pass(lastPageKnown), ...pass(true)];
}

/** The rounds and requests of `readRounds`. */
export function readCost(
  lastPage: number,
  batchSize: number,
  lastPageKnown = false,
): { rounds: number; requests: number } {
  const rounds = readRounds(lastPage, batchSize, lastPageKnown);
  return { rounds: rounds.length, requests: rounds.reduce((sum, requests) => sum + requests, 0) };
}

/** Where paging stands between executions; small enough for a document property. */
export interface PagingCursor {
  filter: CompletionsFilter;
  /**
   * 'read': a pass whose records are the candidate; 'confirm': a pass checking the candidate, which
   * so far agrees with it, below `onTop` records that arrived on top (held after the candidate).
   */
  phase: 'read' | 'confirm';
  nextPage: number;
  /** The last page as the latest answer said; before page 1's, the one expected (1: not known). */
  lastPage: number;
  /** Records a page, as page 1 of the pass showed (a service may serve fewer than asked). */
  pageSize: number;
  /** Records the confirming pass has placed (the first `onTop`, then the candidate's). */
  placed: number;
  onTop: number;
  /**
   * Whether the confirming pass began with the first round of an execution: one that still did not
   * fit goes on in the next (the list it confirms is the one of when it began); one begun midway
   * begins again at the start of the next, so that what it confirms is as recent as possible.
   */
  beganWithExecution: boolean;
  /** Passes over the pages begun for this read. */
  passes: number;
}

/** Passes one call may begin before it pauses (or, when it cannot pause, gives up). */
const MAX_PASSES_PER_CALL = 5;

/** Where a new pass starts: page 1, nothing placed, `expectedLastPage` (1: not known) expected. */
function passStart(
  filter: CompletionsFilter,
  phase: PagingCursor['phase'],
  passesBefore: number,
  expectedLastPage = 1,
): PagingCursor {
  return {
    filter,
    phase,
    nextPage: 1,
    lastPage: expectedLastPage,
    pageSize: 0,
    placed: 0,
    onTop: 0,
    passes: passesBefore + 1,
    beganWithExecution: false,
  };
}

/**
 * The one reader of all the pages of completions. A pass reads the candidate; a second pass
 * confirms it round by round, and the first round that disagrees makes that pass the candidate
 * (its rest is read as such) and another confirms it. A pass that cannot place a page where it
 * belongs (the list changed within the pages being read) is begun again. `control` may pause it
 * between rounds, within either pass; what it holds comes back with the cursor to resume from.
 */
export function readCompletionPages(
  client: ServiceClient,
  start: PagingStart,
  batchSize: number,
  control: PagingControl = {},
): CompletionsRead {
  checkBatchSize(batchSize);
  const fresh = 'filter' in start;
  const from =
    'filter' in start
      ? passStart(checkFilter(start.filter), 'read', 0, expectedLastPage(start.lastPageBefore))
      : start.cursor;
  const held: ListEntry[] = 'held' in start ? [...start.held] : [];
  // In the confirming phase the records on top are held after the candidate.
  let candidate = from.phase === 'confirm' ? held.slice(0, held.length - from.onTop) : held;
  let onTop = from.phase === 'confirm' ? held.slice(held.length - from.onTop) : [];
  let pass: Pass;
  if (from.phase === 'read') pass = new Pass(candidate, from);
  else if (from.beganWithExecution && from.nextPage > 1)
    pass = new Pass([...onTop, ...candidate].slice(0, from.placed), from);
  else {
    onTop = [];
    pass = new Pass([], {
      ...passStart(from.filter, 'confirm', from.passes - 1, from.lastPage),
      beganWithExecution: true,
    });
  }
  /** How much of what the confirming pass placed is known to agree with the candidate. */
  let agreedUpTo = pass.entries.length;
  /**
   * The candidate's entries by key, while a pass confirms it: a record read again that the candidate
   * has is its entry (the same fields), so a confirming pass of a hundred thousand records does not
   * hold them twice.
   */
  let known: Map<string, ListEntry> | null = null;
  const knownEntries = (): ReadonlyMap<string, ListEntry> | null => {
    if (pass.cursor.phase !== 'confirm') return null;
    if (!known) {
      known = new Map();
      for (const entry of candidate) if (!known.has(entry.key)) known.set(entry.key, entry);
    }
    return known;
  };
  let begun = 0;
  let rounds = 0;
  const result = (done: boolean): CompletionsRead => {
    const records = done ? [...onTop, ...candidate] : [...candidate, ...onTop];
    const { cursor } = pass;
    return {
      entries: records,
      records: recordsOf(records),
      extendsHeld: held.every((entry, index) => records[index] === entry),
      rejected: rejectedOf(records),
      // A finished read resumed later (to go on with its names) is confirmed again from page 1.
      cursor: done
        ? passStart(cursor.filter, 'confirm', cursor.passes, cursor.lastPage)
        : { ...cursor, placed: cursor.phase === 'confirm' ? pass.entries.length : 0, onTop: onTop.length },
      done,
    };
  };
  const begin = (phase: PagingCursor['phase']): void => {
    begun++;
    known = null;
    onTop = [];
    agreedUpTo = 0;
    if (phase === 'read') candidate = [];
    const cursor = {
      ...passStart(pass.cursor.filter, phase, pass.cursor.passes, pass.cursor.lastPage),
      beganWithExecution: rounds === 0,
    };
    pass = new Pass(phase === 'read' ? candidate : [], cursor);
  };
  /** The confirming pass disagrees: what it read is the candidate now, and it reads on as such. */
  const becomeCandidate = (): void => {
    known = null;
    candidate = pass.entries;
    onTop = [];
    pass.cursor = { ...pass.cursor, phase: 'read' };
  };

  for (;;) {
    const { cursor } = pass;
    if (cursor.nextPage > cursor.lastPage) {
      if (cursor.phase === 'confirm') return result(true);
      // One page is one answer: nothing can have shifted within it.
      if (fresh && cursor.passes === 1 && cursor.lastPage <= 1) return result(true);
      begin('confirm');
    }
    if (begun >= MAX_PASSES_PER_CALL) {
      if (control.shouldPause) return result(false);
      throw new TransportError(
        COMPLETIONS_METHOD,
        'unstable',
        `the records kept changing while they were read (${pass.cursor.passes} passes over the pages disagreed)`,
      );
    }
    if (rounds++ > 0 && control.shouldPause?.()) return result(false);
    const firstRound = pass.cursor.nextPage === 1;
    try {
      readRound(client, pass, batchSize, control, knownEntries());
    } catch (error) {
      // A round places nothing until all its pages are in: what came before it still stands.
      if (!control.shouldPause || !(error instanceof ServiceError || error instanceof TransportError))
        throw error;
      return { ...result(false), interruption: error };
    }
    const { phase, passes } = pass.cursor;
    if (firstRound && phase === 'read' && passes === 1)
      control.afterFirstPage?.(pass.cursor, pass.cursor.pageSize);
    control.onProgress?.(pass.cursor);
    if (pass.disturbed) {
      // What it placed cannot be trusted: the pass begins again (a read from scratch).
      begin(phase === 'read' || !candidate.length ? 'read' : 'confirm');
      continue;
    }
    if (phase === 'read') continue;
    if (firstRound) {
      const arrived = arrivedOnTop(candidate, pass.entries);
      if (arrived === null) {
        becomeCandidate();
        continue;
      }
      onTop = pass.entries.slice(0, arrived);
      agreedUpTo = arrived;
    }
    const finished = pass.cursor.nextPage > pass.cursor.lastPage;
    if (
      !agrees(candidate, onTop.length, pass.entries, agreedUpTo) ||
      (finished && pass.entries.length !== onTop.length + candidate.length)
    ) {
      becomeCandidate();
    }
    agreedUpTo = pass.entries.length;
  }
}

/**
 * How many records arrived on top of `candidate`, as page 1 read now (`page`) shows: its records
 * from there on are the candidate's first. Null when there is no such number.
 */
function arrivedOnTop(candidate: readonly ListEntry[], page: readonly ListEntry[]): number | null {
  for (let arrived = 0; arrived <= page.length; arrived++) {
    let same = true;
    for (let index = arrived; index < page.length && same; index++) {
      same = index - arrived < candidate.length && page[index]!.key === candidate[index - arrived]!.key;
    }
    if (same) return arrived;
  }
  return null;
}

/**
 * Whether `entries` (what a confirming pass placed) are `onTop` records followed by the candidate's,
 * checked from `from` on (what came before was checked after an earlier round).
 */
function agrees(
  candidate: readonly ListEntry[],
  onTop: number,
  entries: readonly ListEntry[],
  from: number,
): boolean {
  if (entries.length > onTop + candidate.length) return false;
  for (let index = Math.max(from, onTop); index < entries.length; index++) {
    if (entries[index]!.key !== candidate[index - onTop]!.key) return false;
  }
  return true;
}

/**
 * One pass over the pages, as a list: each page is placed where it belongs in the list as it was
 * when the pass began. Every round after the first asks again for the page the round before ended
 * with: where its records sit in what is placed anchors the round (changes above it, records on
 * top, backdated or deleted, have moved it), and the round's pages follow it back to back, as the
 * service serves them (a page shorter than the others, from a service that leaves a record out,
 * moves nothing). A page that does not fit where it lands (records that disagree with what is
 * already placed), or a round with no anchor, means the list changed within the pages being read:
 * the pass is disturbed.
 */
class Pass {
  disturbed = false;
  /** Where each page of this pass was placed. */
  private readonly placedAt = new Map<number, number>();

  constructor(
    readonly entries: ListEntry[],
    public cursor: PagingCursor,
  ) {}

  /**
   * Where the records of `again` (the last page placed, read now) begin in what is placed: the
   * nearest to where the page was placed, as twins may allow more than one; negative when records
   * arrived above them. Null when they are nowhere.
   */
  anchor(again: Page): number | null {
    const placedAt = this.placedAt.get(again.number) ?? (again.number - 1) * this.cursor.pageSize;
    const { entries } = this;
    const size = again.entries.length;
    if (size === 0) return null;
    for (let distance = 0; distance <= size; distance++) {
      for (const at of distance === 0 ? [placedAt] : [placedAt - distance, placedAt + distance]) {
        // Records of `again` above position 0 arrived on top: they are compared with nothing.
        if (at + size <= 0 || at >= entries.length) continue;
        let same = true;
        for (let index = Math.max(0, -at); index < size && at + index < entries.length && same; index++) {
          same = entries[at + index]!.key === again.entries[index]!.key;
        }
        if (same) return at;
      }
    }
    return null;
  }

  /**
   * Places `page` at `at` (null: nowhere known) and returns where the next page goes. Records it
   * shows above position 0 arrived on top since and are not part of this pass's list.
   */
  place(page: Page, at: number | null): number | null {
    const { entries } = this;
    const fits =
      at !== null &&
      at <= entries.length &&
      page.entries.every(
        (entry, index) =>
          at + index < 0 || at + index >= entries.length || entries[at + index]!.key === entry.key,
      );
    if (!fits) {
      this.disturbed = true;
      appendAll(entries, page.entries);
      return null;
    }
    this.placedAt.set(page.number, at);
    appendAll(entries, page.entries.slice(Math.max(0, entries.length - at)));
    return at + page.entries.length;
  }
}

/**
 * Reads the next round of `pass`. Its first round is page 1, with the `batchSize` pages after it
 * when the pass expects more than one (page 1 alone tells how many there are); each later round is
 * a batch of pages with the page before them, which anchors it.
 */
function readRound(
  client: ServiceClient,
  pass: Pass,
  batchSize: number,
  control: PagingControl,
  known: ReadonlyMap<string, ListEntry> | null = null,
): void {
  const from = pass.cursor;
  const numbers =
    from.nextPage === 1
      ? [1, ...pageNumbers(2, from.lastPage, batchSize)]
      : [from.nextPage - 1, ...pageNumbers(from.nextPage, from.lastPage, batchSize)];
  const riders = control.riding?.() ?? null;
  const pages = runRound(control, () => fetchPages(client, from.filter, numbers, riders, known));
  if (control.onEntriesRead) for (const page of pages) control.onEntriesRead(page.entries);
  const lastPage = Math.max(...pages.map((page) => page.lastPage));
  if (from.nextPage === 1) {
    // Page 1 is where the list begins; the pages sent with it follow it as the service served them.
    const [first, ...rest] = pages as [Page, ...Page[]];
    let next = pass.place(first, 0);
    for (const page of rest) next = pass.place(page, next);
    pass.cursor = { ...from, nextPage: numbers.length + 1, lastPage, pageSize: first.entries.length };
    return;
  }
  const [again, ...rest] = pages as [Page, ...Page[]];
  let next = pass.place(again, pass.anchor(again));
  for (const page of rest) next = pass.place(page, next);
  pass.cursor = { ...from, nextPage: rest[rest.length - 1]!.number + 1, lastPage };
}

/** Up to `batchSize` page numbers from `from` on, none beyond `lastPage`. */
function pageNumbers(from: number, lastPage: number, batchSize: number): number[] {
  const numbers: number[] = [];
  for (let page = from; page < from + batchSize && page <= lastPage; page++) numbers.push(page);
  return numbers;
}

/**
 * The last page a read expects from what an earlier read found (1: not known). The list may have
 * grown or shrunk since: a page beyond its end answers an empty list, and one the guess fell short
 * of is read in the rounds that follow.
 */
function expectedLastPage(lastPageBefore: number | undefined): number {
  return lastPageBefore !== undefined && Number.isInteger(lastPageBefore) && lastPageBefore > 1
    ? lastPageBefore
    : 1;
}

export function recordEntry(record: Completion): ListEntry {
  return { key: completionIdentity(record), record, rejected: null };
}

function recordsOf(entries: readonly ListEntry[]): Completion[] {
  const records: Completion[] = [];
  for (const entry of entries) if (entry.record) records.push(entry.record);
  return records;
}

function rejectedOf(entries: readonly ListEntry[]): RejectedRecord[] {
  const rejected: RejectedRecord[] = [];
  for (const entry of entries) if (entry.rejected) rejected.push(entry.rejected);
  return rejected;
}

function fetchPages(
  client: ServiceClient,
  filter: CompletionsFilter,
  numbers: readonly number[],
  riders: RidingCalls<unknown> | null,
  known: ReadonlyMap<string, ListEntry> | null,
): Page[] {
  const calls = numbers.map((page) => ({
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
  const answers = outcomes.slice(0, numbers.length) as (CallOutcome<CompletionsPage> | null)[];
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

/**
 * The records from page 1 down to the first page that reaches back before `sinceDateNumber`: what
 * an incremental refresh needs (newest first, so usually page 1 alone). Each page after the first
 * is placed as a pass places it, so records arriving on top between rounds do not show up twice;
 * it is not confirmed: a refresh adds what is new, and Reconcile is the exact read. `complete` is false
 * when `control` paused it before it reached back far enough, or the list kept changing within it.
 */
export function fetchRecentCompletions(
  client: ServiceClient,
  filter: CompletionsFilter,
  sinceDateNumber: number,
  control: ReadControl = {},
): { records: Completion[]; rejected: RejectedRecord[]; complete: boolean } {
  const cursor = passStart(checkFilter(filter), 'read', 0);
  let pass = new Pass([], cursor);
  /** Where each round's page starts among the pass's entries. */
  let pageStarts: number[] = [];
  // Records arriving on top between the answers of one round push as many records from the end of
  // one page to the start of the next, where nothing can tell them from identical twins: a
  // refresh, which adds and never removes, takes a run of records that repeats the run just before
  // it at a page's start once (a real twin is then added by the next refresh or read, a doubled
  // row never is).
  const outcome = (complete: boolean) => {
    const kept: ListEntry[] = [];
    pageStarts.forEach((start, page) => {
      const entries = pass.entries.slice(start, pageStarts[page + 1] ?? pass.entries.length);
      kept.push(...entries.slice(repeatedRun(kept, entries)));
    });
    return { records: recordsOf(kept), rejected: rejectedOf(kept), complete };
  };
  for (let rounds = 0, restarts = 0; ; rounds++) {
    if (rounds > 0 && control.shouldPause?.()) return outcome(false);
    const before = pass.entries.length;
    readRound(client, pass, 1, control);
    if (pass.disturbed) {
      if (++restarts === MAX_PASSES_PER_CALL) return outcome(false);
      pass = new Pass([], cursor);
      pageStarts = [];
      continue;
    }
    pageStarts.push(before);
    const fresh = pass.entries.slice(before);
    const reachedBack =
      fresh.length === 0 ||
      fresh.some((entry) => entry.record !== null && entry.record.dateNumber < sinceDateNumber);
    if (reachedBack || pass.cursor.nextPage > pass.cursor.lastPage) return outcome(true);
  }
}

/** How many entries at the start of `page` repeat, in order, the last ones of `kept`. */
function repeatedRun(kept: readonly ListEntry[], page: readonly ListEntry[]): number {
  for (let length = Math.min(kept.length, page.length); length > 0; length--) {
    let repeats = true;
    for (let index = 0; index < length && repeats; index++) {
      repeats = kept[kept.length - length + index]!.key === page[index]!.key;
    }
    if (repeats) return length;
  }
  return 0;
}
