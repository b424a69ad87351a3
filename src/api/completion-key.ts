/**
 * Completions have no id: a record is known by all of its fields, and this module is the one place
 * that says so. Its identity (the fields as JSON) is what paging compares, exactly and cheaply; its
 * key, a 53-bit fingerprint of that identity, is what the "Completed trainings" tab keeps in its
 * hidden "Record key" column to match rows across refreshes and what staging is checked with, so
 * 100,000 rows do not carry 100,000 JSON strings (collisions among 100,000 records are about one in
 * two million). The fields' order is also the staging tab's.
 */
import { fingerprint } from '../lib/fingerprint';
import type { Completion } from './schemas';

/** Every field of a completion, in the order the identity and the staging tab use. */
export const COMPLETION_FIELDS = [
  'user_id',
  'training_id',
  'created',
  'dateNumber',
  'specialExpirationDateNumber',
  'instructor_id',
  'groupTraining_id',
] as const satisfies readonly (keyof Completion)[];

export function completionIdentity(record: Completion): string {
  return JSON.stringify(COMPLETION_FIELDS.map((field) => record[field] ?? null));
}

export function completionKey(record: Completion): string {
  return fingerprint(completionIdentity(record));
}
