/**
 * How a caller steers a read made of several rounds of requests (one fetchAll each): a menu import
 * pauses when its execution's time is up and resumes in the next; a custom function times every
 * round against its 30 seconds and refuses one that cannot fit. One shape for every such read.
 */
import type * as z from 'zod/mini';
import type { CallOutcome, ServiceCall } from './client';

export interface ReadControl {
  /** Asked before every round but a call's first (so each call makes progress): true pauses there. */
  shouldPause?: () => boolean;
  /** Runs one round of requests; the default just runs it. */
  round?: <T>(read: () => T) => T;
}

export function runRound<T>(control: ReadControl, read: () => T): T {
  return control.round ? control.round(read) : read();
}

/**
 * Calls of another method that ride in a read's round: one fetchAll carries both, and Google prices
 * a round once (its overhead, its waves of requests side by side), not once for each method.
 */
export interface RidingCalls<T> {
  calls: ServiceCall[];
  schema: z.ZodMiniType<T>;
  /** Their outcomes, in order, once the round is in: before the read looks at its own answers. */
  settle(outcomes: readonly CallOutcome<T>[]): void;
}
