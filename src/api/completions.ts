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
   * 'read': the first pass; 'confirm': a later pass, compared with the whole pass before it (held
   * before its own records) once it ends; 'settled': the list is read, and a later execution only
   * adds what arrived on top meanwhile.
   */
  phase: 'read' | 'confirm' | 'settled';
  nextPage: number;
  /** The last page as the latest answer said; before page 1's, the one expected (1: not known). */
  lastPage: number;
  /** Records a page, as page 1 of the pass showed (a service may serve fewer than asked). */
  pageSize: number;
  /** Where the last page read begins among the pass's records: the next round's anchor. */
  anchorAt: number;
  /** Records of the previous whole pass, held before this pass's own (0 in the first pass). */
  previous: number;
  /** Passes over the pages begun for this read. */
  passes: number;
  /**
   * How far the list moved under this pass below page 1, as its anchors showed: records deleted
   * above a page already read (which the pass still holds) or inserted among them (which it
   * misses). Records arriving on top move nothing that counts.
   */
  moved: number;
  /**
   * Once settled: records of the list it could not confirm (the two passes disagreed on them, or
   * the list moved under the last pass); 0 when it is the service's list exactly.
   */
  unconfirmed: number;
}

/**
 * Passes one read makes at most: the first, one to confirm it, and one more (a read that changed
 * under the first pass is exact when the list holds still for the next two). After that the read
 * settles with what the last two passes show, whatever the rate of change, so that it ends.
 */
export const MAX_PASSES = 3;

/** Where a new pass starts: page 1, nothing placed, `expectedLastPage` (1: not known) expected. */
function passStart(
  filter: CompletionsFilter,
  phase: 'read' | 'confirm',
  passesBefore: number,
  expectedLastPage = 1,
  previous = 0,
): PagingCursor {
  return {
    filter,
    phase,
    nextPage: 1,
    lastPage: expectedLastPage,
    pageSize: 0,
    anchorAt: 0,
    previous,
    passes: passesBefore + 1,
    moved: 0,
    unconfirmed: 0,
  };
}

/**
 * The one reader of all the pages of completions, in at most MAX_PASSES passes, each of which may
 * span executions (`control` pauses it between rounds; what it holds comes back with the cursor to
 * resume from). The first pass reads the list; each later pass reads it again and is compared with
 * the one before when it ends: the same records in the same order, below the ones that arrived on
 * top, make it the service's list exactly. When the last pass still disagrees, the read settles
 * with both passes merged (see `settle`): every record either pass listed where it listed it, and
 * a count of those the other pass did not confirm. An execution that goes on with a pass begun
 * earlier reads page 1 again with its first round, and takes what arrived on top since.
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
  const held: readonly ListEntry[] = 'held' in start ? start.held : [];
  let previous: ListEntry[] | null = from.phase === 'confirm' ? held.slice(0, from.previous) : null;
  const pass = new Pass(from.phase === 'confirm' ? held.slice(from.previous) : [...held], from);
  /**
   * The previous pass's entries by key, while a pass is compared with it: a record read again is
   * its entry (the same fields), so that two passes of a hundred thousand records are not held twice.
   */
  let known: Map<string, ListEntry> | null = null;
  const knownEntries = (): ReadonlyMap<string, ListEntry> | null => {
    if (!previous) return null;
    if (!known) {
      known = new Map();
      for (const entry of previous) if (!known.has(entry.key)) known.set(entry.key, entry);
    }
    return known;
  };
  const result = (done: boolean): CompletionsRead => {
    const entries = previous ? [...previous, ...pass.entries] : pass.entries;
    return {
      entries,
      records: recordsOf(pass.entries),
      extendsHeld: held.every((entry, index) => entries[index] === entry),
      rejected: rejectedOf(pass.entries),
      cursor: { ...pass.cursor, previous: previous?.length ?? 0 },
      done,
    };
  };
  const settleWith = (entries: ListEntry[], unconfirmed: number): CompletionsRead => {
    previous = null;
    pass.entries = entries;
    pass.cursor = { ...pass.cursor, phase: 'settled', unconfirmed };
    return result(true);
  };

  let rounds = 0;
  for (;;) {
    const { cursor } = pass;
    if (cursor.phase !== 'settled' && cursor.nextPage > cursor.lastPage) {
      // One page is one answer: nothing can have shifted within it.
      if (fresh && cursor.passes === 1 && cursor.lastPage <= 1) return settleWith(pass.entries, 0);
      if ('onePass' in start && start.onePass) return settleWith(pass.entries, cursor.moved);
      if (previous) {
        if (confirms(previous, pass.entries)) return settleWith(pass.entries, cursor.moved);
        if (cursor.passes >= MAX_PASSES) {
          const settled = settle(previous, pass.entries);
          return settleWith(settled.entries, settled.unconfirmed + cursor.moved);
        }
      }
      previous = pass.entries;
      known = null;
      pass.entries = [];
      pass.cursor = passStart(cursor.filter, 'confirm', cursor.passes, cursor.lastPage);
      continue;
    }
    if (rounds > 0 && cursor.phase === 'settled') return result(true);
    if (rounds > 0 && control.shouldPause?.()) return result(false);
    // What arrived on top since an earlier execution: page 1 again, with this execution's first round.
    const topUp = rounds === 0 && !fresh && (cursor.phase === 'settled' || cursor.nextPage > 1);
    rounds++;
    const firstRound = cursor.nextPage === 1;
    try {
      readRound(client, pass, batchSize, control, knownEntries(), topUp);
    } catch (error) {
      // A round places nothing until all its pages are in: what came before it still stands.
      if (!control.shouldPause || !(error instanceof ServiceError || error instanceof TransportError))
        throw error;
      return { ...result(false), interruption: error };
    }
    const { phase, passes } = pass.cursor;
    if (firstRound && phase === 'read' && passes === 1)
      control.afterFirstPage?.(pass.cursor, pass.cursor.pageSize);
    if (phase !== 'settled') control.onProgress?.(pass.cursor);
  }
}

/**
 * How many records arrived on top of `list`, as `page` (page 1 read now) shows: its records from
 * there on are the list's first. Null when there is no such number.
 */
function arrivedOnTop(list: readonly ListEntry[], page: readonly ListEntry[]): number | null {
  for (let arrived = 0; arrived <= page.length; arrived++) {
    let same = true;
    for (let index = arrived; index < page.length && same; index++) {
      same = index - arrived < list.length && page[index]!.key === list[index - arrived]!.key;
    }
    if (same) return arrived;
  }
  return null;
}

/**
 * Whether `current`, a whole pass, is `previous` (the whole pass before it) below records that
 * arrived on top meanwhile: then nothing changed under either pass, and it is the service's list.
 */
function confirms(previous: readonly ListEntry[], current: readonly ListEntry[]): boolean {
  const arrived = current.length - previous.length;
  if (arrived < 0) return false;
  for (let index = 0; index < previous.length; index++) {
    if (current[arrived + index]!.key !== previous[index]!.key) return false;
  }
  return true;
}

/**
 * The records of `top` (page 1 read now) that arrived on top of `list` (the pass so far, newest
 * first) since its page 1 was read: those before the first of its records that page 1 still shows
 * (the newest ones may have been deleted meanwhile); all of it when it shows none of them.
 */
function arrivalsOnTop(list: readonly ListEntry[], top: readonly ListEntry[]): ListEntry[] {
  if (list.length === 0) return [...top];
  const exact = arrivedOnTop(list, top);
  // All of page 1 new says nothing of where the list went: a page of arrivals looks the same as a
  // page whose first record was deleted.
  if (exact !== null && exact < top.length) return top.slice(0, exact);
  const positions = positionsByKey(top);
  for (const entry of list.slice(0, 3 * top.length)) {
    const at = positions.get(entry.key);
    if (at) return top.slice(0, at[0]);
  }
  // None of the list's first records is on page 1 now: a page or more arrived on top (page 1's
  // records are taken; any beyond it come with the next read), far likelier than three pages of
  // the newest records deleted.
  return [...top];
}

/** Each key's positions in `entries`, in order. */
function positionsByKey(entries: readonly ListEntry[], offset = 0): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const at = positions.get(entry.key);
    if (at) at.push(offset + index);
    else positions.set(entry.key, [offset + index]);
  });
  return positions;
}

/** The first of `positions` (ascending) at or after `from`; Infinity when none is. */
function firstFrom(positions: readonly number[] | undefined, from: number): number {
  if (!positions) return Infinity;
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (positions[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return low < positions.length ? positions[low]! : Infinity;
}

/**
 * The list a read settles with when its last two passes still disagree: both merged in list order.
 * A record both passes show is kept once for each time both show it. Records that only one of them
 * shows (deleted or inserted while they read, or passed over by one of them at a change between
 * the answers of a round) were listed when that pass read them: they are kept where that pass
 * showed them, and counted as unconfirmed (a twin one pass passed over keeps its row; a record
 * read twice at a page boundary, as records arrived above it between two answers of a round, is
 * then doubled until the next Reconcile). Records the later pass shows above everything the
 * earlier one read arrived on top meanwhile: they are in, and not counted.
 */
export function settle(
  previous: readonly ListEntry[],
  current: readonly ListEntry[],
): { entries: ListEntry[]; unconfirmed: number } {
  const inPrevious = positionsByKey(previous);
  const inCurrent = positionsByKey(current);
  const entries: ListEntry[] = [];
  let unconfirmed = 0;
  /** One-sided records since the last record both passes show. */
  let oneSided: ListEntry[] = [];
  const keepOneSided = (): void => {
    unconfirmed += oneSided.length;
    appendAll(entries, oneSided);
    oneSided = [];
  };
  let agreed = false;
  let p = 0;
  let c = 0;
  while (p < previous.length || c < current.length) {
    const before = previous[p];
    const now = current[c];
    if (before && now && before.key === now.key) {
      keepOneSided();
      entries.push(now);
      agreed = true;
      p++;
      c++;
      continue;
    }
    // Whichever side reaches the other's next record sooner holds the one-sided records.
    const untilBefore = before ? firstFrom(inCurrent.get(before.key), c) - c : Infinity;
    const untilNow = now ? firstFrom(inPrevious.get(now.key), p) - p : Infinity;
    if (now && (!before || untilNow > untilBefore || (untilNow === untilBefore && !agreed))) {
      if (agreed) oneSided.push(now);
      else entries.push(now);
      c++;
    } else {
      oneSided.push(before!);
      p++;
    }
  }
  keepOneSided();
  return { entries: newestFirst(entries), unconfirmed };
}

/**
 * `entries` in the service's order, newest first, where merging two passes left a record out of
 * it (one the earlier pass read before records around it were backdated, say): a stable sort by
 * completion date, an entry of the wrong shape keeping the date of the record before it. Written
 * out of order, the tab would look sorted by its user, and keep that order on every import.
 */
function newestFirst(entries: ListEntry[]): ListEntry[] {
  let date = Infinity;
  const dated = entries.map((entry, index) => {
    date = entry.record?.dateNumber ?? date;
    return { entry, date, index };
  });
  dated.sort((a, b) => b.date - a.date || a.index - b.index);
  return dated.map(({ entry }) => entry);
}

/**
 * One pass over the pages, as a list: each page is placed where it belongs in the list as it was
 * when the pass began. Every round after the first asks again for the page the round before ended
 * with: where its records sit in what is placed anchors the round (changes above it, records on
 * top, backdated or deleted, have moved it), and the round's pages follow it back to back, as the
 * service serves them (a page shorter than the others, from a service that leaves a record out,
 * moves nothing). A page whose records do not fit where they land (the list changed within the
 * pages read) is placed by the last of its records already placed (see `realign`).
 */
class Pass {
  constructor(
    public entries: ListEntry[],
    public cursor: PagingCursor,
  ) {}

  /**
   * Where the records of `again` (the last page placed, read now) begin in what is placed: the
   * nearest to where the page was placed, as twins may allow more than one; negative when records
   * arrived above them. Null when they are nowhere, contiguous.
   */
  private anchor(again: readonly ListEntry[]): number | null {
    const placedAt = this.cursor.anchorAt;
    const { entries } = this;
    const size = again.length;
    if (size === 0) return null;
    for (let distance = 0; distance <= size; distance++) {
      for (const at of distance === 0 ? [placedAt] : [placedAt - distance, placedAt + distance]) {
        // Records of `again` above position 0 arrived on top: they are compared with nothing.
        if (at + size <= 0 || at >= entries.length) continue;
        let same = true;
        for (let index = Math.max(0, -at); index < size && at + index < entries.length && same; index++) {
          same = entries[at + index]!.key === again[index]!.key;
        }
        if (same) return at;
      }
    }
    return null;
  }

  /** Places `again`, the page the last round ended with, read anew; returns where the next page goes. */
  placeAnchor(again: readonly ListEntry[], afterTopUp: boolean): number {
    const at = this.anchor(again);
    this.noteMove(at, this.cursor.anchorAt, afterTopUp);
    return at === null ? this.realign(again, this.cursor.anchorAt) : this.place(again, at);
  }

  /**
   * Counts how far a page read again (found `at`, null: not found as it was) moved from where the
   * pass holds it: up, as records above it were deleted; down, as records were inserted among
   * those above, or arrived on top, which do not count: the next pass takes them, and page 1 read
   * `afterTopUp` (with the same round) has, so that all the rest of a move down counts then.
   */
  private noteMove(at: number | null, expectedAt: number, afterTopUp: boolean): void {
    const shift = at === null ? 1 : at - expectedAt;
    const moved = afterTopUp ? Math.abs(shift) : Math.max(0, shift);
    if (moved > 0) this.cursor = { ...this.cursor, moved: this.cursor.moved + moved };
  }

  /**
   * Checks a settled list's last page, read again, against the list's end: a list that moved
   * under it since it settled (records deleted or inserted below page 1) is not confirmed.
   */
  checkTail(tail: readonly ListEntry[], page: number): void {
    // Where the page begins in the list now; the list held has the arrivals on top too.
    const expectedAt = (page - 1) * this.cursor.pageSize;
    this.cursor = { ...this.cursor, anchorAt: expectedAt };
    const at = this.anchor(tail);
    const moved = at === null ? 1 : Math.abs(at - expectedAt);
    if (moved > 0) this.cursor = { ...this.cursor, unconfirmed: this.cursor.unconfirmed + moved };
  }

  /**
   * Places `page` where it is expected (`at`) and returns where the page after it goes. Records it
   * shows above position 0 arrived on top since and are not part of this pass's list.
   */
  place(page: readonly ListEntry[], at: number): number {
    const { entries } = this;
    const fits =
      at <= entries.length &&
      page.every(
        (entry, index) =>
          at + index < 0 || at + index >= entries.length || entries[at + index]!.key === entry.key,
      );
    if (!fits) return this.realign(page, at);
    appendAll(entries, page.slice(Math.max(0, entries.length - at)));
    return at + page.length;
  }

  /**
   * Places a page whose records do not fit where they were expected (a record was deleted or
   * inserted among the pages read): the last of its records that is already placed, the one
   * nearest to where it was expected, tells where the page is among the placed records, and the
   * records after it on the page follow it. Placed records the page no longer shows stay (a record
   * deleted meanwhile lingers) and records it shows before that one that are not placed are left
   * out (one inserted meanwhile is missing): what the page shows after it is never lost nor
   * doubled, and the comparison with the next pass finds the others. A page with nothing placed
   * goes after everything.
   */
  private realign(page: readonly ListEntry[], expectedAt: number): number {
    const { entries } = this;
    const from = Math.max(0, Math.min(expectedAt, entries.length) - page.length);
    const positions = positionsByKey(entries.slice(from), from);
    for (let index = page.length - 1; index >= 0; index--) {
      const at = positions.get(page[index]!.key);
      if (!at) continue;
      const expected = expectedAt + index;
      const nearest = at.reduce((best, position) =>
        Math.abs(position - expected) < Math.abs(best - expected) ? position : best,
      );
      // What follows it on the page goes right after it, before the placed records that followed
      // it (records inserted meanwhile, which they come after; or records deleted meanwhile,
      // which linger): the next page begins after the former or among the latter.
      const rest = page.slice(index + 1);
      entries.splice(nearest + 1, 0, ...rest);
      return nearest + 1 + rest.length;
    }
    appendAll(entries, page);
    return entries.length;
  }

  /** Takes the records that `top` (page 1 read again) shows arrived on top since the pass began. */
  takeArrivals(top: readonly ListEntry[]): void {
    const arrived = arrivalsOnTop(this.entries, top);
    if (arrived.length === 0) return;
    this.entries = [...arrived, ...this.entries];
    this.cursor = { ...this.cursor, anchorAt: this.cursor.anchorAt + arrived.length };
  }
}

/**
 * Reads the next round of `pass`. Its first round is page 1, with the `batchSize` pages after it
 * when the pass expects more than one (page 1 alone tells how many there are); each later round is
 * a batch of pages with the page before them, which anchors it. With `topUp`, page 1 goes too, for
 * what arrived on top since the pass began (a settled read sends it alone).
 */
function readRound(
  client: ServiceClient,
  pass: Pass,
  batchSize: number,
  control: PagingControl,
  known: ReadonlyMap<string, ListEntry> | null,
  topUp: boolean,
): void {
  const from = pass.cursor;
  // A settled list's last page, for whether the list moved under it since it settled.
  const tailPage = from.phase === 'settled' && from.lastPage > 1 ? from.lastPage : null;
  const passNumbers =
    from.phase === 'settled'
      ? tailPage === null
        ? []
        : [tailPage]
      : from.nextPage === 1
        ? [1, ...pageNumbers(2, from.lastPage, batchSize)]
        : [from.nextPage - 1, ...pageNumbers(from.nextPage, from.lastPage, batchSize)];
  // A round anchored on page 1 reads it anyway.
  const extraTop = topUp && passNumbers[0] !== 1;
  const numbers = extraTop ? [1, ...passNumbers] : passNumbers;
  const riders = control.riding?.() ?? null;
  const pageOneLast = from.nextPage === 1 || extraTop;
  let pages = runRound(control, () => fetchPages(client, from.filter, numbers, riders, known, pageOneLast));
  if (control.onEntriesRead) for (const page of pages) control.onEntriesRead(page.entries);
  if (topUp) pass.takeArrivals(pages[0]!.entries);
  if (extraTop) pages = pages.slice(1);
  if (from.phase === 'settled') {
    if (tailPage !== null) pass.checkTail(pages[0]!.entries, tailPage);
    return;
  }
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
