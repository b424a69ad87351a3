/**
 * Completions have no id: a record is known by all of its fields. This key, defined once, is what
 * paging de-duplicates by, what the "Completed trainings" tab keeps in its hidden "Record key"
 * column to match rows across refreshes, and what the staging tab's fields follow. It is a 53-bit
 * fingerprint, so 100,000 rows do not carry 100,000 JSON keys (collisions among 100,000 records are
 * about one in two million).
 */
import { fingerprint } from '../lib/fingerprint';
import type { Completion } from './schemas';

/** Every field of a completion, in the order the key and the staging tab use. */
export const COMPLETION_FIELDS = [
  'user_id',
  'training_id',
  'created',
  'dateNumber',
  'specialExpirationDateNumber',
  'instructor_id',
  'groupTraining_id',
] as const satisfies readonly (keyof Completion)[];

/**
 * Keys already computed, by record: paging keys every record as it arrives and the tab needs the
 * same key again for its hidden column, and hashing 100,000 records costs about 0.2 s of script time.
 */
const computed = new WeakMap<Completion, string>();

export function completionKey(record: Completion): string {
  let key = computed.get(record);
  if (key === undefined) {
    key = fingerprint(JSON.stringify(COMPLETION_FIELDS.map((field) => record[field] ?? null)));
    computed.set(record, key);
  }
  return key;
}
