/**
 * The service reads behind the custom functions: each answer cached for its arguments, every
 * round of requests timed against the formula's budget, and work that clearly cannot fit refused
 * before it starts (after page 1 tells how many pages there are), which also spares the quota.
 */
import type { ServiceClient } from '../api/client';
import { readCost } from '../api/completion-rounds';
import { readCompletionPages } from '../api/completions';
import {
  checkFilter,
  COMPLETIONS_METHOD,
  type CompletionsFilter,
  MAX_PAGE_SIZE,
} from '../api/completions-contract';
import { EQUIPMENT_TYPES_METHOD, type EquipmentTypesResult, fetchEquipmentTypes } from '../api/equipment';
import type { ReadControl } from '../api/read-control';
import {
  type Completion,
  completionSchema,
  completionsPageSchema,
  type RejectedRecord,
  type User,
  validateEach,
} from '../api/schemas';
import { fetchUsers, USERS_METHOD } from '../api/users';
import { formatCount } from '../lib/numbers';
import { shownUser } from '../trainings/completions/user-names';
import { type FormulaBudget, FormulaTooLargeError } from './budget';
import type { AnswerCache } from './cache';

/**
 * Beyond this many pages a formula refuses even when the service is fast: the answer would be too
 * large to cache (so every recalculation would read it all again) and too large for a sheet to
 * recalculate comfortably. The menu import is made for that size.
 */
export const MAX_FORMULA_PAGES = 50;

export interface FormulaReader {
  client: ServiceClient;
  cache: AnswerCache;
  budget: FormulaBudget;
  /** Requests sent at once (the import's "Pages at once" setting). */
  batchSize: number;
}

export interface CompletionsAnswer {
  records: Completion[];
  rejected: RejectedRecord[];
  /** User and instructor names by id; null for an id the service does not know. */
  names: Record<string, string | null>;
}

const IMPORT_INSTEAD = 'or use Safety Sync → Import completed trainings…';

function tooManyPages(lastPage: number): string {
  return (
    `${lastPage} pages to read (about ${formatCount(lastPage * MAX_PAGE_SIZE)} records): more than fits in the 30 seconds a formula may run. ` +
    `Narrow it with user_id or training_id, give a limit, ${IMPORT_INSTEAD}`
  );
}

/** Every completion of the filter (or the newest `limit`), with the names of the users they name. */
export function readCompletions(
  reader: FormulaReader,
  filter: CompletionsFilter,
  limit: number | undefined,
): CompletionsAnswer {
  const checked = checkFilter(filter);
  return reader.cache.getOrFetch(COMPLETIONS_METHOD, { ...checked, limit: limit ?? 'all' }, () => {
    const { records, rejected } =
      limit === undefined ? readAllPages(reader, checked) : readNewest(reader, checked, limit);
    const ids = records.flatMap((record) => [record.user_id, record.instructor_id]);
    const users = readUsersWithin(
      reader,
      ids,
      (count) =>
        `the ${formatCount(records.length)} records name ${formatCount(count)} users and instructors to look up: more than fits in the 30 seconds a formula may run. ` +
        `Narrow it with user_id or training_id, give a limit, ${IMPORT_INSTEAD}`,
    );
    const names: Record<string, string | null> = {};
    for (const [id, user] of users) names[id] = shownUser(user);
    return { records, rejected, names };
  });
}

function readNewest(
  reader: FormulaReader,
  filter: CompletionsFilter,
  limit: number,
): { records: Completion[]; rejected: RejectedRecord[] } {
  const page = reader.budget.step(
    () => tooManyPages(1),
    () => reader.client.call(COMPLETIONS_METHOD, { ...filter, limit, page: 1 }, completionsPageSchema),
  );
  return validateEach(
    page.completedtrainings,
    completionSchema,
    (index) => `${COMPLETIONS_METHOD} page 1, record ${index + 1}`,
  );
}

function readAllPages(
  reader: FormulaReader,
  filter: CompletionsFilter,
): { records: Completion[]; rejected: RejectedRecord[] } {
  const { client, budget, batchSize } = reader;
  let lastPage = 1;
  const read = readCompletionPages(client, { filter }, batchSize, {
    ...withinBudget(budget, () => tooManyPages(lastPage)),
    afterFirstPage: (cursor) => {
      lastPage = cursor.lastPage;
      // The rounds still to come: all but page 1's.
      const rounds = readCost(lastPage, batchSize).rounds - 1;
      if (lastPage > MAX_FORMULA_PAGES || !budget.canAfford(rounds))
        throw new FormulaTooLargeError(tooManyPages(lastPage));
    },
  });
  return { records: read.records, rejected: read.rejected };
}

/** Every round of requests timed against the formula's budget; `tooLarge` says why one is refused. */
function withinBudget(budget: FormulaBudget, tooLarge: () => string): ReadControl {
  return { round: (read) => budget.step(tooLarge, read) };
}

/** Every equipment type, with its metafields and schedules (one request). */
export function readEquipmentTypes(reader: FormulaReader): EquipmentTypesResult {
  return reader.cache.getOrFetch(EQUIPMENT_TYPES_METHOD, {}, () =>
    reader.budget.step(
      () =>
        'the equipment types could not be read in the 30 seconds a formula may run. Use Safety Sync → Import equipment types',
      () => fetchEquipmentTypes(reader.client),
    ),
  );
}

/** The users of these ids; null for an id the service does not know. */
export function readUsers(reader: FormulaReader, ids: readonly string[]): Record<string, User | null> {
  const unique = [...new Set(ids.filter((id) => id !== ''))].sort();
  return reader.cache.getOrFetch(USERS_METHOD, { users: unique }, () =>
    Object.fromEntries(
      readUsersWithin(
        reader,
        unique,
        (count) =>
          `${formatCount(count)} users to look up: more than fits in the 30 seconds a formula may run. Give a smaller range of ids, and split the rest over several formulas`,
      ),
    ),
  );
}

function readUsersWithin(
  reader: FormulaReader,
  ids: readonly string[],
  tooMany: (count: number) => string,
): Map<string, User | null> {
  const unique = [...new Set(ids.filter((id) => id !== ''))];
  const { batchSize, budget } = reader;
  if (!budget.canAfford(Math.ceil(unique.length / batchSize)))
    throw new FormulaTooLargeError(tooMany(unique.length));
  return fetchUsers(
    reader.client,
    unique,
    batchSize,
    withinBudget(budget, () => tooMany(unique.length)),
  ).users;
}
