/**
 * Resolving user ids to users through users.info, one request per id, sent in parallel batches.
 * An id the service does not know (content_not_found) resolves to null; any other error ends the run.
 */
import type { ServiceClient } from './client';
import { type User, userInfoSchema } from './schemas';
import { checkBatchSize } from './completions';

export const USERS_METHOD = 'users.info';

export function fetchUsers(
  client: ServiceClient,
  ids: readonly string[],
  batchSize: number,
): Map<string, User | null> {
  checkBatchSize(batchSize);
  const unique = [...new Set(ids.filter((id) => id !== ''))];
  const users = new Map<string, User | null>();
  for (let start = 0; start < unique.length; start += batchSize) {
    const batch = unique.slice(start, start + batchSize);
    const outcomes = client.callAll(
      batch.map((user) => ({ apiMethod: USERS_METHOD, params: { user } })),
      userInfoSchema,
    );
    outcomes.forEach((outcome, index) => {
      const id = batch[index]!;
      if (outcome.ok) users.set(id, outcome.value.user);
      else if ('identifier' in outcome.error && outcome.error.identifier === 'content_not_found')
        users.set(id, null);
      else throw outcome.error;
    });
  }
  return users;
}
