/**
 * Executions: every entry point runs as one, with its kind, authorization mode, user and deadline.
 * Services ask "who is running, and may they?" here. Time limits are enforced on the emulated
 * clock before every service call (ServiceCallCounter's hook), and whatever advances the clock on
 * the script's behalf (sleep, lock waits) stops at the deadline, as Google kills the execution there.
 * An execution may be given less time than its kind's limit (a trigger with little of its owner's
 * daily trigger time left), and then fails with that limit's own message.
 */
import { AppsScriptException, type AuthModeName, type ExecutionContext, type ExecutionKind } from '../core';
import type { EmulatedClock } from './clock';
import type { ScriptContext } from './realm';

export interface ExecutionLimits {
  /** Menu items, dialog calls, installable triggers: 6 min. */
  full: number;
  customFunction: number;
  simpleTrigger: number;
}

export const DEFAULT_EXECUTION_LIMITS: ExecutionLimits = {
  full: 360_000,
  customFunction: 30_000,
  simpleTrigger: 30_000,
};

export const EXCEEDED_MAXIMUM_EXECUTION_TIME = 'Exceeded maximum execution time';

export interface ExecutionSpec {
  kind: ExecutionKind;
  authMode: AuthModeName;
  /** Whose user stores, caches, locks, quotas and triggers the execution uses. */
  user: string;
  /** The e-mail Session reveals for the active and effective user; '' when anonymous. */
  sessionEmail: string;
  activeSpreadsheetId: string | null;
  /** A shorter limit than the kind's, and the message the execution fails with when it reaches it. */
  timeLimit?: { ms: number; message: string };
}

export class Execution {
  readonly context: ExecutionContext;
  readonly user: string;
  readonly sessionEmail: string;
  /** Set once the deadline has passed: from then on every service call fails, caught or not. */
  timedOut = false;
  private script: ScriptContext | undefined;
  private readonly endHooks: Array<() => void> = [];

  constructor(
    readonly id: number,
    spec: ExecutionSpec,
    deadlineMs: number,
    /** What the execution fails with at its deadline. */
    readonly timeoutMessage: string,
  ) {
    this.user = spec.user;
    this.sessionEmail = spec.sessionEmail;
    this.context = Object.freeze({
      kind: spec.kind,
      authMode: spec.authMode,
      userEmail: spec.kind === 'custom-function' ? '' : spec.user,
      activeSpreadsheetId: spec.activeSpreadsheetId,
      deadlineMs,
    });
  }

  get scriptContext(): ScriptContext {
    if (!this.script) throw new Error(`Execution ${this.id} has no script context yet`);
    return this.script;
  }

  attach(script: ScriptContext): void {
    this.script = script;
  }

  hasScriptContext(): boolean {
    return this.script !== undefined;
  }

  /** Runs when the execution ends, however it ends (locks are released this way). */
  onEnd(hook: () => void): void {
    this.endHooks.push(hook);
  }

  runEndHooks(): void {
    for (const hook of this.endHooks.splice(0)) hook();
  }
}

export class Executions {
  /** A stack: a custom function recalculated while a menu run writes its cell runs inside it. */
  private readonly running: Execution[] = [];
  private nextId = 1;

  constructor(
    private readonly clock: EmulatedClock,
    private readonly limits: ExecutionLimits,
  ) {}

  current(): Execution | undefined {
    return this.running[this.running.length - 1];
  }

  requireCurrent(): Execution {
    const execution = this.current();
    if (!execution) throw new Error('No Apps Script execution is running');
    return execution;
  }

  begin(spec: ExecutionSpec): Execution {
    const kindMs = this.limitFor(spec.kind);
    const limit =
      spec.timeLimit && spec.timeLimit.ms < kindMs
        ? spec.timeLimit
        : { ms: kindMs, message: EXCEEDED_MAXIMUM_EXECUTION_TIME };
    const execution = new Execution(this.nextId++, spec, this.clock.now() + limit.ms, limit.message);
    this.running.push(execution);
    return execution;
  }

  end(execution: Execution): void {
    const index = this.running.lastIndexOf(execution);
    if (index !== this.running.length - 1)
      throw new Error(`Execution ${execution.id} is not the innermost one`);
    this.running.pop();
    execution.runEndHooks();
  }

  /** ServiceCallCounter's hook: no service call succeeds after the deadline. */
  checkDeadline(): void {
    const execution = this.current();
    if (!execution) return;
    if (this.clock.now() > execution.context.deadlineMs) execution.timedOut = true;
    if (execution.timedOut) throw this.timeoutError(execution);
  }

  /** Lets emulated time pass for the running execution (sleep, lock waits), up to its deadline. */
  spendTime(ms: number): void {
    const execution = this.requireCurrent();
    const remaining = execution.context.deadlineMs - this.clock.now();
    if (ms <= remaining) {
      this.clock.advance(ms);
      return;
    }
    this.clock.advance(Math.max(0, remaining));
    execution.timedOut = true;
    throw this.timeoutError(execution);
  }

  remainingMs(execution: Execution): number {
    return execution.context.deadlineMs - this.clock.now();
  }

  private timeoutError(execution: Execution): Error {
    return execution.hasScriptContext()
      ? execution.scriptContext.newError(execution.timeoutMessage)
      : new AppsScriptException(execution.timeoutMessage);
  }

  private limitFor(kind: ExecutionKind): number {
    if (kind === 'custom-function') return this.limits.customFunction;
    if (kind === 'simple-trigger') return this.limits.simpleTrigger;
    return this.limits.full;
  }
}
