/**
 * Why a filtered import found nothing, when the likely reason is the spaces typed around an id.
 * Ids are kept exactly as typed (typed-filter.ts): "  padded  " matches only a user whose id has
 * those spaces. When such a filter matched nothing and the ids without their spaces have
 * completions, the run's message says so, so that the user checks what they typed.
 */
import type { ServiceClient } from '../../api/client';
import { COMPLETIONS_METHOD, type CompletionsFilter } from '../../api/completions-contract';
import { ServiceError, TransportError } from '../../api/errors';
import { completionsPageSchema } from '../../api/schemas';
import { formatCount } from '../../lib/numbers';
import type { JobReport } from '../../platform/job-runner';

const FILTER_MEMBERS = [
  ['user_id', 'user'],
  ['training_id', 'training'],
] as const;

/**
 * The sentence for a full import of `filter` that wrote `recordsImported` records, or null when
 * there is nothing to say. Asks the service once, only when nothing was imported and an id of the
 * filter has spaces around it.
 */
export function filterSpacesHint(
  client: ServiceClient,
  filter: CompletionsFilter,
  recordsImported: number,
): string | null {
  if (recordsImported > 0) return null;
  const trimmed = withoutSurroundingSpaces(filter);
  if (!trimmed) return null;
  let matching: number;
  try {
    matching = countMatching(client, trimmed);
  } catch (error) {
    // The import is done and written; a hint the service cannot give now is left out, not a failure.
    if (error instanceof ServiceError || error instanceof TransportError) return null;
    throw error;
  }
  if (matching === 0) return null;
  const padded = FILTER_MEMBERS.filter(([member]) => filter[member] !== trimmed[member]).length;
  const members = FILTER_MEMBERS.filter(([member]) => filter[member] !== undefined).length;
  return (
    `No completions matched ${describe(filter)} as typed (with ${padded === 1 ? 'its' : 'their'} spaces); ` +
    `${describe(trimmed)} ${members === 1 ? 'has' : 'have'} ${formatCount(matching)} — ` +
    'check the filter in Import completed trainings….'
  );
}

/** `report` with the hint of filterSpacesHint at the end of its summary and Sync log details. */
export function withFilterSpacesHint(
  client: ServiceClient,
  filter: CompletionsFilter,
  report: JobReport,
): JobReport {
  // Only a finished full import says how many records it wrote.
  if (report.continuing || report.records === undefined) return report;
  const hint = filterSpacesHint(client, filter, report.records);
  if (!hint) return report;
  return {
    ...report,
    summary: `${report.summary} ${hint}`,
    details: report.details && `${report.details} ${hint}`,
  };
}

/** The filter with the spaces around its ids taken off; null when none has any, or one is all spaces. */
function withoutSurroundingSpaces(filter: CompletionsFilter): CompletionsFilter | null {
  const trimmed: CompletionsFilter = {};
  for (const [member] of FILTER_MEMBERS) {
    const id = filter[member];
    if (id === undefined) continue;
    trimmed[member] = id.trim();
    if (trimmed[member] === '') return null;
  }
  return FILTER_MEMBERS.some(([member]) => trimmed[member] !== filter[member]) ? trimmed : null;
}

/** How many completions `filter` matches, in one request: at one record a page, its last page is their number. */
function countMatching(client: ServiceClient, filter: CompletionsFilter): number {
  const page = client.call(COMPLETIONS_METHOD, { ...filter, page: 1, limit: 1 }, completionsPageSchema);
  return page.completedtrainings.length === 0 ? 0 : Math.max(1, page.paging.last_page);
}

/** `user "  padded  "`, `training "T 1"`, or both joined by "and"; quoted as JSON, so every space shows. */
function describe(filter: CompletionsFilter): string {
  return FILTER_MEMBERS.flatMap(([member, noun]) => {
    const id = filter[member];
    return id === undefined ? [] : [`${noun} ${JSON.stringify(id)}`];
  }).join(' and ');
}
