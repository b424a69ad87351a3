/**
 * The emulated clock, virtual: it moves only when the cost model charges a service call, a commit or
 * a round of requests, when Utilities.sleep or a lock wait lets time pass, and when the test moves it,
 * never with this machine's elapsed time. So where a run pauses, and what its rounds and commits
 * cost, is the same on any machine however loaded; and a test of a 5-minute back-off takes
 * milliseconds. The script's own CPU time is not on it (the bench reports it beside, measured).
 */

/** 2024-03-01T12:00:00Z: a fixed default so that runs are reproducible. */
export const DEFAULT_START_TIME_MS = Date.UTC(2024, 2, 1, 12, 0, 0);

export class EmulatedClock {
  private epochMs: number;

  constructor(startTimeMs: number = DEFAULT_START_TIME_MS) {
    this.epochMs = startTimeMs;
  }

  /** Emulated epoch milliseconds, always an integer as Date.now() is. */
  now(): number {
    return Math.floor(this.epochMs);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward, not by ${ms} ms`);
    this.epochMs += ms;
  }

  set(epochMs: number): void {
    if (!Number.isFinite(epochMs)) throw new RangeError(`Not a time: ${epochMs}`);
    this.epochMs = epochMs;
  }
}
