/**
 * Resolving user ids to users through users.info, one request per id, sent in parallel batches.
 * An id the service does not know (content_not_found) resolves to null; any other error ends the
 * read. The contract shows users.info only as an example, so a service may refuse the method itself
 * (isUsersInfoRefusal): an import then goes on without names, a formula says why it has none.
 */
import type { CallOutcome, ServiceCall, ServiceClient } from './client';
import { checkBatchSize } from './batch-size';
import { type ReadControl, type RidingCalls, runRound } from './read-control';
import { ServiceError, type TransportError } from './errors';
import { type User, type UserInfo, userInfoSchema } from './schemas';

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
    const outcomes = runRound(control, () => client.callAll(userInfoCalls(batch), userInfoSchema));
    outcomes.forEach((outcome, index) => {
      const user = userOf(outcome);
      if (user instanceof Error) throw user;
      users.set(batch[index]!, user);
    });
  }
  return { users, complete: true };
}

/**
 * Look-ups of `ids` that ride in another read's round, each id's outcome handed to
 * `settle` as the user, null for an id the service does not know, or the error.
 */
export function ridingUserLookups(
  ids: readonly string[],
  settle: (id: string, user: User | null | ServiceError | TransportError) => void,
): RidingCalls<UserInfo> {
  return {
    calls: userInfoCalls(ids),
    schema: userInfoSchema,
    settle: (outcomes) => outcomes.forEach((outcome, index) => settle(ids[index]!, userOf(outcome))),
  };
}

function userInfoCalls(ids: readonly string[]): ServiceCall[] {
  return ids.map((user) => ({ apiMethod: USERS_METHOD, params: { user } }));
}

/** The user an answer gives; null for an id the service does not know. */
function userOf(outcome: CallOutcome<UserInfo>): User | null | ServiceError | TransportError {
  if (outcome.ok) return outcome.value.user;
  return 'identifier' in outcome.error && outcome.error.identifier === 'content_not_found'
    ? null
    : outcome.error;
}
