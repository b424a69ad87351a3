/**
 * Completions have no id: a record is known by all of its fields, and this module is the one place
 * that says so. Its identity (the fields as JSON) is what paging compares, exactly and cheaply; its
 * key, a 53-bit fingerprint of that identity, is what the "Completed trainings" tab keeps in its
 * hidden "Record key" column to match rows across refreshes and what staging is checked with, so
 * 100,000 rows do not carry 100,000 JSON strings (collisions among 100,000 records are about one in
 * two million). The fields' order is also the staging tab's.
 *
 * Identical records (twins) are as many rows as the service lists them: in a list, the second and
 * later occurrences of a key are told apart by their number ("key~2", "key~3"), so each twin's row
 * keeps its own notes and one twin going away removes one row.
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

const OCCURRENCE_MARK = '~';

/** The row keys of a list of records, in order: each record's key, numbered from its second twin on. */
export function rowKeys(records: readonly Completion[]): string[] {
  const seen = new Map<string, number>();
  return records.map((record) => {
    const key = completionKey(record);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return occurrence === 1 ? key : `${key}${OCCURRENCE_MARK}${occurrence}`;
  });
}

/** A row key's record key and which occurrence of that record it is (1 for the first). */
export function splitRowKey(rowKey: string): { key: string; occurrence: number } {
  const mark = rowKey.indexOf(OCCURRENCE_MARK);
  if (mark < 0) return { key: rowKey, occurrence: 1 };
  return { key: rowKey.slice(0, mark), occurrence: Number(rowKey.slice(mark + 1)) };
}
