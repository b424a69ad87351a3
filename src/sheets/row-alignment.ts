/**
 * Where a table's records go when it is written over its tab again, the way a user would make room:
 * records whose order is unchanged (the longest run of them in the same relative order in the tab
 * and in the table) keep their rows; the rows of records that leave, or that must move because
 * their order changed, are deleted; rows are inserted where records arrive. A row that stays keeps
 * everything on it untouched (the user's values, rules, notes, formats, and references to its cells),
 * as when a user inserts or deletes rows.
 *
 * No row is ever inserted above the first record: Sheets shifts a reference to the table that starts
 * there (`A2:A` becomes `A3:A`). Records arriving on top take the first record's row instead (a
 * reference to `$D$2` keeps meaning the newest record), rows are inserted below it, inside the
 * table, and the first record moves down into them with its cells.
 */

/** One place where rows change, in the tab's row numbers before any change. */
export interface RowStep {
  /** Rows inserted after this row (the last deleted row when rows are deleted here too). */
  insertAfter: number;
  insertCount: number;
  /** The first row deleted (its rows are above the inserted ones). */
  deleteAt: number;
  deleteCount: number;
}

export interface RowAlignment {
  /** For each record of the table (its order): the index in the tab's records of the row it keeps, or -1. */
  keptFrom: number[];
  /** The changes, bottom to top: each leaves the row numbers of the steps above it as they were. */
  steps: RowStep[];
  /**
   * Runs of records of the table (indexes `first` to `end − 1`) whose rows are inserted: all their
   * cells are written. The first run starts on the first row when records arrived on top of it.
   */
  insertedRuns: { first: number; end: number }[];
  inserted: number;
  deleted: number;
}

/**
 * Aligns the table's keys (`newKeys`, in order) with the records in the tab (`oldKeys`, rows 2 on).
 * A key the tab holds twice keeps only its first row. O(n log n): keys are matched by position.
 */
export function alignRows(oldKeys: readonly string[], newKeys: readonly string[]): RowAlignment {
  const newIndex = new Map<string, number>();
  newKeys.forEach((key, index) => {
    if (!newIndex.has(key)) newIndex.set(key, index);
  });
  const seen = new Set<string>();
  const pairs: { old: number; new: number }[] = [];
  oldKeys.forEach((key, index) => {
    if (seen.has(key)) return;
    seen.add(key);
    const at = newIndex.get(key);
    if (at !== undefined) pairs.push({ old: index, new: at });
  });
  const kept = longestIncreasing(pairs);
  // Inserting above the first record would shift references to the table: rows are inserted below
  // it instead, and its row takes the first record arriving on top (the first record moves down).
  const firstRowReused = kept.length > 0 && kept[0]!.old === 0 && kept[0]!.new !== 0;
  if (firstRowReused) kept.shift();

  const keptFrom = new Array<number>(newKeys.length).fill(-1);
  for (const pair of kept) keptFrom[pair.new] = pair.old;
  const steps: RowStep[] = [];
  const insertedRuns: RowAlignment['insertedRuns'] = [];
  let inserted = 0;
  let deleted = 0;
  const top = firstRowReused ? { old: 0, new: 0 } : { old: -1, new: -1 };
  const bounds = [top, ...kept, { old: oldKeys.length, new: newKeys.length }];
  for (let index = 1; index < bounds.length; index++) {
    const above = bounds[index - 1]!;
    const below = bounds[index]!;
    const deleteCount = below.old - above.old - 1;
    const insertCount = below.new - above.new - 1;
    if (deleteCount === 0 && insertCount === 0) continue;
    const deleteAt = above.old + 3;
    steps.push({ insertAfter: deleteAt + deleteCount - 1, insertCount, deleteAt, deleteCount });
    const first = above === top && firstRowReused ? 0 : above.new + 1;
    if (below.new > first) insertedRuns.push({ first, end: below.new });
    inserted += insertCount;
    deleted += deleteCount;
  }
  steps.reverse();
  return { keptFrom, steps, insertedRuns, inserted, deleted };
}

/** The longest subsequence of `pairs` (in order) whose `new` increases: patience sorting. */
function longestIncreasing(pairs: readonly { old: number; new: number }[]): { old: number; new: number }[] {
  const tails: number[] = [];
  const previous = new Array<number>(pairs.length).fill(-1);
  pairs.forEach((pair, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (pairs[tails[middle]!]!.new < pair.new) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const result: { old: number; new: number }[] = [];
  for (let index = tails[tails.length - 1] ?? -1; index !== -1; index = previous[index]!)
    result.push(pairs[index]!);
  return result.reverse();
}
