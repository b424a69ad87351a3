/**
 * A Spreadsheet service on its own, for this service's tests: a bare vm realm standing in for the
 * script's, a call counter, and a context object the test changes between "executions". The runtime
 * builds the real thing in dev/emulator/runtime.
 */
import * as vm from 'node:vm';
import { type ExecutionContext, type ScriptRealm, ServiceCallCounter } from '../core';
import { DEFAULT_START_TIME_MS } from '../runtime/clock';
import { type SpreadsheetServiceDeps, createSpreadsheetService } from './index';
import type { SpreadsheetReadings } from './service-env';
import { defaultReadings } from '../readings';

export interface VmRealm extends ScriptRealm {
  readonly context: vm.Context;
  /** The realm's own constructors, for `instanceof` checks in tests. */
  readonly Date: DateConstructor;
  readonly Array: ArrayConstructor;
}

export function createVmRealm(): VmRealm {
  const context = vm.createContext({});
  const globals = vm.runInContext('({ Date, Array, Object, Error })', context) as {
    Date: DateConstructor;
    Array: ArrayConstructor;
    Object: ObjectConstructor;
    Error: ErrorConstructor;
  };
  const toScript = (value: unknown): unknown => {
    if (Array.isArray(value)) return globals.Array.from(value, toScript);
    if (Object.prototype.toString.call(value) === '[object Date]')
      return new globals.Date((value as Date).getTime());
    if (typeof value === 'object' && value !== null) {
      const copy = new globals.Object() as Record<string, unknown>;
      for (const [key, field] of Object.entries(value)) copy[key] = toScript(field);
      return copy;
    }
    return value;
  };
  return {
    context,
    Date: globals.Date,
    Array: globals.Array,
    newDate: (epochMs) => new globals.Date(epochMs),
    newError: (message) => new globals.Error(message),
    toScript: <T>(value: T): T => toScript(value) as T,
  };
}

export interface TestSpreadsheetService {
  SpreadsheetApp: GoogleAppsScript.Spreadsheet.SpreadsheetApp;
  Charts: GoogleAppsScript.Charts.Charts;
  workbooks: ReturnType<typeof createSpreadsheetService>['workbooks'];
  counter: ServiceCallCounter;
  realm: VmRealm;
  /** The running execution's context: tests assign to it between calls. */
  context: ExecutionContext;
  /** The emulated time (epoch ms): tests assign to it. */
  nowMs: number;
}

export function createTestSpreadsheetService(
  options: {
    evaluateCustomFunction?: SpreadsheetServiceDeps['evaluateCustomFunction'];
    readings?: Partial<SpreadsheetReadings>;
  } = {},
): TestSpreadsheetService {
  const counter = new ServiceCallCounter();
  const realm = createVmRealm();
  const harness: Omit<TestSpreadsheetService, 'SpreadsheetApp' | 'Charts' | 'workbooks'> = {
    counter,
    realm,
    context: {
      kind: 'menu',
      authMode: 'FULL',
      userEmail: 'owner@example.com',
      activeSpreadsheetId: null,
      deadlineMs: Number.POSITIVE_INFINITY,
    },
    nowMs: DEFAULT_START_TIME_MS,
  };
  const service = createSpreadsheetService({
    counter,
    realm,
    currentContext: () => harness.context,
    // No sharing here: every user owns every spreadsheet (roles: the Emulator's share).
    roleOf: () => 'owner',
    // One execution that never ends: its writes are committed by reads and flush() only.
    atExecutionEnd: () => {},
    othersMayRun: () => false,
    now: () => harness.nowMs,
    evaluateCustomFunction: options.evaluateCustomFunction,
    readings: { ...defaultReadings(), ...options.readings },
  });
  return Object.assign(harness, service);
}
