import type { ServiceClient } from '../../src/api/client';
import { type CompletionsFilter, readCompletionPages } from '../../src/api/completions';

/** Every completion of the filter in one read (no pause): what a finished import holds, in order. */
export function readAllCompletions(client: ServiceClient, filter: CompletionsFilter, batchSize: number) {
  const read = readCompletionPages(client, { filter }, batchSize);
  return { records: read.records, rejected: read.rejected };
}
