import type { ServiceClient } from '../../src/api/client';
import { readCompletionPages } from '../../src/api/completions';
import { type CompletionsFilter } from '../../src/api/completions-contract';

/** Every completion of the filter in one read (no pause): what a finished import holds, in order. */
export function readAllCompletions(client: ServiceClient, filter: CompletionsFilter, batchSize: number) {
  const read = readCompletionPages(client, { filter }, batchSize);
  return { records: read.records, rejected: read.rejected };
}
