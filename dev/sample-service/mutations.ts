/**
 * What a test may change in a dataset between or during requests, and what changed: shared by the
 * store that applies the changes and the faults that schedule them.
 */
import type { Completion, Metafield, Schedule } from './dataset';

/**
 * Changes to a dataset's data. The positional ones (…At) name positions of the unfiltered list
 * (0 = newest) as it is when the mutations arrive, before any of them is applied: a test that
 * models the list can say exactly which records change, and where new ones land.
 */
export interface Mutations {
  addCompletions?: number;
  /** Completions entered late: dated some days before the newest, so they land inside the list. */
  addBackdatedCompletions?: { count: number; daysBeforeNewest: number };
  /** Picks records at random, so it cannot be combined with the positional mutations. */
  removeCompletions?: number;
  /** Distinct positions whose completions are removed. */
  removeCompletionsAt?: number[];
  /**
   * New completions (distinct from every other: a new group training of the dataset's factory),
   * dated like the record now at `position` (like the last record when `position` is the length)
   * and inserted right before it, so the list stays newest first. Several at one position land in
   * the order given.
   */
  insertCompletionsAt?: Array<{ position: number; fields?: CompletionFieldOverrides }>;
  /** An identical copy of the record at each position, right after it; a position named twice gets two. */
  duplicateCompletionsAt?: number[];
  renameEquipmentTypes?: Array<{ id: string; title: string }>;
  removeEquipmentTypes?: string[];
  /**
   * New values for fields of schedules, each found by its type and its own id (ids need not be
   * unique across types): a 60,000-character instruction, or a schedule id another type also uses.
   */
  editSchedules?: Array<{
    typeId: string;
    scheduleId: string;
    fields: Partial<Pick<Schedule, 'id' | 'name' | 'instructions'>>;
  }>;
  /** New values for fields of metafields, found like editSchedules' schedules. */
  editMetafields?: Array<{
    typeId: string;
    metafieldId: string;
    fields: Partial<Pick<Metafield, 'id' | 'name' | 'type'>>;
  }>;
}

/** Fields an inserted completion takes instead of the generated ones: ids with edge-case values, say. */
export type CompletionFieldOverrides = Partial<
  Pick<
    Completion,
    'user_id' | 'training_id' | 'instructor_id' | 'groupTraining_id' | 'specialExpirationDateNumber'
  >
>;

export interface MutationsResult {
  added: Completion[];
  removed: Completion[];
}
