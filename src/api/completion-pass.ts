/**
 * One pass over the pages of completions, and where paging stands between executions.
 */
import { appendAll } from '../lib/arrays';
import { type CompletionsFilter, type ListEntry, positionsByKey } from './completions-contract';
import type { PassPrint } from './pass-merge';

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
  /**
   * The whole pass before `previous`, which it did not confirm, as a print: a pass that shows its
   * list below records arrived on top is the list too. Absent before a third pass, and from a
   * cursor an earlier version saved.
   */
  passBeforePrevious?: PassPrint;
  /**
   * Once settled by a confirming pass that an earlier execution began: the last of the pages it
   * read there (before the page its resumed round anchored on), which are read again, from
   * `nextPage` (page 1 with each round), before the list counts as exact. A change between the
   * two executions that cancels out above that anchor (a record deleted, another inserted) leaves
   * the rest of the pass agreeing with the pass before it; only those pages show it.
   */
  recheckThrough?: number;
}

/** Where a new pass starts: page 1, nothing placed, `expectedLastPage` (1: not known) expected. */
export function passStart(
  filter: CompletionsFilter,
  phase: 'read' | 'confirm',
  passesBefore: number,
  expectedLastPage = 1,
  passBeforePrevious?: PassPrint,
): PagingCursor {
  return {
    filter,
    phase,
    nextPage: 1,
    lastPage: expectedLastPage,
    pageSize: 0,
    anchorAt: 0,
    previous: 0,
    passes: passesBefore + 1,
    moved: 0,
    unconfirmed: 0,
    ...(passBeforePrevious && { passBeforePrevious }),
  };
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
 * The records of `top` (page 1 read now) that arrived on top of `list` (the pass so far, newest
 * first) since its page 1 was read: those before the first of its records that page 1 still shows
 * (the newest ones may have been deleted meanwhile); all of it when it shows none of them.
 */
function arrivalsOnTop(list: readonly ListEntry[], top: readonly ListEntry[]): ListEntry[] {
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

/**
 * One pass over the pages, as a list: each page is placed where it belongs in the list as it was
 * when the pass began. Every round after the first asks again for the page the round before ended
 * with: where its records sit in what is placed anchors the round (changes above it, records on
 * top, backdated or deleted, have moved it), and the round's pages follow it back to back, as the
 * service serves them (a page shorter than the others, from a service that leaves a record out,
 * moves nothing). A page whose records do not fit where they land (the list changed within the
 * pages read) is placed by the last of its records already placed (see `realign`).
 */
export class Pass {
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
   * Checks a page of a settled list, read again, against where the list holds it: a list that
   * moved under it since it settled (records deleted or inserted above or within the page) is
   * not confirmed. Page 1 read with the same round has taken what arrived on top meanwhile.
   */
  checkPage(again: readonly ListEntry[], page: number): void {
    const expectedAt = (page - 1) * this.cursor.pageSize;
    this.cursor = { ...this.cursor, anchorAt: expectedAt };
    const at = this.anchor(again);
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

  /**
   * Takes the records that `top` (page 1 read again) shows arrived on top since the pass began.
   * The pass's records then begin where the list does, so the last page it read is expected at its
   * page's place in the list: how far the page read again with `top` is from there is how far the
   * list moved under the pass (records that arrived on top while it read on were missed by it, and
   * are taken now; they moved nothing).
   */
  takeArrivals(top: readonly ListEntry[]): void {
    const arrived = arrivalsOnTop(this.entries, top);
    if (arrived.length > 0) this.entries = [...arrived, ...this.entries];
    const { nextPage, pageSize } = this.cursor;
    this.cursor = { ...this.cursor, anchorAt: Math.max(0, nextPage - 2) * pageSize };
  }
}
