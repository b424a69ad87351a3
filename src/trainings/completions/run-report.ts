/**
 * What the reports of full imports and incremental refreshes share beyond their counts: the Sync
 * log's details and the sentence about texts cut to fit.
 */
import { describeNames, type ResolvedNames } from './user-names';

/**
 * The Sync log's details: what the run could not take as the service sent it, then why names are
 * missing (when they are). With nothing of the first kind there are none, and the log shows the
 * summary, which says it.
 */
export function runDetails(
  problems: (string | null | undefined)[],
  resolved: ResolvedNames,
): string | undefined {
  const sentences = problems.filter((problem): problem is string => Boolean(problem));
  if (sentences.length === 0) return undefined;
  if (resolved.refusal) sentences.push(describeNames(resolved));
  return sentences.join(' ');
}

export const CUTS_SEEN = 'Some texts were longer than a cell holds and were cut to fit: see the Sync log.';
