/**
 * User and instructor names, resolved through users.info and remembered in the document cache so
 * the next import asks only for ids it has not seen. The cache holds one JSON map split into chunks
 * under the 100 KB value limit, read with one call and written one chunk a call, the last with the
 * count (Google does not document whether putAll's 100 KB counts each value or all of them); it may
 * vanish at any time, which only costs requests.
 */
import type { ServiceClient } from '../../api/client';
import type { ServiceError } from '../../api/errors';
import type { ReadControl, RidingCalls } from '../../api/read-control';
import type { User, UserInfo } from '../../api/schemas';
import { fetchUsers, isUsersInfoRefusal, ridingUserLookups } from '../../api/users';
import { fingerprint } from '../../lib/fingerprint';

/**
 * What the completions tables show of a user (today their name): the one projection of users.info
 * onto cells, used by the tab's import and by the formulas alike; null for an id the service does
 * not know. A column taken from users.info widens this (and renames the cache prefix below, as
 * cached entries hold the old projection).
 */
export function shownUser(user: User | null): string | null {
  return user?.name ?? null;
}

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
  const store = cache();
  for (let index = 0; index < count - 1; index++) {
    store.put(
      `${prefix}.${index}`,
      json.slice(index * CHUNK_LENGTH, (index + 1) * CHUNK_LENGTH),
      CACHE_SECONDS,
    );
  }
  store.putAll(
    {
      [`${prefix}.${count - 1}`]: json.slice((count - 1) * CHUNK_LENGTH),
      [`${prefix}.chunks`]: String(count),
    },
    CACHE_SECONDS,
  );
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
 * The names of one run: the cached ones, those looked up while the pages were read (riding in their
 * rounds, so that they cost no round of their own), then the rest. An unknown user resolves to null.
 */
export class NameLookups {
  private readonly names: Map<string, string | null>;
  /** Ids seen in records read, not known yet and not asked: they ride with the next round. */
  private readonly waiting = new Set<string>();
  private readonly asked = new Set<string>();
  private requested = 0;
  private refusal: ServiceError | undefined;
  private cached = true;

  constructor(
    private readonly baseUrl: string,
    private readonly batchSize: number,
  ) {
    this.names = readCachedNames(baseUrl);
  }

  /** Ids that records just read name: those not known yet ride with the next round. */
  see(ids: Iterable<string>): void {
    for (const id of ids) if (this.isMissing(id)) this.waiting.add(id);
  }

  /** Look-ups for a read's next round, at most a round's worth; null when none is waiting. */
  riding(): RidingCalls<UserInfo> | null {
    if (this.refusal || this.waiting.size === 0) return null;
    const ids = [...this.waiting].slice(0, this.batchSize);
    for (const id of ids) {
      this.waiting.delete(id);
      this.asked.add(id);
    }
    return ridingUserLookups(ids, (id, user) => {
      if (!(user instanceof Error)) return this.found(id, user);
      // Asked again at the end, where a failure ends the run as any look-up's does.
      this.asked.delete(id);
      if (isUsersInfoRefusal(user)) this.refusal ??= user;
    });
  }

  /** Whether some of `ids` are still to be looked up (a round of requests). */
  needLookUp(ids: Iterable<string>): boolean {
    if (this.refusal) return false;
    for (const id of ids) if (this.isMissing(id)) return true;
    return false;
  }

  /**
   * Names for every id of `ids`, looking up those still missing; `control` may pause the look-ups
   * between rounds (the execution's time is up). What was found is cached either way.
   */
  resolve(client: ServiceClient, ids: Iterable<string>, control: ReadControl = {}): ResolvedNames {
    const missing = [...new Set(ids)].filter((id) => this.isMissing(id));
    let complete = true;
    if (!this.refusal && missing.length > 0) {
      try {
        const read = fetchUsers(client, missing, this.batchSize, control);
        for (const [id, user] of read.users) this.found(id, user);
        complete = read.complete;
      } catch (error) {
        // Refused at its first round (a method is refused for every id): no id is asked after it.
        if (!isUsersInfoRefusal(error)) throw error;
        this.refusal = error;
      }
    }
    this.keep();
    return {
      names: this.names,
      requested: this.requested,
      complete,
      ...(this.refusal && { refusal: this.refusal }),
    };
  }

  /** Caches what this run found, for the next run (or execution) to ask nothing twice. */
  keep(): void {
    if (this.cached) return;
    writeCachedNames(this.baseUrl, this.names);
    this.cached = true;
  }

  private isMissing(id: string): boolean {
    return id !== '' && !this.names.has(id) && !this.asked.has(id);
  }

  private found(id: string, user: User | null): void {
    this.names.set(id, shownUser(user));
    this.requested++;
    this.cached = false;
  }
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
