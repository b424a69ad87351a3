/**
 * The time a custom function may spend. Sheets stops a custom function after 30 seconds and shows
 * only "Exceeded maximum execution time"; a function that measures itself (the shared TimeBudget)
 * can instead stop a few seconds earlier with a message that says what to do.
 */
import { TimeBudget } from '../platform/time-budget';

/** Leaves room for loading the script before the call and for building the answer after it. */
export const FORMULA_BUDGET_MS = 25_000;

/** A function gave up because its work does not fit in the time a formula has. */
export class FormulaTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormulaTooLargeError';
  }
}

export class FormulaBudget extends TimeBudget {
  constructor(now: () => number) {
    super(FORMULA_BUDGET_MS, now);
  }

  /** Runs one round, after checking it fits; `tooLarge` is the message when it does not. */
  step<T>(tooLarge: () => string, run: () => T): T {
    if (!this.canAfford()) throw new FormulaTooLargeError(tooLarge());
    return this.timed(run);
  }
}
