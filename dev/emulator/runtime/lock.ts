/**
 * LockService: script, user and document locks. Executions here never run side by side, so
 * contention comes from a lock the test holds (emulator.locks.hold), optionally released at a
 * scheduled emulated time, or one held by an outer execution. Waiting costs emulated time: until
 * the scheduled release, or the whole timeout. An execution's locks are released when it ends.
 */
import { AppsScriptException } from '../core';
import type { EmulatedClock } from './clock';
import type { Execution } from './executions';
import type { ServiceEnvironment } from './service-object';
import { expose, requireAuthMode, signatureMismatch } from './service-object';

export type LockScope = 'script' | 'user' | 'document';

const LOCK_TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

type Holder = { execution: Execution } | { test: true; releaseAtMs: number | null };

export interface HeldLock {
  release(): void;
}

export class LockTable {
  private readonly holders = new Map<string, Holder>();

  constructor(private readonly clock: EmulatedClock) {}

  /**
   * The test holds a lock, as another user's execution would. With releaseAfterMs the lock is
   * released that much emulated time from now (a waiting script gets it then).
   */
  hold(scope: LockScope, key = '', options: { releaseAfterMs?: number } = {}): HeldLock {
    const id = lockId(scope, key);
    if (this.holderOf(id)) throw new Error(`The ${scope} lock ${key} is already held`);
    const holder: Holder = {
      test: true,
      releaseAtMs: options.releaseAfterMs === undefined ? null : this.clock.now() + options.releaseAfterMs,
    };
    this.holders.set(id, holder);
    return { release: () => this.releaseIf(id, holder) };
  }

  isHeld(scope: LockScope, key = ''): boolean {
    return this.holderOf(lockId(scope, key)) !== undefined;
  }

  holderOf(id: string): Holder | undefined {
    const holder = this.holders.get(id);
    if (holder && 'test' in holder && holder.releaseAtMs !== null && holder.releaseAtMs <= this.clock.now()) {
      this.holders.delete(id);
      return undefined;
    }
    return holder;
  }

  take(id: string, execution: Execution): void {
    const holder = { execution };
    this.holders.set(id, holder);
    execution.onEnd(() => this.releaseIf(id, holder));
  }

  releaseIf(id: string, holder: Holder): void {
    if (this.holders.get(id) === holder) this.holders.delete(id);
  }
}

function lockId(scope: LockScope, key: string): string {
  return `${scope}:${key}`;
}

/** Script-visible: its state is in #private fields, out of the script's reach. */
class Lock {
  readonly #id: string;
  readonly #table: LockTable;
  readonly #env: ServiceEnvironment;
  #acquired = false;

  constructor(id: string, table: LockTable, env: ServiceEnvironment) {
    this.#id = id;
    this.#table = table;
    this.#env = env;
  }

  tryLock(timeoutInMillis: unknown): boolean {
    return this.#acquire(timeoutInMillis, 'Lock.tryLock');
  }

  waitLock(timeoutInMillis: unknown): void {
    if (!this.#acquire(timeoutInMillis, 'Lock.waitLock')) throw new AppsScriptException(LOCK_TIMEOUT_MESSAGE);
  }

  hasLock(): boolean {
    return this.#acquired && this.#heldByCurrentExecution();
  }

  releaseLock(): void {
    const holder = this.#table.holderOf(this.#id);
    if (holder && this.#heldByCurrentExecution()) this.#table.releaseIf(this.#id, holder);
    this.#acquired = false;
  }

  #acquire(timeoutInMillis: unknown, method: string): boolean {
    if (typeof timeoutInMillis !== 'number' || !Number.isFinite(timeoutInMillis)) {
      throw signatureMismatch(method, [timeoutInMillis]);
    }
    if (timeoutInMillis < 0) throw new AppsScriptException('Invalid argument: timeoutInMillis');
    const execution = this.#env.executions.requireCurrent();
    const holder = this.#table.holderOf(this.#id);
    if (holder && !('execution' in holder && holder.execution === execution)) {
      const releaseAtMs = 'test' in holder ? holder.releaseAtMs : null;
      const waitMs = releaseAtMs === null ? Infinity : Math.max(0, releaseAtMs - this.#env.clock.now());
      if (waitMs > timeoutInMillis) {
        this.#env.executions.spendTime(timeoutInMillis);
        return false;
      }
      this.#env.executions.spendTime(waitMs);
      this.#table.releaseIf(this.#id, holder);
    }
    if (!holder || 'test' in holder) this.#table.take(this.#id, execution);
    this.#acquired = true;
    return true;
  }

  #heldByCurrentExecution(): boolean {
    const holder = this.#table.holderOf(this.#id);
    return (
      holder !== undefined && 'execution' in holder && holder.execution === this.#env.executions.current()
    );
  }
}

export function createLockService(
  env: ServiceEnvironment,
  table: LockTable,
): GoogleAppsScript.Lock.LockService {
  const allowed = ['LIMITED', 'FULL', 'CUSTOM_FUNCTION'] as const;
  const open = (scope: LockScope, key: string) =>
    expose('Lock', new Lock(lockId(scope, key), table, env), env);
  const service = {
    getScriptLock() {
      requireAuthMode(env, 'LockService.getScriptLock', allowed);
      return open('script', '');
    },
    getUserLock() {
      return open('user', requireAuthMode(env, 'LockService.getUserLock', allowed).user);
    },
    getDocumentLock() {
      const spreadsheetId = requireAuthMode(env, 'LockService.getDocumentLock', allowed).context
        .activeSpreadsheetId;
      return spreadsheetId === null ? null : open('document', spreadsheetId);
    },
  };
  return expose('LockService', service, env) as unknown as GoogleAppsScript.Lock.LockService;
}
