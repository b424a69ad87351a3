/**
 * The emulated clock: the start time, plus real time elapsed (so that slow code still costs time),
 * plus whatever Utilities.sleep, lock waits and the test have added. Sleeping never really sleeps:
 * a test of a 5-minute back-off takes milliseconds.
 */
import { performance } from 'node:perf_hooks';

/** 2024-03-01T12:00:00Z: a fixed default so that runs are reproducible. */
export const DEFAULT_START_TIME_MS = Date.UTC(2024, 2, 1, 12, 0, 0);

export class EmulatedClock {
  private offsetMs: number;

  constructor(startTimeMs: number = DEFAULT_START_TIME_MS) {
    this.offsetMs = startTimeMs - performance.now();
  }

  /** Emulated epoch milliseconds, always an integer as Date.now() is. */
  now(): number {
    return Math.floor(performance.now() + this.offsetMs);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward, not by ${ms} ms`);
    this.offsetMs += ms;
  }

  set(epochMs: number): void {
    if (!Number.isFinite(epochMs)) throw new RangeError(`Not a time: ${epochMs}`);
    this.offsetMs = epochMs - performance.now();
  }
}
