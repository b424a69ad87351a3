/**
 * Runs one execution: a fresh script context, the project's top-level code evaluated in it (as
 * Apps Script does at the start of every execution, in that execution's authorization mode), then
 * the entry function. Whatever the script throws comes back to the test as a ScriptError; an
 * execution past its deadline fails with "Exceeded maximum execution time" (or its shorter limit's
 * message) even if the script caught the error, because Google kills it.
 */
import * as vm from 'node:vm';

import type { EmulatedClock } from './clock';
import type { ExecutionSpec, Executions } from './executions';
import { isVmTimeout, ScriptContext } from './realm';

/** An exception that ended an execution, in Node's realm; the script's own value is kept. */
export class ScriptError extends Error {
  constructor(
    message: string,
    /** The thrown value as the script saw it (a script-realm Error, usually). */
    readonly thrown: unknown,
    /** The thrown error's name ('Exception' for Apps Script's, 'TypeError', …). */
    readonly errorName: string,
  ) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** Finds the function to call once the code is loaded, or explains why there is none. */
export type EntryResolver = (script: ScriptContext) => ((...args: unknown[]) => unknown) | Error;

export class ScriptRunner {
  private code: vm.Script;

  constructor(
    code: string,
    private readonly clock: EmulatedClock,
    private readonly timeZone: string,
    private readonly executions: Executions,
    private readonly globals: Record<string, unknown>,
  ) {
    this.code = new vm.Script(code, { filename: 'Code.js' });
  }

  /** A new version of the script (clasp push): the next execution loads it. */
  push(code: string): void {
    this.code = new vm.Script(code, { filename: 'Code.js' });
  }

  /** Returns the entry function's result as the script made it (script-realm values). */
  run(spec: ExecutionSpec, resolve: EntryResolver, args: (script: ScriptContext) => unknown[]): unknown {
    const execution = this.executions.begin(spec);
    let result: unknown;
    let failure: { thrown: unknown } | undefined;
    try {
      const script = new ScriptContext(this.clock, this.timeZone, this.globals);
      execution.attach(script);
      script.load(this.code, this.executions.remainingMs(execution));
      const entry = resolve(script);
      if (entry instanceof Error) throw entry;
      result = script.invoke(entry, args(script), this.executions.remainingMs(execution));
    } catch (thrown) {
      failure = { thrown };
    } finally {
      this.executions.end(execution);
    }
    if (execution.timedOut || (failure && isVmTimeout(failure.thrown))) {
      throw new ScriptError(execution.timeoutMessage, failure?.thrown, 'Exception');
    }
    if (failure) throw toScriptError(failure.thrown);
    return result;
  }
}

function toScriptError(thrown: unknown): ScriptError {
  if (thrown instanceof ScriptError) return thrown;
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown) {
    const { message, name } = thrown as { message: unknown; name?: unknown };
    return new ScriptError(String(message), thrown, typeof name === 'string' ? name : 'Error');
  }
  return new ScriptError(String(thrown), thrown, typeof thrown);
}
