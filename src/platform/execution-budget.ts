/**
 * The time one execution has for its jobs. Apps Script stops an execution after 6 minutes whatever
 * it is doing, and a stopped run keeps the spreadsheet's run lease until the lease expires, so every
 * path that sends requests asks before each round whether a round as long as the last one still
 * fits (on a slow network every round is long), and stops cleanly when it does not. The service
 * client asks too before it retries.
 */
import type { ReadControl } from '../api/read-control';

const EXECUTION_LIMIT_MS = 360_000;
/** Kept back for what follows the last round: staging, writing the tab, the Sync log. */
const RESERVE_MS = 60_000;

export class ExecutionBudget {
  private lastRoundMs = 0;

  /** @param startMs When the execution started (Date.now() at its entry point). */
  constructor(private readonly startMs: number) {}

  /** Milliseconds left for requests. */
  leftMs(): number {
    return EXECUTION_LIMIT_MS - RESERVE_MS - (Date.now() - this.startMs);
  }

  /** Whether another round as long as the last one still fits. */
  fitsAnotherRound(): boolean {
    return this.leftMs() > this.lastRoundMs;
  }

  /**
   * Steering for a read of several rounds: it pauses before a round that would not fit (readers
   * never ask before their first round, so every execution makes progress), and times each round.
   */
  control(): Required<ReadControl> {
    return {
      shouldPause: () => !this.fitsAnotherRound(),
      round: (read) => {
        const startedMs = Date.now();
        try {
          return read();
        } finally {
          this.lastRoundMs = Date.now() - startedMs;
        }
      },
    };
  }
}
