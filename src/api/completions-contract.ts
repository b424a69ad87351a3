/**
 * What the service's completions list takes (its method, page size and filter, checked before
 * anything is sent) and what a read makes of its answers: entries in list order, a record or an
 * entry the contract's shape refuses, each with its key.
 */
import { completionIdentity } from './completion-key';
import { InvalidParameterError } from './errors';
import type { Completion, RejectedRecord } from './schemas';

export const COMPLETIONS_METHOD = 'completedtrainings.list';
export const MAX_PAGE_SIZE = 1000;

export interface CompletionsFilter {
  user_id?: string;
  training_id?: string;
}

/** Checks the filter before anything is sent; returns it without empty members. */
export function checkFilter(filter: CompletionsFilter): CompletionsFilter {
  const checked: CompletionsFilter = {};
  for (const name of ['user_id', 'training_id'] as const) {
    const value = filter[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidParameterError(name, 'must be a non-empty id, or left out to mean all');
    }
    checked[name] = value;
  }
  return checked;
}

export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidParameterError('limit', `must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

export function checkPage(page: number): number {
  if (!Number.isInteger(page) || page < 1)
    throw new InvalidParameterError('page', 'must be a whole number of 1 or more');
  return page;
}

/** One place of the list: a record, or an entry the contract's shape refuses (it keeps its place). */
export interface ListEntry {
  /** completionIdentity of the record, or the entry's JSON (marked) when it is refused. */
  key: string;
  record: Completion | null;
  rejected: RejectedRecord | null;
}

export function recordEntry(record: Completion): ListEntry {
  return { key: completionIdentity(record), record, rejected: null };
}

export function recordsOf(entries: readonly ListEntry[]): Completion[] {
  const records: Completion[] = [];
  for (const entry of entries) if (entry.record) records.push(entry.record);
  return records;
}

export function rejectedOf(entries: readonly ListEntry[]): RejectedRecord[] {
  const rejected: RejectedRecord[] = [];
  for (const entry of entries) if (entry.rejected) rejected.push(entry.rejected);
  return rejected;
}

/** Each key's positions in `entries`, in order. */
export function positionsByKey(entries: readonly ListEntry[], offset = 0): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const at = positions.get(entry.key);
    if (at) at.push(offset + index);
    else positions.set(entry.key, [offset + index]);
  });
  return positions;
}
