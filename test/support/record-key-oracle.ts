/**
 * The record identity and row keys as the tests compute them, without src/ (the add-on's own are in
 * src/api/completion-key.ts; this file is written from the rule, not from that code, so that a
 * mistake there is not repeated here).
 *
 * The rule: completions have no id, so a record is known by the whole of it, every field in a fixed
 * order (user, training, created, date, special expiration date, instructor, group training), an
 * absent field as null, written as a JSON array. That array is also how the hidden staging tab holds
 * a record, one cell each. The "Record key" column of "Completed trainings" holds a short
 * fingerprint of it (cyrb53, 53 bits, in base 36). Identical records (twins) are as many rows as the
 * service lists them: in a list, the first occurrence of a record has its key, the second `key~2`,
 * the third `key~3`, and so on, in list order.
 */

/** A completion as the service sends it (any object with the contract's fields). */
export interface RecordFields {
  user_id?: unknown;
  training_id?: unknown;
  created?: unknown;
  dateNumber?: unknown;
  specialExpirationDateNumber?: unknown;
  instructor_id?: unknown;
  groupTraining_id?: unknown;
}

/** The fields of a record, in the order of its identity. */
function fieldsInOrder(record: RecordFields): unknown[] {
  const { user_id, training_id, created, dateNumber, specialExpirationDateNumber, instructor_id } = record;
  const values = [
    user_id,
    training_id,
    created,
    dateNumber,
    specialExpirationDateNumber,
    instructor_id,
    record.groupTraining_id,
  ];
  return values.map((value) => (value === undefined ? null : value));
}

/** The whole record as one text: what tells two records apart, and a staging tab's cell. */
export function identityOf(record: RecordFields): string {
  return JSON.stringify(fieldsInOrder(record));
}

/** The record as the staging tab holds it: one cell, its identity. */
export const stagedCellOf = identityOf;

const TWO_32 = 2 ** 32;

/** 32-bit multiplication modulo 2^32, as an unsigned number (BigInt-free, Math.imul-free). */
function times(a: number, b: number): number {
  const low = (a & 0xffff) * b;
  const high = ((a >>> 16) * b) % TWO_32;
  return ((high * 0x10000 + low) % TWO_32) >>> 0;
}

/** cyrb53 (bryc's public-domain 53-bit string hash), seed 0, in base 36. */
function cyrb53(text: string): string {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (const unit of Array.from({ length: text.length }, (_, index) => text.charCodeAt(index))) {
    first = times((first ^ unit) >>> 0, 2654435761);
    second = times((second ^ unit) >>> 0, 1597334677);
  }
  first =
    (times((first ^ (first >>> 16)) >>> 0, 2246822507) ^
      times((second ^ (second >>> 13)) >>> 0, 3266489909)) >>>
    0;
  second =
    (times((second ^ (second >>> 16)) >>> 0, 2246822507) ^
      times((first ^ (first >>> 13)) >>> 0, 3266489909)) >>>
    0;
  return ((second % 2 ** 21) * TWO_32 + first).toString(36);
}

/** A record's key: the fingerprint of its identity. */
export function keyOf(record: RecordFields): string {
  return cyrb53(identityOf(record));
}

/** The row keys of a list, in list order: twins numbered `key~2`, `key~3`… from the second one on. */
export function rowKeysOf(records: readonly RecordFields[]): string[] {
  const occurrences = new Map<string, number>();
  return records.map((record) => {
    const key = keyOf(record);
    const occurrence = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, occurrence);
    return occurrence > 1 ? `${key}~${occurrence}` : key;
  });
}

/** A row key's record key and which occurrence of that record it names (1 for the first). */
export function occurrenceOf(rowKey: string): { key: string; occurrence: number } {
  const match = /^(.*)~(\d+)$/.exec(rowKey);
  return match ? { key: match[1]!, occurrence: Number(match[2]) } : { key: rowKey, occurrence: 1 };
}
