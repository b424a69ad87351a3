/**
 * Reading every completed-training record, exactly, while the service may change under the read.
 *
 * The service pages newest first by position, and the contract promises neither a total nor a
 * record id: a record inserted or deleted above a page already read shifts every later page, so one
 * pass over the pages can double a record, lose one, or miss a record backdated into a page it had
 * already read. No probe of page boundaries sees a delete and an insert that cancel out, so the read
 * is confirmed instead: a first pass (which may span several executions, its records staged
 * between them) reads every page in order, then a second pass reads every page again and is
 * compared with the first by position. When every page of the second pass is the first pass's
 * record sequence at its place (shifted only by records that arrived on top, which page 1 shows
 * and which go first), the first pass is the service's list, exactly: twins stay twins, and nothing
 * read before a change is kept. Otherwise the second pass becomes the candidate and another pass
 * confirms it. A confirming pass that an earlier execution began confirms only what this one read:
 * the pages it read there are read again, and compared where the list holds them, before the read
 * ends (a delete and an insert between the two executions that cancel out above the rest of the
 * pass show nowhere else). A read of one page is one answer, consistent in itself, and needs no
 * confirmation.
 */
import { checkBatchSize } from './batch-size';
import type { ServiceClient } from './client';
import { Pass, type PagingCursor, passStart } from './completion-pass';
import { type PagingControl, readRound } from './completion-rounds';
import {
  checkFilter,
  type CompletionsFilter,
  type ListEntry,
  recordsOf,
  rejectedOf,
} from './completions-contract';
import { ServiceError, TransportError } from './errors';
import { confirms, confirmsPrint, printOf, settle } from './pass-merge';
import type { ReadControl } from './read-control';
import type { Completion, RejectedRecord } from './schemas';

export interface CompletionsRead {
  /**
   * What the read holds, in service order: once `done`, the list it settled with; while paused,
   * the previous whole pass (in a confirming one) and what the current pass has read. Staged when
   * paused, and handed back as the held entries to resume.
   */
  entries: ListEntry[];
  /** The records of the current pass (once `done`, of the list it settled with). */
  records: Completion[];
  /**
   * Whether `entries` begins with the held ones, unchanged and in order (what was staged still
   * stands and only the rest is new); false when a pass ended or records arrived on top.
   */
  extendsHeld: boolean;
  /** Entries of the current pass that are not records of the contract's shape, at their places. */
  rejected: RejectedRecord[];
  /** Where paging stands; once `done`, `unconfirmed` says how exact the list is (0: exactly). */
  cursor: PagingCursor;
  /** False when the read paused; it resumes from `cursor` with `entries` as the held ones. */
  done: boolean;
  /**
   * Why a pausable read stopped short, when a round failed even after the client's retries: what
   * it read before is kept, to resume from.
   */
  interruption?: ServiceError | TransportError;
}

/**
 * Where a read starts: page 1 of a filter (with the last page an earlier read of it found, when
 * there was one: page 1 then goes out with the pages after it), or a paused read's cursor and the
 * records it held.
 */
export type PagingStart =
  | {
      filter: CompletionsFilter;
      lastPageBefore?: number;
      /**
       * One pass, unconfirmed: for a question one read answers well enough (is this record still
       * listed?) in as few rounds as the pages take.
       */
      onePass?: boolean;
    }
  | { cursor: PagingCursor; held: readonly ListEntry[] };

/**
 * Passes one read makes at most: the first, one to confirm it, and one more (a read that changed
 * under the first pass is exact when the list holds still for the next two). After that the read
 * settles with what the last two passes show, whatever the rate of change, so that it ends.
 */
export const MAX_PASSES = 3;

/**
 * The one reader of all the pages of completions, in at most MAX_PASSES passes, each of which may
 * span executions (`control` pauses it between rounds; what it holds comes back with the cursor to
 * resume from). The first pass reads the list; each later pass reads it again and is compared with
 * the one before when it ends: the same records in the same order, below the ones that arrived on
 * top, make it the service's list exactly; so do those of the pass before that one (a pass disturbed
 * by records arriving on top between the answers of its round disagrees with both passes around
 * it, which agree with each other). When the last pass still disagrees, the read settles
 * with both passes merged (see `settle` in pass-merge.ts): every record either pass listed where
 * it listed it, and a count of those the other pass did not confirm. An execution that goes on
 * with a pass begun earlier reads page 1 again with its first round, and takes what arrived on
 * top since; when that pass confirms, the pages it read in earlier executions are read again
 * (`recheckThrough`), and where they moved is counted as not confirmed.
 */
export function readCompletionPages(
  client: ServiceClient,
  start: PagingStart,
  batchSize: number,
  control: PagingControl = {},
): CompletionsRead {
  checkBatchSize(batchSize);
  const read = new PagedRead(start);
  let rounds = 0;
  for (;;) {
    const { cursor } = read.pass;
    if (cursor.phase !== 'settled' && cursor.nextPage > cursor.lastPage) {
      const settled = read.endPass();
      if (settled) return settled;
      continue;
    }
    if (rounds > 0 && cursor.phase === 'settled' && cursor.recheckThrough === undefined)
      return read.result(true);
    if (rounds > 0 && control.shouldPause?.()) return read.result(false);
    // What arrived on top since an earlier execution: page 1 again, with this execution's first round.
    const topUp = rounds === 0 && !read.fresh;
    rounds++;
    const interruption = readNextRound(client, read, batchSize, control, topUp);
    if (interruption) return { ...read.result(false), interruption };
  }
}

/**
 * Reads the next round of `read`'s pass, then tells `control` where paging stands. Returns why the
 * round failed when the read can pause and keep what it read before; null when it was read.
 */
function readNextRound(
  client: ServiceClient,
  read: PagedRead,
  batchSize: number,
  control: PagingControl,
  topUp: boolean,
): ServiceError | TransportError | null {
  const firstRound = read.pass.cursor.nextPage === 1;
  try {
    readRound(client, read.pass, batchSize, control, read.knownEntries(), topUp);
  } catch (error) {
    // A round places nothing until all its pages are in: what came before it still stands.
    if (!control.shouldPause || !(error instanceof ServiceError || error instanceof TransportError))
      throw error;
    return error;
  }
  const { cursor } = read.pass;
  if (firstRound && cursor.phase === 'read' && cursor.passes === 1)
    control.afterFirstPage?.(cursor, cursor.pageSize);
  if (cursor.phase !== 'settled') control.onProgress?.(cursor);
  return null;
}

/**
 * What one call of the reader holds: the pass going on, the whole pass before it while the two are
 * compared, and the entries it was handed back to resume with.
 */
class PagedRead {
  /** Whether the read starts at page 1 of a filter (not a paused read's cursor). */
  readonly fresh: boolean;
  private readonly onePass: boolean;
  private readonly held: readonly ListEntry[];
  private previous: ListEntry[] | null;
  readonly pass: Pass;
  /**
   * The last page of the current pass an earlier execution read, before the page this
   * execution's first round anchors on (0: none): read again before the pass confirms anything.
   */
  private readBefore: number;
  /**
   * The previous pass's entries by key, while a pass is compared with it: a record read again is
   * its entry (the same fields), so that two passes of a hundred thousand records are not held twice.
   */
  private known: Map<string, ListEntry> | null = null;

  constructor(start: PagingStart) {
    this.fresh = 'filter' in start;
    this.onePass = 'onePass' in start && start.onePass === true;
    const from =
      'filter' in start
        ? passStart(checkFilter(start.filter), 'read', 0, expectedLastPage(start.lastPageBefore))
        : start.cursor;
    this.held = 'held' in start ? start.held : [];
    this.previous = from.phase === 'confirm' ? this.held.slice(0, from.previous) : null;
    this.pass = new Pass(from.phase === 'confirm' ? this.held.slice(from.previous) : [...this.held], from);
    // A first pass's count is let go when it ends: only a confirming pass confirms.
    this.readBefore = Math.max(0, from.nextPage - 2);
  }

  knownEntries(): ReadonlyMap<string, ListEntry> | null {
    if (!this.previous) return null;
    if (!this.known) {
      this.known = new Map();
      for (const entry of this.previous) if (!this.known.has(entry.key)) this.known.set(entry.key, entry);
    }
    return this.known;
  }

  result(done: boolean): CompletionsRead {
    const { held, previous, pass } = this;
    const entries = previous ? [...previous, ...pass.entries] : pass.entries;
    return {
      entries,
      records: recordsOf(pass.entries),
      extendsHeld: held.every((entry, index) => entries[index] === entry),
      rejected: rejectedOf(pass.entries),
      cursor: { ...pass.cursor, previous: previous?.length ?? 0 },
      done,
    };
  }

  /**
   * Once the pass has read its last page: the list the read settles with, or null when it is not
   * confirmed yet and the next pass begins.
   */
  endPass(): CompletionsRead | null {
    const { pass, previous } = this;
    const { cursor } = pass;
    // One page is one answer: nothing can have shifted within it.
    if (this.fresh && cursor.passes === 1 && cursor.lastPage <= 1) return this.settleWith(pass.entries, 0);
    if (this.onePass) return this.settleWith(pass.entries, cursor.moved);
    if (previous) {
      const { passBeforePrevious } = cursor;
      if (
        confirms(previous, pass.entries) ||
        (passBeforePrevious !== undefined && confirmsPrint(passBeforePrevious, pass.entries))
      ) {
        if (this.readBefore === 0) return this.settleWith(pass.entries, cursor.moved);
        // Its first pages are of an earlier execution: read again now, they tell whether the list
        // it confirms is still the service's (see `recheckThrough`).
        this.holdAsSettled(pass.entries, cursor.moved);
        this.pass.cursor = { ...this.pass.cursor, nextPage: 2, recheckThrough: this.readBefore };
        return null;
      }
      if (cursor.passes >= MAX_PASSES) {
        const settled = settle(previous, pass.entries);
        return this.settleWith(settled.entries, settled.unconfirmed + cursor.moved);
      }
    }
    // The pass before the one that ended is let go: the next pass is still compared with its print.
    const passBeforePrevious = previous ? printOf(previous) : undefined;
    this.previous = pass.entries;
    this.known = null;
    this.readBefore = 0;
    pass.entries = [];
    pass.cursor = passStart(cursor.filter, 'confirm', cursor.passes, cursor.lastPage, passBeforePrevious);
    return null;
  }

  /** The read holds `entries` as the list, `unconfirmed` of them not confirmed. */
  private holdAsSettled(entries: ListEntry[], unconfirmed: number): void {
    this.previous = null;
    this.pass.entries = entries;
    this.pass.cursor = { ...this.pass.cursor, phase: 'settled', unconfirmed };
  }

  private settleWith(entries: ListEntry[], unconfirmed: number): CompletionsRead {
    this.holdAsSettled(entries, unconfirmed);
    return this.result(true);
  }
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
  const pass = new Pass([], cursor);
  /** Where each round's page starts among the pass's entries. */
  const pageStarts: number[] = [];
  // Records arriving on top or inserted between the answers of one round push records from the
  // end of one page to the start of the next, where nothing can tell them from identical twins: a
  // refresh, which adds and never removes, takes a record that an earlier page of its read showed
  // once (a real twin split by a page boundary is then added by the next full read, a doubled row
  // never is). Twins side by side on one page are two records.
  const outcome = (complete: boolean) => {
    const kept: ListEntry[] = [];
    const onEarlierPages = new Set<string>();
    pageStarts.forEach((start, page) => {
      const entries = pass.entries.slice(start, pageStarts[page + 1] ?? pass.entries.length);
      for (const entry of entries) if (!onEarlierPages.has(entry.key)) kept.push(entry);
      for (const entry of entries) onEarlierPages.add(entry.key);
    });
    return { records: recordsOf(kept), rejected: rejectedOf(kept), complete };
  };
  for (let rounds = 0; ; rounds++) {
    if (rounds > 0 && control.shouldPause?.()) return outcome(false);
    const before = pass.entries.length;
    readRound(client, pass, 1, control, null, false);
    pageStarts.push(before);
    const fresh = pass.entries.slice(before);
    const reachedBack =
      fresh.length === 0 ||
      fresh.some((entry) => entry.record !== null && entry.record.dateNumber < sinceDateNumber);
    if (reachedBack || pass.cursor.nextPage > pass.cursor.lastPage) return outcome(true);
  }
}
