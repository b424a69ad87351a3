/** How many pages (or users) a read asks for in one round: the "Pages at once" setting's bounds. */
import { InvalidParameterError } from './errors';

/** The most a round may hold. */
export const MAX_BATCH_SIZE = 100;

export function checkBatchSize(batchSize: number): number {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw new InvalidParameterError('The batch size', `must be a whole number from 1 to ${MAX_BATCH_SIZE}`);
  }
  return batchSize;
}
