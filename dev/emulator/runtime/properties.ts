/**
 * PropertiesService: script, user (per user; in a custom function the spreadsheet OWNER's) and
 * document (per spreadsheet; null without one) stores of strings. Limits from Google's quota page,
 * measured strictly: 9 KB per property counting key and value in UTF-8 bytes, 500 KB per store.
 * The page's "Properties read/write" quota (50,000 a day per user on a consumer account, 500,000 on
 * Workspace; renewed 24 hours after the first: runtime/daily-quota.ts) counts every read or write
 * call of the running user, whichever store it is on; a call that reads or writes many properties
 * at once counts once, as the quota's message names calls ("Service invoked too many times").
 */
import { AppsScriptException } from '../core';
import type { GoogleReadings } from '../readings';
import { DailyQuota } from './daily-quota';
import type { ServiceEnvironment } from './service-object';
import { expose, isPlainRecord, requireAuthMode, signatureMismatch, utf8Length } from './service-object';

export const PROPERTY_VALUE_LIMIT_BYTES = 9 * 1024;
export const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;
const STORE_QUOTA_MESSAGE =
  'You have exceeded the property storage quota. Please remove some properties and try again.';
const DAILY_QUOTA_MESSAGE = 'Service invoked too many times for one day: properties.';

/** One store's contents; the test API reads and seeds it directly (no limits, no counting). */
export class PropertyStore {
  private readonly values = new Map<string, string>();

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.values.set(key, value);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  clear(): void {
    this.values.clear();
  }

  all(): Record<string, string> {
    return Object.fromEntries(this.values);
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  /** Bytes used if `changes` were applied (null deletes). */
  sizeWith(changes: Map<string, string | null>, replaceAll: boolean): number {
    const merged = new Map(replaceAll ? [] : this.values);
    for (const [key, value] of changes) {
      if (value === null) merged.delete(key);
      else merged.set(key, value);
    }
    let total = 0;
    for (const [key, value] of merged) total += utf8Length(key) + utf8Length(value);
    return total;
  }
}

export class PropertyStores {
  readonly script = new PropertyStore();
  private readonly users = new Map<string, PropertyStore>();
  private readonly documents = new Map<string, PropertyStore>();
  /**
   * Each user's daily read/write calls; a test spends some with operations.spend(user, n, nowMs).
   * The test API's own reads and writes of the stores do not count.
   */
  readonly operations: DailyQuota;

  constructor(dailyOperations: number) {
    this.operations = new DailyQuota(dailyOperations);
  }

  user(email: string): PropertyStore {
    return storeIn(this.users, email);
  }

  document(spreadsheetId: string): PropertyStore {
    return storeIn(this.documents, spreadsheetId);
  }
}

function storeIn(stores: Map<string, PropertyStore>, key: string): PropertyStore {
  let store = stores.get(key);
  if (!store) stores.set(key, (store = new PropertyStore()));
  return store;
}

/** Script-visible: its state is in #private fields, out of the script's reach. */
class Properties {
  readonly #store: PropertyStore;
  readonly #env: ServiceEnvironment;
  readonly #operations: DailyQuota;

  constructor(store: PropertyStore, env: ServiceEnvironment, operations: DailyQuota) {
    this.#store = store;
    this.#env = env;
    this.#operations = operations;
  }

  getProperty(key: unknown): string | null {
    const name = requireKey(key, 'Properties.getProperty', [key]);
    this.#count();
    return this.#store.get(name);
  }

  getProperties(): Record<string, string> {
    this.#count();
    return this.#env.realm.toScript(this.#store.all());
  }

  getKeys(): string[] {
    this.#count();
    return this.#env.realm.toScript(this.#store.keys());
  }

  setProperty(key: unknown, value: unknown): this {
    const args = [key, value];
    const name = requireKey(key, 'Properties.setProperty', args);
    this.#write(new Map([[name, propertyValue(value, 'Properties.setProperty', args)]]), false);
    return this;
  }

  setProperties(properties: unknown, deleteAllOthers: unknown = false): this {
    const args = [properties, deleteAllOthers];
    if (!isPlainRecord(properties) || typeof deleteAllOthers !== 'boolean') {
      throw signatureMismatch('Properties.setProperties', args);
    }
    const changes = new Map<string, string>();
    for (const [key, value] of Object.entries(properties)) {
      changes.set(key, propertyValue(value, 'Properties.setProperties', args));
    }
    this.#write(changes, deleteAllOthers);
    return this;
  }

  deleteProperty(key: unknown): this {
    const name = requireKey(key, 'Properties.deleteProperty', [key]);
    this.#count();
    this.#store.delete(name);
    return this;
  }

  deleteAllProperties(): this {
    this.#count();
    this.#store.clear();
    return this;
  }

  /** One read or write call of the running user, refused once their daily quota is spent. */
  #count(): void {
    const user = this.#env.executions.requireCurrent().user;
    const now = this.#env.clock.now();
    if (this.#operations.remaining(user, now) < 1) throw new AppsScriptException(DAILY_QUOTA_MESSAGE);
    this.#operations.spend(user, 1, now);
  }

  #write(changes: Map<string, string>, replaceAll: boolean): void {
    this.#count();
    for (const [key, value] of changes) {
      if (utf8Length(key) + utf8Length(value) > PROPERTY_VALUE_LIMIT_BYTES) {
        throw new AppsScriptException('Argument too large: value');
      }
    }
    if (this.#store.sizeWith(changes, replaceAll) > PROPERTY_STORE_LIMIT_BYTES) {
      throw new AppsScriptException(STORE_QUOTA_MESSAGE);
    }
    if (replaceAll) this.#store.clear();
    for (const [key, value] of changes) this.#store.set(key, value);
  }
}

function requireKey(key: unknown, method: string, args: unknown[]): string {
  if (typeof key !== 'string') throw signatureMismatch(method, args);
  return key;
}

/**
 * Numbers and booleans become strings, as Apps Script's String parameter converts them. Objects
 * are refused (Google would store "[object Object]" or a Java map's toString): always a bug.
 */
function propertyValue(value: unknown, method: string, args: unknown[]): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) throw new AppsScriptException('Invalid argument: value');
  throw signatureMismatch(method, args);
}

export function createPropertiesService(
  env: ServiceEnvironment,
  stores: PropertyStores,
  readings: Pick<GoogleReadings, 'documentStoresInCustomFunction'>,
): GoogleAppsScript.Properties.PropertiesService {
  const open = (store: PropertyStore) =>
    expose('Properties', new Properties(store, env, stores.operations), env);
  const service = {
    getScriptProperties() {
      requireAuthMode(env, 'PropertiesService.getScriptProperties', ['LIMITED', 'FULL', 'CUSTOM_FUNCTION']);
      return open(stores.script);
    },
    getUserProperties() {
      const execution = requireAuthMode(env, 'PropertiesService.getUserProperties', [
        'LIMITED',
        'FULL',
        'CUSTOM_FUNCTION',
      ]);
      return open(stores.user(execution.user));
    },
    getDocumentProperties() {
      const execution = requireAuthMode(env, 'PropertiesService.getDocumentProperties', [
        'LIMITED',
        'FULL',
        'CUSTOM_FUNCTION',
      ]);
      const spreadsheetId = execution.context.activeSpreadsheetId;
      if (execution.context.kind === 'custom-function' && !readings.documentStoresInCustomFunction)
        return null;
      return spreadsheetId === null ? null : open(stores.document(spreadsheetId));
    },
  };
  return expose(
    'PropertiesService',
    service,
    env,
  ) as unknown as GoogleAppsScript.Properties.PropertiesService;
}
