/**
 * User and instructor names, resolved through users.info and remembered in the document cache so
 * the next import asks only for ids it has not seen. The cache holds one JSON map split into chunks
 * under the 100 KB value limit, read and written with one call each; it may vanish at any time,
 * which only costs requests.
 */
import type { ServiceClient } from '../api/client';
import type { ServiceError } from '../api/errors';
import type { ReadControl } from '../api/read-control';
import { fetchUsers, isUsersInfoRefusal } from '../api/users';
import { fingerprint } from '../lib/fingerprint';

/** UTF-16 units per chunk: at most 3 UTF-8 bytes each, so a chunk stays under 100 KB. */
const CHUNK_LENGTH = 30_000;
const MAX_CHUNKS = 200;
const CACHE_SECONDS = 21_600;

function cache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getDocumentCache() ?? CacheService.getUserCache();
}

function cachePrefix(baseUrl: string): string {
  return `safetySync.userNames.${fingerprint(baseUrl)}`;
}

function readCachedNames(baseUrl: string): Map<string, string | null> {
  const prefix = cachePrefix(baseUrl);
  const store = cache();
  const count = Number(store.get(`${prefix}.chunks`) ?? 0);
  if (!count) return new Map();
  const keys = Array.from({ length: count }, (_, index) => `${prefix}.${index}`);
  const chunks = store.getAll(keys);
  if (keys.some((key) => chunks[key] === undefined)) return new Map();
  try {
    return new Map(
      Object.entries(JSON.parse(keys.map((key) => chunks[key]).join('')) as Record<string, string | null>),
    );
  } catch {
    return new Map();
  }
}

function writeCachedNames(baseUrl: string, names: ReadonlyMap<string, string | null>): void {
  const prefix = cachePrefix(baseUrl);
  const json = JSON.stringify(Object.fromEntries(names));
  const count = Math.ceil(json.length / CHUNK_LENGTH);
  if (count > MAX_CHUNKS) return;
  const values: Record<string, string> = { [`${prefix}.chunks`]: String(count) };
  for (let index = 0; index < count; index++) {
    values[`${prefix}.${index}`] = json.slice(index * CHUNK_LENGTH, (index + 1) * CHUNK_LENGTH);
  }
  cache().putAll(values, CACHE_SECONDS);
}

export interface ResolvedNames {
  names: Map<string, string | null>;
  /** Ids asked of the service in this run (the rest came from the cache). */
  requested: number;
  /** False when `control` paused the look-ups; what was found is cached for the next run. */
  complete: boolean;
  /** Set when the service refused users.info itself: the names it did not give stay empty. */
  refusal?: ServiceError;
}

/**
 * Names for every id, from the cache where possible; an unknown user resolves to null. `control`
 * may pause the look-ups between rounds (the execution's time is up); the first round always runs.
 */
export function resolveNames(
  client: ServiceClient,
  baseUrl: string,
  ids: Iterable<string>,
  batchSize: number,
  control: ReadControl = {},
): ResolvedNames {
  const names = readCachedNames(baseUrl);
  const missing = [...new Set(ids)].filter((id) => !names.has(id));
  let read: ReturnType<typeof fetchUsers>;
  try {
    read = fetchUsers(client, missing, batchSize, control);
  } catch (error) {
    // Refused at its first round (a method is refused for every id): no id is asked after it.
    if (isUsersInfoRefusal(error)) return { names, requested: 0, complete: true, refusal: error };
    throw error;
  }
  const { users, complete } = read;
  for (const [id, user] of users) names.set(id, user?.name ?? null);
  if (users.size > 0) writeCachedNames(baseUrl, names);
  return { names, requested: users.size, complete };
}

/** What a run's summary says about the names: how many were asked, or why they are missing. */
export function describeNames({ requested, refusal }: ResolvedNames): string {
  if (!refusal) return `${requested} user names looked up.`;
  const requestId = refusal.requestId ? ` (request ID ${refusal.requestId})` : '';
  return (
    `User and instructor names are left empty: the service refused users.info (${refusal.identifier})${requestId}. ` +
    'The records are complete; ask your administrator for a token that may read users to see names.'
  );
}
