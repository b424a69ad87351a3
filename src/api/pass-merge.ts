/**
 * Comparing a whole pass with the one before it: whether it confirms it (the service's list,
 * exactly), or, when the last pass still disagrees, the list both passes merged settle with.
 */
import { appendAll } from '../lib/arrays';
import { fingerprint } from '../lib/fingerprint';
import { type ListEntry, positionsByKey } from './completions-contract';

/**
 * Whether `current`, a whole pass, is `previous` (the whole pass before it) below records that
 * arrived on top meanwhile: then nothing changed under either pass, and it is the service's list.
 */
export function confirms(previous: readonly ListEntry[], current: readonly ListEntry[]): boolean {
  const arrived = current.length - previous.length;
  if (arrived < 0) return false;
  for (let index = 0; index < previous.length; index++) {
    if (current[arrived + index]!.key !== previous[index]!.key) return false;
  }
  return true;
}

/**
 * A whole pass's list as a later pass can still be compared with it once its entries are let go:
 * how many records it held, and a fingerprint of their keys in order.
 */
export interface PassPrint {
  records: number;
  keys: string;
}

function keysPrint(entries: readonly ListEntry[], from: number): string {
  const keys: string[] = [];
  for (let index = from; index < entries.length; index++) keys.push(entries[index]!.key);
  return fingerprint(keys.join('\u0000'));
}

export function printOf(entries: readonly ListEntry[]): PassPrint {
  return { records: entries.length, keys: keysPrint(entries, 0) };
}

/**
 * Whether `current`, a whole pass, is the list an earlier pass printed below records that arrived
 * on top since, as `confirms` asks of the pass just before it: two reads that agree, whatever a
 * pass between them saw (records arriving on top in the middle of its round, say).
 */
export function confirmsPrint(print: PassPrint, current: readonly ListEntry[]): boolean {
  const arrived = current.length - print.records;
  return arrived >= 0 && keysPrint(current, arrived) === print.keys;
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
