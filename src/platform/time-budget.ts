/**
 * The time a run may spend, spent in rounds of requests (one fetchAll each). A round starts only
 * when one as slow as the slowest so far still ends inside the budget: on a slow network every round
 * is long, and a run that measures itself can stop cleanly instead of being stopped. Menu runs and
 * triggers have 6 minutes an execution (they stop and continue in the next one); a custom function
 * has 30 seconds (it refuses with a message saying what to do).
 */
import type { ReadControl } from '../api/read-control';

const EXECUTION_LIMIT_MS = 360_000;
/** Kept back for what follows the last round: staging, writing the tab, the Sync log. */
const EXECUTION_RESERVE_MS = 60_000;

export class TimeBudget {
  private slowestRoundMs = 0;
  private readonly startedAtMs: number;

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number = () => Date.now(),
    startedAtMs = now(),
  ) {
    this.startedAtMs = startedAtMs;
  }

  /** Milliseconds left for requests. */
  leftMs(): number {
    return this.limitMs - (this.now() - this.startedAtMs);
  }

  /** Whether `rounds` more rounds, each as slow as the slowest so far, end inside the budget. */
  canAfford(rounds = 1): boolean {
    return this.leftMs() >= rounds * this.slowestRoundMs;
  }

  /** Runs one round and remembers how long it took. */
  timed<T>(round: () => T): T {
    const startedMs = this.now();
    try {
      return round();
    } finally {
      this.slowestRoundMs = Math.max(this.slowestRoundMs, this.now() - startedMs);
    }
  }

  /**
   * Steering for a read of several rounds: it pauses before a round that would not fit (readers
   * never ask before their first round, so every execution makes progress), and times each round.
   */
  control(): Required<ReadControl> & { canAfford: (rounds: number) => boolean } {
    return {
      shouldPause: () => !this.canAfford(),
      round: (read) => this.timed(read),
      canAfford: (rounds) => this.canAfford(rounds),
    };
  }
}

/** The budget of one execution (a menu run, a dialog call, a trigger) that started at `startMs`. */
export function executionBudget(startMs: number): TimeBudget {
  return new TimeBudget(EXECUTION_LIMIT_MS - EXECUTION_RESERVE_MS, () => Date.now(), startMs);
}
