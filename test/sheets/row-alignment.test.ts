/**
 * Row alignment, against an oracle that replays its steps on a list of rows as Sheets inserts and
 * deletes them: the rows end in the table's order, every row that stays is the same row (never
 * written), no row is inserted above the first record, the rows that are written are exactly the
 * inserted runs, and a longest run of records in unchanged order stays (none moves needlessly).
 */
import { alignRows } from '../../src/sheets/row-alignment';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';

/** A tab row: the record it was written for, and whether this run wrote it. */
interface Row {
  key: string;
  written: boolean;
}

/** The tab's rows 2 on after the steps, as Sheets' insertRowsAfter and deleteRows leave them. */
function replay(
  oldKeys: readonly string[],
  newKeys: readonly string[],
): { rows: Row[]; insertedAbove: boolean } {
  const alignment = alignRows(oldKeys, newKeys);
  // Index 0 is tab row 2.
  const rows: (Row | null)[] = oldKeys.map((key) => ({ key, written: false }));
  let insertedAbove = false;
  for (const step of alignment.steps) {
    if (step.insertCount > 0) {
      if (step.insertAfter < 2) insertedAbove = true;
      rows.splice(step.insertAfter - 1, 0, ...new Array<null>(step.insertCount).fill(null));
    }
    if (step.deleteCount > 0) rows.splice(step.deleteAt - 2, step.deleteCount);
  }
  for (const run of alignment.insertedRuns)
    for (let index = run.first; index < run.end; index++)
      rows[index] = { key: newKeys[index]!, written: true };
  return { rows: rows.map((row) => row ?? { key: '(empty)', written: false }), insertedAbove };
}

/** The length of a longest common subsequence (the oracle's own, quadratic). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      lengths[i]![j] =
        a[i - 1] === b[j - 1]
          ? lengths[i - 1]![j - 1]! + 1
          : Math.max(lengths[i - 1]![j]!, lengths[i]![j - 1]!);
  return lengths[a.length]![b.length]!;
}

/** A tab's keys and the table's: records removed, added anywhere, a few moved; sometimes a key twice. */
function lists(random: Random): { oldKeys: string[]; newKeys: string[] } {
  const oldKeys = Array.from({ length: random.int(1, 12) }, (_, index) => `r${index}`);
  let newKeys = oldKeys.filter(() => !random.chance(0.2));
  for (let added = random.int(0, 4); added > 0; added--)
    newKeys.splice(random.int(0, newKeys.length), 0, `new${added}`);
  if (newKeys.length > 1 && random.chance(0.3)) {
    const [moved] = newKeys.splice(random.int(0, newKeys.length - 1), 1);
    newKeys.splice(random.int(0, newKeys.length), 0, moved!);
  }
  if (random.chance(0.15)) oldKeys.splice(random.int(0, oldKeys.length), 0, oldKeys[0]!);
  if (random.chance(0.1)) newKeys = [];
  return { oldKeys, newKeys };
}

const { seeds } = sequenceSeeds('ROW_ALIGNMENT', 500);

test.each(seeds)('seed %i: the steps leave the table in order, rows that stay untouched', (seed) => {
  const { oldKeys, newKeys } = lists(seeded(seed));
  const context = `seed ${seed} (ROW_ALIGNMENT_SEED=${seed}): tab ${oldKeys.join(',')} → table ${newKeys.join(',')}`;
  const { rows, insertedAbove } = replay(oldKeys, newKeys);
  expect({ context, keys: rows.map((row) => row.key) }).toEqual({ context, keys: newKeys });
  expect({ context, insertedAbove }).toEqual({ context, insertedAbove: false });
  // Every record in unchanged order stays, but the first record when records arrive above it.
  const stayed = rows.filter((row) => !row.written).length;
  const best = lcsLength([...new Set(oldKeys)], newKeys);
  const firstMoves = oldKeys.length > 0 && newKeys.indexOf(oldKeys[0]!) > 0 ? 1 : 0;
  expect({ context, stayed: stayed >= best - firstMoves }).toEqual({ context, stayed: true });
});

test('one record on top: one insertion below the first record, which alone moves', () => {
  const alignment = alignRows(['a', 'b', 'c', 'd'], ['new', 'a', 'b', 'c', 'd']);
  expect(alignment.steps).toEqual([{ insertAfter: 2, insertCount: 1, deleteAt: 3, deleteCount: 0 }]);
  expect(alignment.insertedRuns).toEqual([{ first: 0, end: 2 }]);
});

test('one record removed in the middle: one deletion, nothing written', () => {
  const alignment = alignRows(['a', 'b', 'c', 'd'], ['a', 'b', 'd']);
  expect(alignment.steps).toEqual([{ insertAfter: 4, insertCount: 0, deleteAt: 4, deleteCount: 1 }]);
  expect(alignment.insertedRuns).toEqual([]);
});
