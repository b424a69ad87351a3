/**
 * Compliance: the share of the pairs that count which are compliant (Valid, Valid (no expiry) or
 * Expiring). Only active people count: the inactive ones the matrix may show are counted nowhere.
 *
 * A pair counts when the person must hold the training, it is due (a new starter's training that is
 * "Due by" a day still to come counts once that day has passed) and it is not exempted. Until the Requirements tab lists
 * anything, a training the person took counts too, required or not (the rule before requirements
 * existed: a workbook is counted as before until its user fills them in).
 */
import type { PairStatus, Person, TrainingMatrix } from './matrix';
import { isCompliant, TrainingStatus } from './training-status';

export interface Compliance {
  compliant: number;
  counted: number;
}

/** The rows of the people counted: the active ones (the inactive are listed only when shown). */
function activeRows(matrix: TrainingMatrix): PairStatus[][] {
  return countedRows(matrix).map((row) => row.statuses);
}

/** compliant ÷ counted; null when nothing counts. */
export function complianceShare({ compliant, counted }: Compliance): number | null {
  return counted === 0 ? null : compliant / counted;
}

function counts(status: PairStatus, requirementsListed: boolean): boolean {
  if (status.status === TrainingStatus.dueBy || status.status === TrainingStatus.exempt) return false;
  return status.required || (!requirementsListed && status.latest !== null);
}

function tally(statuses: Iterable<PairStatus>, requirementsListed: boolean): Compliance {
  const { compliant, counted } = statusCounts(statuses, requirementsListed);
  return { compliant, counted };
}

/** The counted pairs by status (they sum to `counted`): what Compliance history records. */
export interface StatusCounts extends Compliance {
  /** Valid and Valid (no expiry). */
  valid: number;
  expiring: number;
  expired: number;
  notDone: number;
}

export function statusCounts(statuses: Iterable<PairStatus>, requirementsListed: boolean): StatusCounts {
  const result = { compliant: 0, counted: 0, valid: 0, expiring: 0, expired: 0, notDone: 0 };
  for (const status of statuses) {
    if (!counts(status, requirementsListed)) continue;
    result.counted++;
    if (isCompliant(status.status)) result.compliant++;
    if (status.status === TrainingStatus.expiring) result.expiring++;
    else if (status.status === TrainingStatus.expired) result.expired++;
    else if (status.status === TrainingStatus.notDone) result.notDone++;
    else result.valid++;
  }
  return result;
}

/** The rows of the people counted, for whoever groups them otherwise (Compliance history). */
export function countedRows(matrix: TrainingMatrix): { person: Person; statuses: PairStatus[] }[] {
  return matrix.people.flatMap((person, index) =>
    person.active ? [{ person, statuses: matrix.statuses[index]! }] : [],
  );
}

/** An inactive person's: nothing counted. */
export function personCompliance(matrix: TrainingMatrix, person: number): Compliance {
  const statuses = matrix.people[person]!.active ? matrix.statuses[person]! : [];
  return tally(statuses, matrix.requirementsListed);
}

export function trainingCompliance(matrix: TrainingMatrix, training: number): Compliance {
  return tally(
    activeRows(matrix).map((row) => row[training]!),
    matrix.requirementsListed,
  );
}

/** Every counted pair. */
export function overallCompliance(matrix: TrainingMatrix): Compliance {
  return tally(activeRows(matrix).flat(), matrix.requirementsListed);
}

/** The required pairs only: what an audit of the requirements counts. */
export function requiredCompliance(matrix: TrainingMatrix): Compliance {
  return tally(
    activeRows(matrix).flatMap((row) => row.filter((status) => status.required)),
    matrix.requirementsListed,
  );
}

/** The pairs a person must hold and has never done (a new starter still within their days excluded). */
export function requiredNotDone(matrix: TrainingMatrix): number {
  return activeRows(matrix)
    .flat()
    .filter((status) => status.status === TrainingStatus.notDone).length;
}

/** The pairs the Exemptions tab excuses, among the people and trainings the matrix shows. */
export function exemptedPairs(matrix: TrainingMatrix): number {
  return activeRows(matrix)
    .flat()
    .filter((status) => status.status === TrainingStatus.exempt).length;
}

/** The person × training pairs with a completion: those that can be Expired or Expiring. */
export function completedPairs(matrix: TrainingMatrix): number {
  return activeRows(matrix)
    .flat()
    .filter((status) => status.latest !== null).length;
}
