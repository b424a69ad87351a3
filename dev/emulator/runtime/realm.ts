/**
 * The script's realm: a fresh vm context per execution (Apps Script re-evaluates the whole project
 * at the start of every execution, so globals never survive from one run to the next, and top-level
 * code runs in each execution's authorization mode), holding the standard built-ins, the Apps
 * Script globals and nothing else. Values handed to the script are made with this realm's own
 * intrinsics so that `instanceof Array`, `instanceof Date` and `instanceof Error` hold in the script.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { types } from 'node:util';
import * as vm from 'node:vm';

import { AppsScriptException, type ScriptRealm } from '../core';
import type { EmulatedClock } from './clock';
import { instantOfWallTime, offsetMinutesAt, zoneLongName } from './time-zones';

interface RealmHelpers {
  newDate(epochMs: number): Date;
  newError(message: string): Error;
  compileTemplate(body: string): (...args: unknown[]) => unknown;
}

interface RealmHooks {
  now(): number;
  isServiceException(value: unknown): boolean;
  timeZone: string;
  offsetMinutesAt(epochMs: number): number;
  instantOfWallTime(wallAsUtcMs: number): number;
  zoneLongName(epochMs: number): string;
}

const bootstrap = new vm.Script(fs.readFileSync(path.join(__dirname, 'realm-bootstrap.js'), 'utf8'), {
  filename: 'realm-bootstrap.js',
});
const INVOKE_SLOT = Symbol.for('safety-sync.emulator.invoke');
/**
 * In a vm context every lookup of a global goes through the context's interceptors, an order of
 * magnitude slower than in Apps Script's V8: a script that calls Math or JSON per record would look
 * CPU-bound here when it is not there. Script-level bindings of the built-ins (made after the
 * bootstrap has put the emulated Date in place) give the script the ordinary fast lookups.
 */
const FAST_BUILTINS = [
  'Object',
  'Array',
  'Math',
  'JSON',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'Date',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'Reflect',
  'Proxy',
  'Intl',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'ArrayBuffer',
  'Uint8Array',
  'Int8Array',
  'Int32Array',
  'Uint32Array',
  'Float64Array',
  'DataView',
  'BigInt',
];
const bindBuiltins = new vm.Script(
  FAST_BUILTINS.map((name) => `const ${name} = globalThis.${name};`).join('\n'),
  {
    filename: 'realm-builtins.js',
  },
);

const invokeScript = new vm.Script(`globalThis[Symbol.for('safety-sync.emulator.invoke')]()`, {
  filename: 'emulator-invoke.js',
});

/** A plain object of any realm: its prototype is that realm's Object.prototype, or null. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

interface Intrinsics {
  newArray(): unknown[];
  newObject(): Record<string, unknown>;
  newDate(epochMs: number): Date;
}

/**
 * Deep-copies plain data (arrays, plain objects, Dates, primitives) into the realm that `into`
 * builds. Anything else (service objects, functions, proxies) passes through untouched.
 */
function copyData(value: unknown, into: Intrinsics, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (types.isProxy(value)) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (types.isDate(value)) return into.newDate(Date.prototype.getTime.call(value));
  if (Array.isArray(value)) {
    const copy = into.newArray();
    seen.set(value, copy);
    value.forEach((item, index) => (copy[index] = copyData(item, into, seen)));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy = into.newObject();
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = copyData(item, into, seen);
  return copy;
}

const nodeIntrinsics: Intrinsics = {
  newArray: () => [],
  newObject: () => ({}),
  newDate: (epochMs) => new Date(epochMs),
};

/** Copies plain data out of a script realm into Node's, for tests and google.script.run. */
export function fromScript<T = unknown>(value: unknown): T {
  return copyData(value, nodeIntrinsics) as T;
}

/**
 * Under `npm run mutate` (docs/mutation-testing.md), dist/Code.js is built from StrykerJS's mutated
 * sources, which pick the active mutant and count which test reaches each mutant through a global
 * `__stryker__` that the test environment holds: the script shares that very object, or the tests
 * that drive the bundle would neither see the mutants nor be credited with killing them. Stryker
 * names the active mutant in process.env, which a script realm has not got, so it is read here.
 * Nothing is added otherwise.
 */
function mutationTestingGlobals(): Record<string, unknown> {
  const namespace = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__;
  if (!namespace) return {};
  namespace.activeMutant ??= process.env['__STRYKER_ACTIVE_MUTANT__'];
  return { __stryker__: namespace };
}

export class ScriptContext implements ScriptRealm {
  readonly global: vm.Context;
  private readonly helpers: RealmHelpers;
  private readonly intrinsics: Intrinsics;

  constructor(clock: EmulatedClock, timeZone: string, globals: Record<string, unknown>) {
    this.global = vm.createContext(
      {},
      { codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' },
    );
    const hooks: RealmHooks = {
      now: () => clock.now(),
      isServiceException: (value) => value instanceof AppsScriptException,
      timeZone,
      offsetMinutesAt: (epochMs) => offsetMinutesAt(timeZone, epochMs),
      instantOfWallTime: (wallAsUtcMs) => instantOfWallTime(timeZone, wallAsUtcMs),
      zoneLongName: (epochMs) => zoneLongName(timeZone, epochMs),
    };
    const install = bootstrap.runInContext(this.global) as (hooks: RealmHooks) => RealmHelpers;
    this.helpers = install(hooks);
    bindBuiltins.runInContext(this.global);
    const RealmArray = vm.runInContext('Array', this.global) as ArrayConstructor;
    const RealmObject = vm.runInContext('Object', this.global) as ObjectConstructor;
    this.intrinsics = {
      newArray: () => new RealmArray(),
      newObject: () => new RealmObject() as Record<string, unknown>,
      newDate: (epochMs) => this.helpers.newDate(epochMs),
    };
    for (const [name, value] of Object.entries({ ...globals, ...mutationTestingGlobals() })) {
      Object.defineProperty(this.global, name, {
        value,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
  }

  newDate(epochMs: number): Date {
    return this.helpers.newDate(epochMs);
  }

  newError(message: string): Error {
    return this.helpers.newError(message);
  }

  toScript<T>(value: T): T {
    return copyData(value, this.intrinsics) as T;
  }

  /** A sloppy-mode function of this realm, for HtmlService's scriptlets. */
  compileTemplate(body: string): (...args: unknown[]) => unknown {
    return this.helpers.compileTemplate(body);
  }

  /** Evaluates the project's code (its top level) with a real-time backstop. */
  load(code: vm.Script, timeoutMs: number): void {
    code.runInContext(this.global, { timeout: Math.max(1, Math.ceil(timeoutMs)) });
  }

  globalFunction(name: string): ((...args: unknown[]) => unknown) | undefined {
    const value: unknown = Object.prototype.hasOwnProperty.call(this.global, name)
      ? this.global[name]
      : undefined;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown) : undefined;
  }

  /**
   * Calls a script function from inside a vm evaluation, so that the real-time backstop applies and
   * the script's promise jobs run before the execution ends (as Apps Script drains them).
   */
  invoke(fn: (...args: unknown[]) => unknown, args: unknown[], timeoutMs: number): unknown {
    let result: unknown;
    Object.defineProperty(this.global, INVOKE_SLOT, {
      value: () => (result = fn(...args)),
      configurable: true,
    });
    try {
      invokeScript.runInContext(this.global, { timeout: Math.max(1, Math.ceil(timeoutMs)) });
    } finally {
      delete this.global[INVOKE_SLOT as unknown as string];
    }
    return result;
  }
}

export function isVmTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
  );
}

/**
 * The ScriptRealm handed to services: it builds values in the realm of the execution that is
 * running, or in a standing realm when none is (services made once must not hold one context).
 */
export class CurrentRealm implements ScriptRealm {
  constructor(private readonly current: () => ScriptContext) {}

  newDate(epochMs: number): Date {
    return this.current().newDate(epochMs);
  }

  newError(message: string): Error {
    return this.current().newError(message);
  }

  toScript<T>(value: T): T {
    return this.current().toScript(value);
  }

  compileTemplate(body: string): (...args: unknown[]) => unknown {
    return this.current().compileTemplate(body);
  }
}
