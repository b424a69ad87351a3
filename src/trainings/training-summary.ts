/**
 * What a run says about the training tabs it wrote: the tabs it made again, then the people, the
 * trainings, how many are expired, expiring and required but not done, and the compliance; then the
 * months Compliance history recorded, when it recorded any.
 */
import { formatCount } from '../lib/numbers';
import { describeRemade } from '../platform/addon-tabs';
import type { CatalogueEntry } from './catalogue';
import type { HistoryUpdate } from './compliance-history';
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
  history: HistoryUpdate,
): { summary: string; remade: string | null; history: string | null } {
  const remade = remadeSheets.length ? describeRemade(remadeSheets) : null;
  const recorded = historySentence(history);
  const summary = [remade, summaryOf(matrix, trainings, entries), recorded]
    .filter((part) => part !== null)
    .join(' ');
  return { summary, remade, history: recorded };
}

/** What Compliance history recorded, when it recorded a month; null otherwise. */
export function historySentence({ recorded, backfilled, left }: HistoryUpdate): string | null {
  if (recorded.length === 0) return null;
  const span = (months: readonly string[]) =>
    months.length === 1
      ? months[0]!
      : `${months.length} months, ${months[0]!} to ${months[months.length - 1]!}`;
  const closed = recorded.filter((month) => !backfilled.includes(month));
  const parts = [
    closed.length > 0 &&
      `recorded ${span(closed)} as of ${closed.length === 1 ? 'its' : 'each month’s'} last day`,
    backfilled.length > 0 && `backfilled ${span(backfilled)} from the completions this workbook holds`,
    left > 0 && `the next runs record ${left} more`,
  ].filter((part) => part !== false);
  return `Compliance history: ${parts.join('; ')}.`;
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
