/**
 * The time a custom function may spend. Sheets stops a custom function after 30 seconds and shows
 * only "Exceeded maximum execution time"; a function that measures itself can instead stop a few
 * seconds earlier with a message that says what to do. Steps (one fetchAll round each) are timed,
 * and a step starts only when one as slow as the slowest so far still ends inside the budget.
 */

/** Leaves room for loading the script before the call and for building the answer after it. */
export const FORMULA_BUDGET_MS = 25_000;

/** A function gave up because its work does not fit in the time a formula has. */
export class FormulaTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormulaTooLargeError';
  }
}

export class TimeBudget {
  private readonly startedAtMs: number;
  private slowestStepMs = 0;

  constructor(
    private readonly now: () => number,
    private readonly limitMs = FORMULA_BUDGET_MS,
  ) {
    this.startedAtMs = now();
  }

  /** Whether `steps` more steps, each as slow as the slowest so far, end inside the budget. */
  canAfford(steps: number): boolean {
    return this.now() - this.startedAtMs + steps * this.slowestStepMs <= this.limitMs;
  }

  /** Runs one step, after checking it fits; `tooLarge` is the message when it does not. */
  step<T>(tooLarge: () => string, run: () => T): T {
    if (!this.canAfford(1)) throw new FormulaTooLargeError(tooLarge());
    const startedAtMs = this.now();
    const result = run();
    this.slowestStepMs = Math.max(this.slowestStepMs, this.now() - startedAtMs);
    return result;
  }
}
