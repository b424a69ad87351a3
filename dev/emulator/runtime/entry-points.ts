/**
 * The ways Google starts the script, each with the context Apps Script gives it: a simple onOpen
 * trigger, a menu item, google.script.run from a dialog, a custom function in a cell, a
 * time-driven trigger, or any function run directly. Values go in and come out as Node values.
 *
 * Time-driven triggers share their owner's daily "Triggers total runtime" (quota page,
 * developers.google.com/apps-script/guides/services/quotas: 90 minutes on a consumer account, 6 hours
 * on Workspace; renewed 24 hours after the first run: runtime/daily-quota.ts). Once it is spent Google
 * does not start the handler, and an execution that reaches the end of it is stopped; either fails
 * with "Service using too much computer time for one day.", which Google records in the project's
 * executions: here triggerRuntime.failures.
 */
import type { AuthModeName, ExecutionKind } from '../core';
import type { GoogleReadings } from '../readings';
import type { EmulatedClock } from './clock';
import { nextFireTime } from './clock-trigger-times';
import { DailyQuota } from './daily-quota';
import type { ExecutionSpec } from './executions';
import { argumentsToServer, IllegalValue, isCallableFromClient, resultToClient } from './google-script-run';
import { fromScript, type ScriptContext } from './realm';
import type { ScriptEnums, TriggerRegistry } from './script-app';
import { type EntryResolver, ScriptError, type ScriptRunner } from './script-runner';
import { findMenuItem, menuPaths, UnknownFunctionError, type WorkbookStore } from './spreadsheet-seam';
import { wallClockIn } from './time-zones';

export interface RunOptions {
  /** Default 'menu'. */
  kind?: ExecutionKind;
  /** Default: the kind's own (LIMITED for a simple trigger, CUSTOM_FUNCTION, else FULL). */
  authMode?: AuthModeName;
  /** Default: this entry point's user (the spreadsheet's owner for a custom function). */
  user?: string;
  spreadsheetId?: string | null;
}

export type CustomFunctionResult = { value: unknown } | { error: string };

const TRIGGER_TIME_SPENT = 'Service using too much computer time for one day.';

/** A time-driven execution that failed because its owner's daily trigger time was spent. */
export interface FailedTriggerExecution {
  triggerUid: string;
  handler: string;
  /** The trigger's owner, whose trigger time it was. */
  user: string;
  /** Emulated epoch ms when it was due to start. */
  atMs: number;
  /** Whether any of its code ran (false: Google did not start it). */
  started: boolean;
  message: string;
}

/** Each user's daily trigger time, and the executions that failed for want of it. */
export class TriggerRuntime {
  readonly failures: FailedTriggerExecution[] = [];
  private readonly quota: DailyQuota;

  constructor(dailyMs: number) {
    this.quota = new DailyQuota(dailyMs);
  }

  /** Trigger time left to the user at `nowMs`, in the window their first trigger run opened. */
  remainingMs(user: string, nowMs: number): number {
    return this.quota.remaining(user, nowMs);
  }

  /**
   * Counts `ms` of trigger time against the user from `nowMs` (the fired triggers do; a test spends
   * some as if other triggers had run): in the window open then, or in one that opens at `nowMs`.
   */
  spend(user: string, ms: number, nowMs: number): void {
    this.quota.spend(user, ms, nowMs);
  }
}

/** What the entry points need of the emulator. */
export interface Runtime {
  runner: ScriptRunner;
  clock: EmulatedClock;
  enums: ScriptEnums;
  triggers: TriggerRegistry;
  triggerRuntime: TriggerRuntime;
  /** How to read what Google does not document (readings.ts). */
  readings: GoogleReadings;
  workbooks: WorkbookStore;
  addOnName: string;
  ownerOf(spreadsheetId: string): string;
  activeSpreadsheet(): unknown;
  userObject(email: string): unknown;
}

const DEFAULT_AUTH_MODE: Record<ExecutionKind, AuthModeName> = {
  'simple-trigger': 'LIMITED',
  menu: 'FULL',
  dialog: 'FULL',
  'custom-function': 'CUSTOM_FUNCTION',
  'time-trigger': 'FULL',
};

function globalFunctionNamed(name: string): EntryResolver {
  return (script) => script.globalFunction(name) ?? new Error(`Script function not found: ${name}`);
}

/** Sheets matches function names case-insensitively; private functions are not offered to cells. */
function customFunctionNamed(name: string): EntryResolver {
  return (script) => {
    const unknown = new UnknownFunctionError(name);
    if (name.endsWith('_')) return unknown;
    const exact = script.globalFunction(name);
    if (exact) return exact;
    const matches = Object.getOwnPropertyNames(script.global).filter(
      (candidate) => candidate.toUpperCase() === name.toUpperCase() && !candidate.endsWith('_'),
    );
    return (matches.length === 1 && script.globalFunction(matches[0]!)) || unknown;
  };
}

/** Entry points that act as one user (the emulator's owner by default; see Emulator.asUser). */
export class UserEntryPoints {
  constructor(
    protected readonly runtime: Runtime,
    readonly user: string,
  ) {}

  /**
   * Runs the script's onOpen(e) as the simple trigger Sheets fires when this user opens the
   * spreadsheet (NONE: the add-on is installed but not yet used in this document). Nothing runs
   * when the script has no onOpen.
   */
  onOpen(spreadsheetId: string, options: { authMode?: AuthModeName } = {}): void {
    this.simpleTrigger('onOpen', spreadsheetId, options.authMode ?? 'LIMITED');
  }

  /** Runs onInstall(e) as Sheets does when this user installs the add-on from this spreadsheet: FULL. */
  onInstall(spreadsheetId: string): void {
    this.simpleTrigger('onInstall', spreadsheetId, 'FULL');
  }

  /** Clicks a menu item the script added (in onOpen): captions from the menu's title down. */
  clickMenu(spreadsheetId: string, ...path: string[]): unknown {
    const workbook = this.runtime.workbooks.get(spreadsheetId);
    if (!workbook) throw new Error(`No spreadsheet ${spreadsheetId}`);
    const item = findMenuItem(workbook.ui.menus, this.runtime.addOnName, path);
    if (!item) {
      const available = menuPaths(workbook.ui.menus, this.runtime.addOnName).map((found) =>
        found.join(' > '),
      );
      throw new Error(
        `No menu item ${path.join(' > ')} in spreadsheet ${spreadsheetId}. ` +
          (available.length > 0
            ? `Menu items: ${available.join('; ')}`
            : 'No menu was added (did onOpen run?)'),
      );
    }
    return this.run(item.functionName, [], { kind: 'menu', spreadsheetId });
  }

  /** google.script.run.functionName(...args) from a dialog or sidebar of that spreadsheet. */
  callServer(spreadsheetId: string, functionName: string, ...args: unknown[]): unknown {
    const notCallable = new ScriptError(
      `google.script.run.${functionName} is not a function`,
      undefined,
      'TypeError',
    );
    if (!isCallableFromClient(functionName)) throw notCallable;
    let transferred: unknown[];
    try {
      transferred = argumentsToServer(args);
    } catch (error) {
      if (error instanceof IllegalValue) throw new ScriptError(error.message, undefined, 'Error');
      throw error;
    }
    const spec = this.spec('dialog', 'FULL', this.user, spreadsheetId);
    const resolve: EntryResolver = (script) => script.globalFunction(functionName) ?? notCallable;
    const result = this.runtime.runner.run(spec, resolve, (script) =>
      transferred.map((arg) => script.toScript(arg)),
    );
    try {
      return resultToClient(result, this.runtime.readings.unserialisableReturn);
    } catch (error) {
      if (error instanceof IllegalValue) throw new ScriptError(error.message, undefined, 'Error');
      throw error;
    }
  }

  /** Runs any top-level function, as the editor's Run button or a test harness would. */
  run(functionName: string, args: unknown[] = [], options: RunOptions = {}): unknown {
    const kind = options.kind ?? 'menu';
    const spreadsheetId = options.spreadsheetId ?? null;
    const user =
      options.user ??
      (kind === 'custom-function' && spreadsheetId !== null
        ? this.runtime.ownerOf(spreadsheetId)
        : this.user);
    const spec = this.spec(kind, options.authMode ?? DEFAULT_AUTH_MODE[kind], user, spreadsheetId);
    const result = this.runtime.runner.run(spec, globalFunctionNamed(functionName), (script) =>
      args.map((arg) => script.toScript(arg)),
    );
    return fromScript(result);
  }

  protected spec(
    kind: ExecutionKind,
    authMode: AuthModeName,
    user: string,
    spreadsheetId: string | null,
  ): ExecutionSpec {
    const anonymous =
      kind === 'custom-function' ||
      authMode === 'CUSTOM_FUNCTION' ||
      authMode === 'NONE' ||
      authMode === 'LIMITED';
    return { kind, authMode, user, sessionEmail: anonymous ? '' : user, activeSpreadsheetId: spreadsheetId };
  }

  private simpleTrigger(functionName: string, spreadsheetId: string, authMode: AuthModeName): void {
    const spec = this.spec('simple-trigger', authMode, this.user, spreadsheetId);
    const resolve: EntryResolver = (script) => script.globalFunction(functionName) ?? (() => undefined);
    this.runtime.runner.run(spec, resolve, (script) => [this.openEvent(script, spec)]);
  }

  /** `e` of onOpen and onInstall: authMode, the user, and (unless NONE) the spreadsheet, fetched when read. */
  private openEvent(script: ScriptContext, spec: ExecutionSpec): object {
    const event = script.toScript({
      authMode: this.runtime.enums.AuthMode[spec.authMode],
      user: this.runtime.userObject(spec.sessionEmail),
    });
    if (spec.authMode !== 'NONE') {
      Object.defineProperty(event, 'source', {
        get: () => this.runtime.activeSpreadsheet(),
        enumerable: true,
        configurable: true,
      });
    }
    return event;
  }
}

/** Entry points that do not depend on who is looking: cells and time-driven triggers. */
export class DocumentEntryPoints extends UserEntryPoints {
  /**
   * `=NAME(args)` in a cell of the spreadsheet: anonymous, as the spreadsheet's owner for user
   * properties, read-only, 30 s. Returns what the cell shows: the value, or the #ERROR! message.
   */
  customFunction(spreadsheetId: string, name: string, args: unknown[] = []): CustomFunctionResult {
    try {
      return { value: this.evaluateFormula(spreadsheetId, name, args) };
    } catch (error) {
      if (error instanceof ScriptError || error instanceof UnknownFunctionError)
        return { error: error.message };
      throw error;
    }
  }

  /**
   * The Spreadsheet service's evaluateCustomFunction: the value, UnknownFunctionError for a name
   * the script does not offer to cells (#NAME?), or a ScriptError whose message #ERROR! shows.
   */
  evaluateFormula(spreadsheetId: string, name: string, args: unknown[]): unknown {
    const spec = this.spec(
      'custom-function',
      'CUSTOM_FUNCTION',
      this.runtime.ownerOf(spreadsheetId),
      spreadsheetId,
    );
    try {
      const result = this.runtime.runner.run(spec, customFunctionNamed(name), (script) =>
        args.map((arg) => script.toScript(arg)),
      );
      return fromScript(result);
    } catch (error) {
      if (error instanceof ScriptError && error.thrown instanceof UnknownFunctionError) throw error.thrown;
      throw error;
    }
  }

  /**
   * Fires an installable time-driven trigger now: its handler runs as the trigger's creator, in
   * FULL mode, with no active spreadsheet, and receives Google's time-driven event object. Its
   * time counts against the creator's daily trigger time; when none is left nothing runs (the
   * failure is in triggerRuntime.failures, and this returns undefined), and an execution that
   * reaches the end of it throws "Service using too much computer time for one day.".
   */
  fireTrigger(triggerUid: string): unknown {
    const trigger = this.runtime.triggers.get(triggerUid);
    if (!trigger) throw new Error(`No trigger ${triggerUid}`);
    const { clock, triggerRuntime } = this.runtime;
    const startedAtMs = clock.now();
    const failure = { triggerUid, handler: trigger.handler, user: trigger.owner, atMs: startedAtMs };
    const leftMs = triggerRuntime.remainingMs(trigger.owner, startedAtMs);
    if (leftMs <= 0) {
      triggerRuntime.failures.push({ ...failure, started: false, message: TRIGGER_TIME_SPENT });
      return undefined;
    }
    const spec: ExecutionSpec = {
      ...this.spec('time-trigger', 'FULL', trigger.owner, null),
      timeLimit: { ms: leftMs, message: TRIGGER_TIME_SPENT },
    };
    try {
      const result = this.runtime.runner.run(spec, globalFunctionNamed(trigger.handler), (script) => [
        script.toScript({
          authMode: this.runtime.enums.AuthMode.FULL,
          triggerUid,
          ...timeFields(startedAtMs),
        }),
      ]);
      return fromScript(result);
    } catch (error) {
      if (error instanceof ScriptError && error.message === TRIGGER_TIME_SPENT) {
        triggerRuntime.failures.push({ ...failure, started: true, message: TRIGGER_TIME_SPENT });
      }
      throw error;
    } finally {
      triggerRuntime.spend(trigger.owner, clock.now() - startedAtMs, startedAtMs);
    }
  }

  /**
   * Moves the clock forward to `untilMs`, firing each installable trigger at every moment its
   * schedule names on the way (clock-trigger-times.ts), earliest first, as Google would; a trigger
   * created or deleted by a run is fired or not from then on. A run that lasts past the next moment
   * makes that firing late, never skipped. Returns each firing: the trigger and when it fired.
   */
  runClockUntil(untilMs: number): Array<{ uid: string; atMs: number }> {
    const { clock, triggers } = this.runtime;
    const startMs = clock.now();
    const lastFired = new Map<string, number>();
    const fired: Array<{ uid: string; atMs: number }> = [];
    for (;;) {
      let next: { uid: string; atMs: number } | null = null;
      for (const trigger of triggers.list()) {
        const afterMs = lastFired.get(trigger.uid) ?? Math.max(startMs, trigger.createdAtMs);
        const atMs = nextFireTime(trigger, afterMs);
        if (atMs !== null && atMs <= untilMs && (next === null || atMs < next.atMs))
          next = { uid: trigger.uid, atMs };
      }
      if (next === null) break;
      if (clock.now() < next.atMs) clock.set(next.atMs);
      lastFired.set(next.uid, next.atMs);
      fired.push(next);
      this.fireTrigger(next.uid);
    }
    if (clock.now() < untilMs) clock.set(untilMs);
    return fired;
  }
}

/** The time fields of a time-driven event, in UTC as Google sends them. */
function timeFields(epochMs: number): Record<string, number | string> {
  const wall = wallClockIn('UTC', epochMs);
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  const isoWeekday = wall.weekday === 0 ? 7 : wall.weekday;
  // ISO week: the week containing this date's Thursday.
  const thursday = new Date(date.getTime() + (4 - isoWeekday) * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const weekOfYear = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return {
    year: wall.year,
    month: wall.month,
    'day-of-month': wall.day,
    'day-of-week': isoWeekday,
    'week-of-year': weekOfYear,
    hour: wall.hour,
    minute: wall.minute,
    second: wall.second,
    timezone: 'UTC',
  };
}
