/**
 * PropertiesService: script, user (per user; in a custom function the spreadsheet OWNER's) and
 * document (per spreadsheet; null without one) stores of strings. Limits from Google's quota page,
 * measured strictly: 9 KB per property counting key and value in UTF-8 bytes, 500 KB per store.
 */
import { AppsScriptException } from '../core';
import type { ServiceEnvironment } from './service-object';
import { expose, isPlainRecord, requireAuthMode, signatureMismatch, utf8Length } from './service-object';

export const PROPERTY_VALUE_LIMIT_BYTES = 9 * 1024;
export const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;
const STORE_QUOTA_MESSAGE =
  'You have exceeded the property storage quota. Please remove some properties and try again.';

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

  constructor(store: PropertyStore, env: ServiceEnvironment) {
    this.#store = store;
    this.#env = env;
  }

  getProperty(key: unknown): string | null {
    return this.#store.get(requireKey(key, 'Properties.getProperty', [key]));
  }

  getProperties(): Record<string, string> {
    return this.#env.realm.toScript(this.#store.all());
  }

  getKeys(): string[] {
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
    this.#store.delete(requireKey(key, 'Properties.deleteProperty', [key]));
    return this;
  }

  deleteAllProperties(): this {
    this.#store.clear();
    return this;
  }

  #write(changes: Map<string, string>, replaceAll: boolean): void {
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
): GoogleAppsScript.Properties.PropertiesService {
  const open = (store: PropertyStore) => expose('Properties', new Properties(store, env), env);
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
      return spreadsheetId === null ? null : open(stores.document(spreadsheetId));
    },
  };
  return expose(
    'PropertiesService',
    service,
    env,
  ) as unknown as GoogleAppsScript.Properties.PropertiesService;
}
