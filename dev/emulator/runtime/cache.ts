/**
 * CacheService: script, user and document caches (the document cache is null without a
 * document). Expiry runs on the emulated clock; a full cache (1,000 items) drops its oldest item;
 * tests can evict everything at any moment, since Google's caches may vanish any time.
 */
import { AppsScriptException } from '../core';
import type { GoogleReadings } from '../readings';
import type { ServiceEnvironment } from './service-object';
import { expose, isPlainRecord, requireAuthMode, signatureMismatch, utf8Length } from './service-object';

export const CACHE_KEY_LIMIT_CHARS = 250;
export const CACHE_VALUE_LIMIT_BYTES = 100 * 1024;
export const CACHE_MAX_ITEMS = 1000;
export const CACHE_DEFAULT_EXPIRATION_S = 600;
export const CACHE_MAX_EXPIRATION_S = 21_600;

interface CacheEntry {
  value: string;
  expiresAtMs: number;
}

class CacheStore {
  /** Insertion order is age order: a put moves its key to the end. */
  private readonly entries = new Map<string, CacheEntry>();

  get(key: string, nowMs: number): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  put(key: string, value: string, expiresAtMs: number, nowMs: number): void {
    this.entries.delete(key);
    if (this.entries.size >= CACHE_MAX_ITEMS) this.dropExpired(nowMs);
    if (this.entries.size >= CACHE_MAX_ITEMS) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAtMs });
  }

  remove(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private dropExpired(nowMs: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAtMs <= nowMs) this.entries.delete(key);
  }
}

export class CacheStores {
  readonly script = new CacheStore();
  private readonly users = new Map<string, CacheStore>();
  private readonly documents = new Map<string, CacheStore>();

  user(email: string): CacheStore {
    return storeIn(this.users, email);
  }

  document(spreadsheetId: string): CacheStore {
    return storeIn(this.documents, spreadsheetId);
  }

  /** Empties every cache, as Google may at any time. */
  evictAll(): void {
    for (const store of [this.script, ...this.users.values(), ...this.documents.values()]) store.clear();
  }
}

function storeIn(stores: Map<string, CacheStore>, key: string): CacheStore {
  let store = stores.get(key);
  if (!store) stores.set(key, (store = new CacheStore()));
  return store;
}

/** Script-visible: its state is in #private fields, out of the script's reach. */
class Cache {
  readonly #store: CacheStore;
  readonly #env: ServiceEnvironment;
  /** What putAll's 100 KB counts: each value, or all of the call's values together (readings.ts). */
  readonly #putAllLimit: GoogleReadings['cachePutAllLimit'];

  constructor(store: CacheStore, env: ServiceEnvironment, putAllLimit: GoogleReadings['cachePutAllLimit']) {
    this.#store = store;
    this.#env = env;
    this.#putAllLimit = putAllLimit;
  }

  get(key: unknown): string | null {
    const value = this.#store.get(cacheKey(key, 'Cache.get', [key]), this.#env.clock.now());
    if (value !== null) this.#env.costs.cachePayload(utf8Length(value));
    return value;
  }

  getAll(keys: unknown): Record<string, string> {
    if (!Array.isArray(keys)) throw signatureMismatch('Cache.getAll', [keys]);
    const found: Record<string, string> = {};
    const now = this.#env.clock.now();
    for (const key of keys) {
      const value = this.#store.get(cacheKey(key, 'Cache.getAll', [keys]), now);
      if (value !== null) found[key as string] = value;
    }
    this.#env.costs.cachePayload(Object.values(found).reduce((sum, value) => sum + utf8Length(value), 0));
    return this.#env.realm.toScript(found);
  }

  put(key: unknown, value: unknown, expirationInSeconds: unknown = CACHE_DEFAULT_EXPIRATION_S): void {
    const args = [key, value, expirationInSeconds];
    const expiresAtMs = this.#expiry(expirationInSeconds, 'Cache.put', args);
    const stored = cacheValue(value, 'Cache.put', args);
    this.#env.costs.cachePayload(utf8Length(stored));
    this.#store.put(cacheKey(key, 'Cache.put', args), stored, expiresAtMs, this.#env.clock.now());
  }

  putAll(values: unknown, expirationInSeconds: unknown = CACHE_DEFAULT_EXPIRATION_S): void {
    const args = [values, expirationInSeconds];
    if (!isPlainRecord(values)) throw signatureMismatch('Cache.putAll', args);
    const expiresAtMs = this.#expiry(expirationInSeconds, 'Cache.putAll', args);
    const checked = Object.entries(values).map(
      ([key, value]) =>
        [cacheKey(key, 'Cache.putAll', args), cacheValue(value, 'Cache.putAll', args)] as const,
    );
    const total = checked.reduce((sum, [, value]) => sum + utf8Length(value), 0);
    if (this.#putAllLimit === 'total' && total > CACHE_VALUE_LIMIT_BYTES)
      throw new AppsScriptException('Argument too large: value');
    this.#env.costs.cachePayload(total);
    for (const [key, value] of checked) this.#store.put(key, value, expiresAtMs, this.#env.clock.now());
  }

  remove(key: unknown): void {
    this.#store.remove(cacheKey(key, 'Cache.remove', [key]));
  }

  removeAll(keys: unknown): void {
    if (!Array.isArray(keys)) throw signatureMismatch('Cache.removeAll', [keys]);
    for (const key of keys) this.#store.remove(cacheKey(key, 'Cache.removeAll', [keys]));
  }

  /**
   * Google documents 1..21,600 s; an expiration outside it is refused here (Google may clamp
   * silently, but code that asks for more than 6 h is wrong either way).
   */
  #expiry(seconds: unknown, method: string, args: unknown[]): number {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw signatureMismatch(method, args);
    if (seconds < 1 || seconds > CACHE_MAX_EXPIRATION_S) {
      throw new AppsScriptException('Invalid argument: expirationInSeconds');
    }
    return this.#env.clock.now() + Math.floor(seconds) * 1000;
  }
}

function cacheKey(key: unknown, method: string, args: unknown[]): string {
  if (typeof key !== 'string') throw signatureMismatch(method, args);
  if (key.length > CACHE_KEY_LIMIT_CHARS) throw new AppsScriptException('Argument too large: key');
  return key;
}

function cacheValue(value: unknown, method: string, args: unknown[]): string {
  if (value === null || value === undefined) throw new AppsScriptException('Invalid argument: value');
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw signatureMismatch(method, args);
  }
  const text = String(value);
  if (utf8Length(text) > CACHE_VALUE_LIMIT_BYTES) throw new AppsScriptException('Argument too large: value');
  return text;
}

export function createCacheService(
  env: ServiceEnvironment,
  stores: CacheStores,
  readings: Pick<GoogleReadings, 'documentStoresInCustomFunction' | 'cachePutAllLimit'>,
): GoogleAppsScript.Cache.CacheService {
  const open = (store: CacheStore) => expose('Cache', new Cache(store, env, readings.cachePutAllLimit), env);
  const allowed = ['LIMITED', 'FULL', 'CUSTOM_FUNCTION'] as const;
  const service = {
    getScriptCache() {
      requireAuthMode(env, 'CacheService.getScriptCache', allowed);
      return open(stores.script);
    },
    getUserCache() {
      return open(stores.user(requireAuthMode(env, 'CacheService.getUserCache', allowed).user));
    },
    getDocumentCache() {
      const { context } = requireAuthMode(env, 'CacheService.getDocumentCache', allowed);
      if (context.kind === 'custom-function' && !readings.documentStoresInCustomFunction) return null;
      return context.activeSpreadsheetId === null ? null : open(stores.document(context.activeSpreadsheetId));
    },
  };
  return expose('CacheService', service, env) as unknown as GoogleAppsScript.Cache.CacheService;
}
