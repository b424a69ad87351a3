/**
 * What a run says about the training tabs it wrote: the tabs it made again, then the people, the
 * trainings, how many are expired, expiring and required but not done, and the compliance.
 */
import { formatCount } from '../lib/numbers';
import { describeRemade } from '../platform/addon-tabs';
import type { CatalogueEntry } from './catalogue';
import type { ExpiringEntry } from './expiring';
import type { TrainingMatrix } from './matrix';
import { exemptedPairs, overallCompliance, requiredNotDone } from './matrix-compliance';
import { TrainingStatus } from './training-status';

export function expiredCount(entries: readonly ExpiringEntry[]): number {
  return entries.filter((entry) => entry.status.status === TrainingStatus.expired).length;
}

/** @param remadeSheets The tabs their user had deleted and the run made again. */
export function describeTrainingTabs(
  remadeSheets: readonly string[],
  matrix: TrainingMatrix,
  trainings: readonly CatalogueEntry[],
  entries: readonly ExpiringEntry[],
): { summary: string; remade: string | null } {
  const remade = remadeSheets.length ? describeRemade(remadeSheets) : null;
  const summary = summaryOf(matrix, trainings, entries);
  return { summary: remade ? `${remade} ${summary}` : summary, remade };
}

function summaryOf(
  matrix: TrainingMatrix,
  trainings: readonly CatalogueEntry[],
  entries: readonly ExpiringEntry[],
): string {
  const expired = expiredCount(entries);
  const notDone = requiredNotDone(matrix);
  const { compliant, counted } = overallCompliance(matrix);
  const compliance = counted === 0 ? '' : `, ${Math.round((100 * compliant) / counted)}% compliant`;
  const exempted = exemptedPairs(matrix);
  const excused = exempted === 0 ? '' : `, ${formatCount(exempted)} exempted`;
  return (
    `Trainings: ${formatCount(matrix.people.length)} people, ${formatCount(trainings.length)} trainings; ` +
    `${formatCount(expired)} expired, ${formatCount(entries.length - expired)} expiring, ` +
    `${formatCount(notDone)} required not done${compliance}${excused}.`
  );
}
