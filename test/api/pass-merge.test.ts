/**
 * Comparing two whole passes over the pages: whether the later one confirms the earlier, and the
 * list a read settles with when they still disagree (each record kept where a pass showed it, the
 * one-sided ones counted, the whole in the service's order, newest first).
 */
import type { ListEntry } from '../../src/api/completions-contract';
import { confirms, confirmsPrint, printOf, settle } from '../../src/api/pass-merge';

/** A record named `name`, completed on the YYYYMMDD day `dateNumber`. */
function entry(name: string, dateNumber: number): ListEntry {
  return {
    key: name,
    record: {
      user_id: name,
      training_id: 't',
      created: dateNumber,
      dateNumber,
      instructor_id: 'i',
      groupTraining_id: 'g',
    },
    rejected: null,
  };
}

/** An entry of the wrong shape: no record, no date of its own. */
function refused(name: string): ListEntry {
  return { key: `!${name}`, record: null, rejected: { source: name, problem: 'no dateNumber' } };
}

const A = entry('A', 20240310);
const B = entry('B', 20240308);
const C = entry('C', 20240306);
const D = entry('D', 20240304);
const NEW = entry('NEW', 20240312);

const keys = (entries: readonly ListEntry[]) => entries.map((one) => one.key);

/** How many rows each record gets. */
function countsOf(entries: readonly ListEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const one of entries) counts[one.key] = (counts[one.key] ?? 0) + 1;
  return counts;
}

describe('confirms', () => {
  test('the same records in the same order, below records that arrived on top', () => {
    expect(confirms([A, B, C], [A, B, C])).toBe(true);
    expect(confirms([A, B, C], [NEW, A, B, C])).toBe(true);
  });

  test('a record gone, moved, or added below the top: not confirmed', () => {
    expect(confirms([A, B, C], [A, C])).toBe(false);
    expect(confirms([A, B, C], [A, C, B])).toBe(false);
    expect(confirms([A, B, C], [A, B, NEW, C])).toBe(false);
    expect(confirms([A, B, C], [A, B, C, D])).toBe(false);
  });
});

describe('confirmsPrint: a pass compared with an earlier one whose entries were let go', () => {
  test('the printed list, below records that arrived on top: confirmed', () => {
    expect(confirmsPrint(printOf([A, B, C]), [A, B, C])).toBe(true);
    expect(confirmsPrint(printOf([A, B, C]), [NEW, A, B, C])).toBe(true);
  });

  test('a record gone, moved, added below the top or at the end, or a twin less: not confirmed', () => {
    const twin = entry('A', 20240310);
    expect(confirmsPrint(printOf([A, B, C]), [A, C])).toBe(false);
    expect(confirmsPrint(printOf([A, B, C]), [A, C, B])).toBe(false);
    expect(confirmsPrint(printOf([A, B, C]), [A, B, NEW, C])).toBe(false);
    expect(confirmsPrint(printOf([A, B, C]), [A, B, C, D])).toBe(false);
    expect(confirmsPrint(printOf([A, twin, B]), [NEW, A, B])).toBe(false);
  });
});

describe('settle', () => {
  test('two passes that agree: that list, nothing unconfirmed', () => {
    expect(settle([A, B, C], [A, B, C])).toEqual({ entries: [A, B, C], unconfirmed: 0 });
  });

  test('records the later pass shows above all the earlier read arrived on top: in, not counted', () => {
    expect(settle([A, B], [NEW, A, B])).toEqual({ entries: [NEW, A, B], unconfirmed: 0 });
  });

  test('a record only one pass shows, in the middle or at the end: kept where it showed it, and counted', () => {
    expect(settle([A, B, C], [A, C])).toEqual({ entries: [A, B, C], unconfirmed: 1 });
    expect(settle([A, C], [A, B, C])).toEqual({ entries: [A, B, C], unconfirmed: 1 });
    expect(settle([A, B, C, D], [A, B])).toEqual({ entries: [A, B, C, D], unconfirmed: 2 });
    expect(settle([A, B], [A, B, C, D])).toEqual({ entries: [A, B, C, D], unconfirmed: 2 });
  });

  test('one-sided records of both passes between the same two: all kept, newest first, each counted', () => {
    // The earlier pass read B where the later one reads C: both were listed at some point.
    expect(settle([A, C, D], [A, B, D])).toEqual({ entries: [A, B, C, D], unconfirmed: 2 });
    expect(settle([A, B, D], [A, C, D])).toEqual({ entries: [A, B, C, D], unconfirmed: 2 });
  });

  test('twins: kept once for each time both passes show them', () => {
    const twin = entry('A', 20240310);
    expect(settle([A, twin, B], [A, twin, B])).toEqual({ entries: [A, twin, B], unconfirmed: 0 });
    expect(settle([A, twin, B], [A, B])).toEqual({ entries: [A, twin, B], unconfirmed: 1 });
  });

  test('records of one day that the later pass lists in another order: each pass’s records kept, the fewest counted', () => {
    // The service orders records of one day as it likes, and two passes may disagree on it.
    const sameDay = entry('D', 20240308);
    const swapped = settle([B, sameDay, C], [sameDay, B, C]);
    expect(countsOf(swapped.entries)).toEqual({ B: 1, D: 2, C: 1 });
    expect(swapped.unconfirmed).toBe(1);
    // Twins of one day, one more of them shown by the later pass.
    const twinA = entry('A', 20240310);
    const twinB = entry('B', 20240310);
    const first = entry('B', 20240310);
    const moved = settle([A, first, twinB, D], [twinB, A, first, twinA, D]);
    expect(countsOf(moved.entries)).toEqual({ A: 2, B: 3, D: 1 });
    expect(moved.unconfirmed).toBe(2);
  });

  test('an entry of the wrong shape keeps its place after the record before it; ties keep the merged order', () => {
    const early = entry('E', 20240308);
    const settled = settle([A, refused('x'), C, D], [A, early, B, D]);
    expect(keys(settled.entries)).toEqual(['A', '!x', 'E', 'B', 'C', 'D']);
    expect(settled.unconfirmed).toBe(4);
  });
});
