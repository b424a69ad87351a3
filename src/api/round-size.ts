/**
 * How many requests a read sends in one round (one fetchAll). Large rounds are cheap on Google (a
 * round costs its slowest request and a fixed overhead), but a service may limit how many requests
 * of a token it takes at once: after a round in which it answered rate_limit_exceeded, the rounds
 * that follow are half as large (at least one request), for the rest of the read. The client retries
 * the refused requests themselves.
 */
import type { ServiceClient } from './client';
import { InvalidParameterError } from './errors';

/** The largest round a read may send: the batch size setting's maximum. */
export const MAX_BATCH_SIZE = 100;

export function checkBatchSize(batchSize: number): number {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw new InvalidParameterError('The batch size', `must be a whole number from 1 to ${MAX_BATCH_SIZE}`);
  }
  return batchSize;
}

export class RoundSize {
  private rateLimitedBefore: number;
  private size: number;

  constructor(
    private readonly client: ServiceClient,
    batchSize: number,
  ) {
    this.size = checkBatchSize(batchSize);
    this.rateLimitedBefore = client.stats.rateLimited;
  }

  /** The size of the next round: halved when the service limited requests since the last one. */
  next(): number {
    const { rateLimited } = this.client.stats;
    if (rateLimited > this.rateLimitedBefore) this.size = Math.max(1, Math.floor(this.size / 2));
    this.rateLimitedBefore = rateLimited;
    return this.size;
  }
}
