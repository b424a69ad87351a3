/**
 * Datasets: each holds its own data, tokens, fault settings and request log, so that test files
 * running in parallel against one server never see each other. Tokens are how an API request finds
 * its dataset.
 */
import {
  compareNewestFirst,
  generateData,
  type Completion,
  type CompletionFactory,
  type EquipmentType,
  type GeneratorOptions,
  type Metafield,
  type Schedule,
  type User,
} from './dataset';
import { generateDemoData } from './demo-dataset';
import { FaultState, type FaultKind, type ScheduledMutationOutcome } from './faults';
import type { CompletionFieldOverrides, Mutations, MutationsResult } from './mutations';
import type { RequestData, TokenKind } from './protocol';
import { SeededRandom, randomAlphanumeric } from './random';

export interface DatasetOptions extends GeneratorOptions {
  latencyMs: number;
  /**
   * YYYY-MM-DD: the demo data (demo-dataset.ts) as seen on that day, with `seed` and `users`, in place
   * of the adversarial data the other options describe.
   */
  demoToday?: string;
}

export const DEFAULT_DATASET_OPTIONS: DatasetOptions = {
  seed: 1,
  users: 50,
  trainings: 20,
  completions: 500,
  equipmentTypes: 30,
  createdUnit: 'seconds',
  anomalies: false,
  latencyMs: 0,
};

export interface RequestLogEntry {
  /** The API method name, or the raw path (without query) when the path names no method. */
  method: string;
  httpMethod: string;
  /** The request object without its token. */
  params: RequestData;
  /** The error identifier, when the response was an error envelope. */
  error?: string;
  /** The injected fault that shaped the response, if any ('redirect': the redirect fault answered). */
  fault?: FaultKind | 'redirect';
  requestId: string;
  status: number;
}

/** A mutation the dataset cannot apply (the admin API answers it with 400). */
export class InvalidMutationError extends Error {}

const TOKEN_LENGTH = 32;

export interface CompletionFilter {
  training_id: string | undefined;
  user_id: string | undefined;
}

function filterKey(filter: CompletionFilter): string {
  return JSON.stringify([filter.training_id ?? null, filter.user_id ?? null]);
}

export class Dataset {
  readonly tokens: Readonly<Record<TokenKind, string>>;
  readonly faults: FaultState;
  readonly users: readonly User[];
  private readonly usersById: ReadonlyMap<string, User>;
  /** Newest first; replaced (never mutated in place) so that a response being built keeps its view. */
  private completionList: Completion[];
  private equipmentTypeList: EquipmentType[];
  private readonly completionFactory: CompletionFactory;
  private readonly removalRandom: SeededRandom;
  /**
   * Each completion's JSON, made when the completion is: a page of 1,000 is then joined, not
   * serialised, and the single-threaded server answers ten concurrent page requests about as fast
   * as a real service with many workers would, so its own CPU does not distort measurements.
   */
  private readonly completionJson = new WeakMap<Completion, string>();
  /** Filtered completion lists by filter, so that paging through a filter does not filter each page. */
  private readonly filterCache = new Map<string, Completion[]>();
  /**
   * Pages as JSON arrays, by filter, first position and limit: a page asked again (every import
   * after the first, the bench's repeated runs) costs the server a lookup, not a join of 150 KB.
   */
  private readonly pageJsonCache = new Map<string, string>();
  private readonly log: Array<{ arrival: number; entry: RequestLogEntry }> = [];
  private inFlight = 0;
  private maxInFlightSinceClear = 0;

  constructor(
    readonly id: string,
    options: DatasetOptions,
  ) {
    const data =
      options.demoToday === undefined
        ? generateData(options)
        : generateDemoData({ seed: options.seed, users: options.users, today: options.demoToday });
    this.users = data.users;
    this.usersById = new Map(data.users.map((user) => [user.id, user]));
    this.completionList = data.completions;
    this.encodeCompletions(data.completions);
    this.equipmentTypeList = data.equipmentTypes;
    this.completionFactory = data.completionFactory;
    this.removalRandom = new SeededRandom(options.seed, 'removals');
    this.faults = new FaultState(options.latencyMs);
    this.tokens = {
      valid: randomAlphanumeric(TOKEN_LENGTH),
      inactive: randomAlphanumeric(TOKEN_LENGTH),
      accountInactive: randomAlphanumeric(TOKEN_LENGTH),
      noPermission: randomAlphanumeric(TOKEN_LENGTH),
    };
  }

  get completions(): readonly Completion[] {
    return this.completionList;
  }

  get equipmentTypes(): readonly EquipmentType[] {
    return this.equipmentTypeList;
  }

  userById(id: string): User | undefined {
    return this.usersById.get(id);
  }

  completionsMatching(filter: CompletionFilter): Completion[] {
    if (filter.training_id === undefined && filter.user_id === undefined) return this.completionList;
    const key = filterKey(filter);
    let matching = this.filterCache.get(key);
    if (!matching) {
      matching = this.completionList.filter(
        (completion) =>
          (filter.training_id === undefined || completion.training_id === filter.training_id) &&
          (filter.user_id === undefined || completion.user_id === filter.user_id),
      );
      this.filterCache.set(key, matching);
    }
    return matching;
  }

  /**
   * Counts an answered completedtrainings.list request and makes the data changes the fault
   * settings schedule for that point (insertDuringPaging, insertOnTopAfterPageOne, then
   * mutateAfterRequests in order). `pageRead`: the page it read; null when it answered an error.
   */
  completionListRequestAnswered(pageRead: number | null): void {
    this.faults.countCompletionListRequest(
      {
        insertNewest: (count) => void this.addNewestCompletions(count),
        mutate: (mutations): ScheduledMutationOutcome => {
          try {
            return { outcome: 'applied', ...this.mutate(mutations) };
          } catch (error) {
            if (!(error instanceof InvalidMutationError)) throw error;
            return { outcome: 'skipped', mutationSkipped: error.message };
          }
        },
      },
      pageRead,
    );
  }

  /** Adds `count` completions dated after every existing one; returns them, newest first. */
  addNewestCompletions(count: number): Completion[] {
    const newest = this.completionList[0];
    const added = this.completionFactory.completionsAfter(
      newest === undefined ? undefined : Number(newest.dateNumber),
      count,
    );
    this.replaceCompletions([...added, ...this.completionList]);
    return added;
  }

  private addBackdatedCompletions({
    count,
    daysBeforeNewest,
  }: {
    count: number;
    daysBeforeNewest: number;
  }): Completion[] {
    const newest = this.completionList[0];
    if (newest === undefined)
      throw new InvalidMutationError('Backdated completions need a newest completion to go before.');
    const added = this.completionFactory.completionsOnDayBefore(
      Number(newest.dateNumber),
      daysBeforeNewest,
      count,
    );
    this.replaceCompletions(mergeNewestFirst(this.completionList, added));
    return added;
  }

  /** Validates every change first, so that a rejected request changes nothing. */
  mutate(mutations: Mutations): MutationsResult {
    const removeCount = mutations.removeCompletions ?? 0;
    if (removeCount > this.completionList.length) {
      throw new InvalidMutationError(
        `Cannot remove ${removeCount} completions: the dataset has ${this.completionList.length}.`,
      );
    }
    this.checkPositions(mutations);
    const typeIds = new Set(this.equipmentTypeList.map((type) => type.id));
    const named = [
      ...(mutations.renameEquipmentTypes ?? []).map((rename) => rename.id),
      ...(mutations.removeEquipmentTypes ?? []),
    ];
    const unknown = named.filter((id) => !typeIds.has(id));
    if (unknown.length > 0) {
      throw new InvalidMutationError(`Unknown equipment type ids: ${unknown.join(', ')}`);
    }
    const edited = this.editedEquipmentTypes(mutations);

    // Positional changes first: their positions are those of the list as the request found it.
    const { added: placed, removed } = this.applyPositionalMutations(mutations);
    removed.push(...this.removeSomeCompletions(removeCount));
    const added = mutations.addCompletions ? this.addNewestCompletions(mutations.addCompletions) : [];
    added.push(...placed);
    if (mutations.addBackdatedCompletions)
      added.push(...this.addBackdatedCompletions(mutations.addBackdatedCompletions));
    const titles = new Map((mutations.renameEquipmentTypes ?? []).map((rename) => [rename.id, rename.title]));
    const removedTypes = new Set(mutations.removeEquipmentTypes ?? []);
    this.equipmentTypeList = edited
      .filter((type) => !removedTypes.has(type.id))
      .map((type) => (titles.has(type.id) ? { ...type, title: titles.get(type.id)! } : type));
    return { added, removed };
  }

  /**
   * The equipment types with editSchedules' and editMetafields' changes (new objects: a response
   * being built keeps its view); throws, changing nothing, when one names a part that does not exist.
   */
  private editedEquipmentTypes(mutations: Mutations): EquipmentType[] {
    let types = this.equipmentTypeList;
    const edit = <Part extends { id: string }>(
      kind: 'schedules' | 'metafields',
      typeId: string,
      partId: string,
      fields: Partial<Part>,
    ) => {
      const type = types.find((candidate) => candidate.id === typeId);
      const parts = (type?.[kind] ?? []) as unknown as Part[];
      const index = parts.findIndex((part) => part.id === partId);
      if (!type || index < 0) {
        throw new InvalidMutationError(
          `No ${kind} entry ${JSON.stringify(partId)} in equipment type ${JSON.stringify(typeId)}`,
        );
      }
      const changed = parts.map((part, at) => (at === index ? { ...part, ...fields } : part));
      types = types.map((candidate) => (candidate === type ? { ...type, [kind]: changed } : candidate));
    };
    for (const { typeId, scheduleId, fields } of mutations.editSchedules ?? []) {
      edit<Schedule>('schedules', typeId, scheduleId, fields);
    }
    for (const { typeId, metafieldId, fields } of mutations.editMetafields ?? []) {
      edit<Metafield>('metafields', typeId, metafieldId, fields);
    }
    return types;
  }

  /** Throws unless every position of the positional mutations names a place in the current list. */
  private checkPositions(mutations: Mutations): void {
    checkMutationRules(mutations);
    const length = this.completionList.length;
    const problems: string[] = [];
    const outside = (name: string, positions: readonly number[], limit: number) => {
      const bad = positions.filter((position) => position >= limit);
      if (bad.length > 0) {
        const allowed = limit === 0 ? 'none' : `0 to ${limit - 1}`;
        problems.push(`${name}: no position ${bad.join(', ')} (the list has ${length}; allowed: ${allowed})`);
      }
    };
    outside('removeCompletionsAt', mutations.removeCompletionsAt ?? [], length);
    outside('duplicateCompletionsAt', mutations.duplicateCompletionsAt ?? [], length);
    // Inserting at the length appends after the last record.
    outside(
      'insertCompletionsAt',
      (mutations.insertCompletionsAt ?? []).map((insert) => insert.position),
      length + 1,
    );
    if (problems.length > 0) throw new InvalidMutationError(`Invalid mutations: ${problems.join('; ')}.`);
  }

  /**
   * Removes, inserts and duplicates at positions of the list as it is now, in one pass over it, so
   * that no change shifts the positions another one names. Returns the records added and removed,
   * in list order.
   */
  private applyPositionalMutations(mutations: Mutations): MutationsResult {
    const list = this.completionList;
    const removeAt = new Set(mutations.removeCompletionsAt ?? []);
    const inserts = mutations.insertCompletionsAt ?? [];
    const duplicateAt = mutations.duplicateCompletionsAt ?? [];
    if (removeAt.size === 0 && inserts.length === 0 && duplicateAt.length === 0) {
      return { added: [], removed: [] };
    }
    const insertedAt = new Map<number, Completion[]>();
    for (const { position, fields } of inserts) {
      const inserted = this.completionDatedLike(list[position] ?? list[list.length - 1], fields ?? {});
      insertedAt.set(position, [...(insertedAt.get(position) ?? []), inserted]);
    }
    const copiesAt = new Map<number, number>();
    for (const position of duplicateAt) copiesAt.set(position, (copiesAt.get(position) ?? 0) + 1);

    const next: Completion[] = [];
    const added: Completion[] = [];
    const removed: Completion[] = [];
    for (let position = 0; position <= list.length; position++) {
      const inserted = insertedAt.get(position) ?? [];
      next.push(...inserted);
      added.push(...inserted);
      const completion = list[position];
      if (completion === undefined) break;
      if (removeAt.has(position)) {
        removed.push(completion);
        continue;
      }
      next.push(completion);
      for (let copy = 0; copy < (copiesAt.get(position) ?? 0); copy++) {
        const twin = { ...completion };
        // The same JSON, byte for byte: twins are indistinguishable to a client.
        this.completionJson.set(twin, this.completionJson.get(completion) ?? JSON.stringify(completion));
        next.push(twin);
        added.push(twin);
      }
    }
    this.replaceCompletions(next);
    return { added, removed };
  }

  /**
   * A new completion from the dataset's factory (a group training of its own, so distinct from every
   * other record) on the date of `anchor`, with `fields` in place of the generated ones. Without an
   * anchor (an empty list) it is dated after where the seeded data ends.
   */
  private completionDatedLike(anchor: Completion | undefined, fields: CompletionFieldOverrides): Completion {
    const [made] =
      anchor === undefined
        ? this.completionFactory.completionsAfter(undefined, 1)
        : this.completionFactory.completionsOnDayBefore(Number(anchor.dateNumber), 0, 1);
    return { ...made!, ...fields };
  }

  /** Removes `count` completions picked by the dataset's seeded generator from across the whole list. */
  private removeSomeCompletions(count: number): Completion[] {
    if (count === 0) return [];
    const indexes = Array.from(this.completionList.keys());
    // A partial Fisher-Yates shuffle: the first `count` slots end up holding a uniform sample.
    for (let slot = 0; slot < count; slot++) {
      const swapWith = this.removalRandom.int(slot, indexes.length - 1);
      [indexes[slot], indexes[swapWith]] = [indexes[swapWith]!, indexes[slot]!];
    }
    const removedIndexes = new Set(indexes.slice(0, count));
    const removed = this.completionList.filter((_, index) => removedIndexes.has(index));
    this.replaceCompletions(this.completionList.filter((_, index) => !removedIndexes.has(index)));
    return removed;
  }

  private replaceCompletions(completions: Completion[]): void {
    this.encodeCompletions(completions);
    this.completionList = completions;
    this.filterCache.clear();
    this.pageJsonCache.clear();
  }

  private encodeCompletions(completions: readonly Completion[]): void {
    for (const completion of completions) {
      if (!this.completionJson.has(completion))
        this.completionJson.set(completion, JSON.stringify(completion));
    }
  }

  /** The JSON array of the (at most) `limit` completions matching `filter` from position `first` on. */
  completionsPageJson(filter: CompletionFilter, first: number, limit: number): string {
    const key = `${filterKey(filter)}|${first}|${limit}`;
    let json = this.pageJsonCache.get(key);
    if (json === undefined) {
      const page = this.completionsMatching(filter).slice(first, first + limit);
      json = `[${page.map((completion) => this.completionJson.get(completion) ?? JSON.stringify(completion)).join(',')}]`;
      this.pageJsonCache.set(key, json);
    }
    return json;
  }

  requestStarted(): void {
    this.inFlight += 1;
    this.maxInFlightSinceClear = Math.max(this.maxInFlightSinceClear, this.inFlight);
  }

  requestFinished(): void {
    this.inFlight -= 1;
  }

  /** `arrival` orders the log by when requests came in, though they may finish in another order. */
  recordRequest(arrival: number, entry: RequestLogEntry): void {
    this.log.push({ arrival, entry });
  }

  requestLog(): { requests: RequestLogEntry[]; maxInFlight: number } {
    const ordered = [...this.log].sort((a, b) => a.arrival - b.arrival);
    return { requests: ordered.map((logged) => logged.entry), maxInFlight: this.maxInFlightSinceClear };
  }

  clearRequestLog(): void {
    this.log.length = 0;
    this.maxInFlightSinceClear = this.inFlight;
  }
}

/**
 * Throws for mutations that no list could accept, so that the admin API refuses them when they are
 * scheduled (mutateAfterRequests), not only when they fall due.
 */
export function checkMutationRules(mutations: Mutations): void {
  const problems: string[] = [];
  const removeAt = mutations.removeCompletionsAt ?? [];
  const duplicateAt = mutations.duplicateCompletionsAt ?? [];
  const repeated = removeAt.filter((position, index) => removeAt.indexOf(position) !== index);
  if (repeated.length > 0) {
    problems.push(`removeCompletionsAt names ${[...new Set(repeated)].join(', ')} more than once`);
  }
  const removedAndDuplicated = [...new Set(duplicateAt.filter((position) => removeAt.includes(position)))];
  if (removedAndDuplicated.length > 0) {
    problems.push(`positions both removed and duplicated: ${removedAndDuplicated.join(', ')}`);
  }
  const positional = removeAt.length + duplicateAt.length + (mutations.insertCompletionsAt ?? []).length;
  if (positional > 0 && (mutations.removeCompletions ?? 0) > 0) {
    problems.push(
      'removeCompletions picks records at random, which would move the positions the other mutations name; send it separately',
    );
  }
  if (problems.length > 0) throw new InvalidMutationError(`Invalid mutations: ${problems.join('; ')}.`);
}

/**
 * `existing` with `added` (newest first) merged in: each added record goes before the first existing
 * one it is not older than. Existing records keep their order, even where positional inserts left
 * records of one date out of `created` order; a full sort would move them.
 */
function mergeNewestFirst(existing: readonly Completion[], added: readonly Completion[]): Completion[] {
  const merged: Completion[] = [];
  let next = 0;
  for (const completion of existing) {
    while (next < added.length && compareNewestFirst(added[next]!, completion) <= 0)
      merged.push(added[next++]!);
    merged.push(completion);
  }
  merged.push(...added.slice(next));
  return merged;
}

export class DatasetRegistry {
  private readonly datasets = new Map<string, Dataset>();
  private readonly tokenOwners = new Map<string, { dataset: Dataset; kind: TokenKind }>();
  private created = 0;

  create(options: DatasetOptions): Dataset {
    const dataset = new Dataset(`ds${++this.created}`, options);
    this.datasets.set(dataset.id, dataset);
    for (const [kind, token] of Object.entries(dataset.tokens) as Array<[TokenKind, string]>) {
      this.tokenOwners.set(token, { dataset, kind });
    }
    return dataset;
  }

  get(id: string): Dataset | undefined {
    return this.datasets.get(id);
  }

  delete(id: string): boolean {
    const dataset = this.datasets.get(id);
    if (!dataset) return false;
    for (const token of Object.values(dataset.tokens)) this.tokenOwners.delete(token);
    return this.datasets.delete(id);
  }

  /** The dataset and meaning of a token, or undefined for anything that is not one of ours. */
  resolveToken(token: unknown): { dataset: Dataset; kind: TokenKind } | undefined {
    return typeof token === 'string' ? this.tokenOwners.get(token) : undefined;
  }
}
