/**
 * Training status: whose training is valid, expiring, expired or not done. Every rule lives here; the
 * catalogue, the matrix, the list of expiring trainings and the custom functions all apply them.
 *
 * - The latest completion of a (person, training) pair is the one with the latest completion date,
 *   then the latest `created`; of two that tie on both, the one met first (the tab lists newest first).
 *   Only completions on or before the day asked about count: a status "as of 1 March" is what the
 *   completions recorded for trainings taken by 1 March say, whenever they were entered.
 * - Its expiry is its own special expiration date when it has one; otherwise its completion date plus
 *   the training's validity in calendar months (a day the month lacks becomes its last day: 31 Jan + 1
 *   month = 28 or 29 Feb); otherwise (no validity) it never expires. Only the latest completion counts,
 *   so an older completion's special expiration never revives a newer one that has expired.
 * - Status on a day, with daysLeft = expiry − day (the words and the Expired/Expiring boundaries of
 *   inspections, where they mean the same):
 *   - "Expired"  when daysLeft < 0 (the expiry has passed; on the expiry day itself it is still held);
 *   - "Expiring" when 0 ≤ daysLeft ≤ the training's expiring window (a window of 0: on the day only);
 *   - "Valid" when daysLeft is greater; "Valid (no expiry)" when it never expires;
 *   - for a pair with no completion on or before that day: "Not done" when the person must hold the
 *     training; "Due by" while a new starter's window to take it lasts (the due day included: their
 *     start date plus the requirement's days); "Not required" when nothing asks it of them.
 * - A person is compliant on a training when its status is Valid, Valid (no expiry) or Expiring (an
 *   expiring training is still held).
 */
import { addDays, addMonths, type CalendarDate, daysBetween } from '../lib/dates';
import { ExpiryStatus } from '../sheets/status-words';

export const TrainingStatus = {
  valid: 'Valid',
  validNoExpiry: 'Valid (no expiry)',
  expiring: ExpiryStatus.expiring,
  expired: ExpiryStatus.expired,
  notDone: 'Not done',
  dueBy: 'Due by',
  notRequired: 'Not required',
  /** Marked not applicable to the person on the Exemptions tab, whatever the completions say. */
  exempt: 'Exempt',
} as const;
export type TrainingStatus = (typeof TrainingStatus)[keyof typeof TrainingStatus];

/** What the rules need of one completion. */
export interface CompletionFacts {
  completed: CalendarDate;
  /** The service's specialExpirationDateNumber as a date; null when it sent none. */
  specialExpiration: CalendarDate | null;
  /** Orders completions of the same day: any increasing measure of `created` (a serial, milliseconds). */
  created: number;
}

/** What the catalogue says about a training. */
export interface TrainingRule {
  /** Calendar months a completion stays valid; null: it never expires (unless a special expiration says so). */
  validityMonths: number | null;
  /** Days before the expiry that count as Expiring. */
  expiringDays: number;
}

export interface TrainingStatusResult {
  status: TrainingStatus;
  /** Null when it never expires, or was not done (for "Due by": the day it is due). */
  expiry: CalendarDate | null;
  /** Expiry − day: negative once expired; null without an expiry. */
  daysLeft: number | null;
}

/**
 * Whether a person must hold a training: `dueBy` is the last day a new starter may still take it
 * (their start date plus the requirement's days); null when it is due from the start.
 */
export type Obligation = { required: false } | { required: true; dueBy: CalendarDate | null };

export const REQUIRED_NOW: Obligation = { required: true, dueBy: null };
export const NOT_REQUIRED: Obligation = { required: false };

/** Whether `a` is a later completion than `b`: a later completion date, then a later `created`. */
function isLater(a: CompletionFacts, b: CompletionFacts): boolean {
  return a.completed !== b.completed ? a.completed > b.completed : a.created > b.created;
}

/** The latest of a pair's completions on or before `day`; null when there is none. */
export function latestCompletion<T extends CompletionFacts>(
  completions: Iterable<T>,
  day: CalendarDate,
): T | null {
  let latest: T | null = null;
  for (const completion of completions) {
    if (completion.completed > day) continue;
    if (latest === null || isLater(completion, latest)) latest = completion;
  }
  return latest;
}

export function expiryOf(completion: CompletionFacts, validityMonths: number | null): CalendarDate | null {
  if (completion.specialExpiration !== null) return completion.specialExpiration;
  return validityMonths === null ? null : addMonths(completion.completed, validityMonths);
}

/**
 * The boundaries of the statuses on `day`, for whatever compares expiries with them (statusOf, the
 * Training matrix's colours): an expiry before the first held one is Expired; from it to the last
 * expiring one, Expiring; later, Valid.
 */
export function firstHeldExpiry(day: CalendarDate): CalendarDate {
  return day;
}

export function lastExpiringExpiry(day: CalendarDate, expiringDays: number): CalendarDate {
  return addDays(firstHeldExpiry(day), expiringDays);
}

export function firstValidExpiry(day: CalendarDate, expiringDays: number): CalendarDate {
  return addDays(lastExpiringExpiry(day, expiringDays), 1);
}

/** The status on `day` of a pair not done by then, by what the person must do about it. */
export function statusNotDone(obligation: Obligation, day: CalendarDate): TrainingStatusResult {
  if (!obligation.required) return { status: TrainingStatus.notRequired, expiry: null, daysLeft: null };
  const { dueBy } = obligation;
  if (dueBy !== null && dueBy >= day)
    return { status: TrainingStatus.dueBy, expiry: dueBy, daysLeft: daysBetween(day, dueBy) };
  return { status: TrainingStatus.notDone, expiry: null, daysLeft: null };
}

/**
 * The status on `day` of a pair whose latest completion on or before that day is `latest`; one not
 * done is Not done unless an obligation says otherwise.
 */
export function statusOf(
  latest: CompletionFacts | null,
  rule: TrainingRule,
  day: CalendarDate,
  obligation: Obligation = REQUIRED_NOW,
): TrainingStatusResult {
  if (latest === null) return statusNotDone(obligation, day);
  const expiry = expiryOf(latest, rule.validityMonths);
  if (expiry === null) return { status: TrainingStatus.validNoExpiry, expiry: null, daysLeft: null };
  const status =
    expiry < firstHeldExpiry(day)
      ? TrainingStatus.expired
      : expiry <= lastExpiringExpiry(day, rule.expiringDays)
        ? TrainingStatus.expiring
        : TrainingStatus.valid;
  return { status, expiry, daysLeft: daysBetween(day, expiry) };
}

/** The status on `day` from all of a pair's completions (the latest on or before it decides). */
export function trainingStatus(
  completions: Iterable<CompletionFacts>,
  rule: TrainingRule,
  day: CalendarDate,
): TrainingStatusResult {
  return statusOf(latestCompletion(completions, day), rule, day);
}

const COMPLIANT: readonly TrainingStatus[] = [
  TrainingStatus.valid,
  TrainingStatus.validNoExpiry,
  TrainingStatus.expiring,
];

export function isCompliant(status: TrainingStatus): boolean {
  return COMPLIANT.includes(status);
}
