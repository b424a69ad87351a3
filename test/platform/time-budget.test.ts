/**
 * The time budget of one run (src/platform/time-budget.ts) on a clock the test moves: a round of
 * requests starts only while one as slow as the slowest so far still ends inside the budget. One
 * slow round among fast ones is what a real network does (a service that stalls once, a proxy that
 * wakes up): the rounds after it are fast, and the next may be slow again.
 */
import { TimeBudget } from '../../src/platform/time-budget';

const LIMIT_MS = 300_000;

function budgetOnTestClock() {
  let nowMs = 0;
  const budget = new TimeBudget(LIMIT_MS, () => nowMs, 0);
  const control = budget.control();
  return {
    budget,
    control,
    /** One round of requests that takes `ms`, timed by the budget as the readers time theirs. */
    round: (ms: number) => control.round(() => (nowMs += ms)),
    elapsedMs: () => nowMs,
  };
}

test('after one slow round, fast ones go on only while a round as slow as it still fits', () => {
  const { control, round, elapsedMs, budget } = budgetOnTestClock();
  round(100_000);
  let fastRounds = 0;
  while (!control.shouldPause()) {
    round(10_000);
    fastRounds++;
    expect(fastRounds).toBeLessThan(100);
  }
  // Fast rounds end at 110 s, 120 s … 200 s (100 s left: one slow round still fits) and 210 s.
  expect(fastRounds).toBe(11);
  expect(elapsedMs()).toBe(210_000);
  expect(budget.leftMs()).toBeLessThan(100_000);
  // A fast round would still fit: the pause is for the slow one that may come.
  expect(budget.leftMs()).toBeGreaterThan(10_000);
});

test('the slowest round is remembered whatever its place: first, in the middle or last', () => {
  for (const slowAt of [0, 3, 7]) {
    const { budget, round } = budgetOnTestClock();
    for (let index = 0; index < 8; index++) round(index === slowAt ? 40_000 : 5_000);
    // 75 s spent, 225 s left: five rounds of 40 s fit, six do not.
    expect(budget.canAfford(5)).toBe(true);
    expect(budget.canAfford(6)).toBe(false);
  }
});

test('a round that fails still counts with the time it took', () => {
  let nowMs = 0;
  const budget = new TimeBudget(LIMIT_MS, () => nowMs, 0);
  expect(() =>
    budget.timed(() => {
      nowMs += 200_000;
      throw new Error('the service timed out');
    }),
  ).toThrow('the service timed out');
  budget.timed(() => (nowMs += 1_000));
  // 201 s spent: the 99 s left are less than the 200 s the failed round took.
  expect(budget.canAfford()).toBe(false);
});
