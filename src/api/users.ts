/**
 * Resolving user ids to users through users.info, one request per id, sent in parallel batches.
 * An id the service does not know (content_not_found) resolves to null; any other error ends the
 * read. The contract shows users.info only as an example, so a service may refuse the method itself
 * (isUsersInfoRefusal): an import then goes on without names, a formula says why it has none.
 */
import type { ServiceClient } from './client';
import { checkBatchSize } from './batch-size';
import { type ReadControl, runRound } from './read-control';
import { ServiceError } from './errors';
import { type User, userInfoSchema } from './schemas';

export const USERS_METHOD = 'users.info';

/** Answers that mean users.info is not available to this token at all, whichever id is asked. */
const METHOD_REFUSALS = ['api_method_not_found', 'parameter_invalid', 'token_permission'];

export function isUsersInfoRefusal(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    error.apiMethod === USERS_METHOD &&
    METHOD_REFUSALS.includes(error.identifier)
  );
}

export interface UsersRead {
  /** Each id asked for, with its user, or null when the service does not know it. */
  users: Map<string, User | null>;
  /** False when `control` paused the read; the ids not in `users` are still to ask. */
  complete: boolean;
}

/** The one batched look-up of users: `batchSize` requests a round, rounds steered by `control`. */
export function fetchUsers(
  client: ServiceClient,
  ids: Iterable<string>,
  batchSize: number,
  control: ReadControl = {},
): UsersRead {
  checkBatchSize(batchSize);
  const unique = [...new Set(ids)].filter((id) => id !== '');
  const users = new Map<string, User | null>();
  for (let start = 0; start < unique.length; start += batchSize) {
    if (start > 0 && control.shouldPause?.()) return { users, complete: false };
    const batch = unique.slice(start, start + batchSize);
    const outcomes = runRound(control, () =>
      client.callAll(
        batch.map((user) => ({ apiMethod: USERS_METHOD, params: { user } })),
        userInfoSchema,
      ),
    );
    outcomes.forEach((outcome, index) => {
      const id = batch[index]!;
      if (outcome.ok) users.set(id, outcome.value.user);
      else if ('identifier' in outcome.error && outcome.error.identifier === 'content_not_found')
        users.set(id, null);
      else throw outcome.error;
    });
  }
  return { users, complete: true };
}
