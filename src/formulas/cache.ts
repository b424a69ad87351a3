/**
 * What custom functions read from the service, kept in the document cache so that recalculating a
 * formula with the same arguments sends no request (Sheets recalculates often: on open, on edits
 * elsewhere, on every copy of the formula).
 *
 * An entry is keyed by the API method, its parameters and a fingerprint of the connection: a
 * SHA-256 digest, so the key cannot help anyone recover the token, and another token (after the
 * option is lent by someone else) never sees answers read with this one. A value is JSON split
 * into chunks under the 100 KB limit; a small head entry names the chunks of one write, so chunks
 * of two concurrent writes never mix. The cache may drop anything at any time: a miss only costs
 * requests. Where Google gives a custom function no document cache (not documented either way),
 * every call is a miss.
 */
import type { Connection } from '../platform/settings-store';

const PREFIX = 'safetySync.formula';
/** Characters per chunk: the JSON is made pure ASCII, so this many bytes, under Google's 100 KB. */
const CHUNK_LENGTH = 90_000;
/** About 9 MB: larger answers are not kept, rather than push every other entry out of the cache. */
const MAX_CHUNKS = 100;
export const MAX_CACHE_SECONDS = 21_600;

interface Head {
  chunks: number;
  write: string;
}

function digest(text: string, bytes: number): string {
  const hash = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8);
  return Utilities.base64EncodeWebSafe(hash.slice(0, bytes)).replace(/=+$/, '');
}

/** JSON with every non-ASCII character escaped, so that its length is its size in bytes. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Answers by API method and parameters: computed once, then reused. */
export interface AnswerCache {
  getOrFetch<T>(apiMethod: string, params: Record<string, unknown>, fetch: () => T): T;
}

export class FormulaCache implements AnswerCache {
  private readonly namespace: string;
  private readonly ttlSeconds: number;

  constructor(connection: Connection, ttlSeconds: number) {
    this.namespace = `${PREFIX}.${digest(`${connection.baseUrl}\n${connection.token}`, 12)}`;
    this.ttlSeconds = Math.min(MAX_CACHE_SECONDS, Math.max(1, Math.floor(ttlSeconds)));
  }

  /** The cached answer for this call, or else `fetch`'s, which is then cached. */
  getOrFetch<T>(apiMethod: string, params: Record<string, unknown>, fetch: () => T): T {
    const key = this.keyOf(apiMethod, params);
    const cached = this.read(key) as T | undefined;
    if (cached !== undefined) return cached;
    const value = fetch();
    this.write(key, value);
    return value;
  }

  private keyOf(apiMethod: string, params: Record<string, unknown>): string {
    const sorted = Object.keys(params)
      .sort()
      .map((name) => [name, params[name]]);
    return `${this.namespace}.${digest(JSON.stringify([apiMethod, sorted]), 16)}`;
  }

  private read(key: string): unknown {
    const cache = CacheService.getDocumentCache();
    if (!cache) return undefined;
    try {
      const head = JSON.parse(cache.get(key) ?? 'null') as Head | null;
      if (!head) return undefined;
      const keys = Array.from({ length: head.chunks }, (_, index) => `${key}.${head.write}.${index}`);
      const chunks = cache.getAll(keys);
      if (keys.some((chunkKey) => chunks[chunkKey] === undefined)) return undefined;
      return JSON.parse(keys.map((chunkKey) => chunks[chunkKey]).join('')) as unknown;
    } catch {
      return undefined; // a damaged entry is a miss
    }
  }

  private write(key: string, value: unknown): void {
    const json = asciiJson(value);
    const count = Math.max(1, Math.ceil(json.length / CHUNK_LENGTH));
    if (count > MAX_CHUNKS) return;
    const write = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
    const chunk = (index: number) => json.slice(index * CHUNK_LENGTH, (index + 1) * CHUNK_LENGTH);
    try {
      // One chunk a call, the last with the head: Google does not document whether putAll's 100 KB
      // counts each value or all of them together.
      const cache = CacheService.getDocumentCache();
      if (!cache) return;
      for (let index = 0; index < count - 1; index++)
        cache.put(`${key}.${write}.${index}`, chunk(index), this.ttlSeconds);
      cache.putAll(
        {
          [`${key}.${write}.${count - 1}`]: chunk(count - 1),
          [key]: JSON.stringify({ chunks: count, write } satisfies Head),
        },
        this.ttlSeconds,
      );
    } catch {
      // The answer in hand is right; a cache that refuses it only costs the next call its requests.
    }
  }
}
