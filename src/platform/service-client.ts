/**
 * The service client as it runs on Google's side: UrlFetchApp carries its requests and
 * Utilities.sleep waits between its retries. Each caller says only how it may retry: a run within
 * its execution's budget, a formula within its 30 seconds, a connection test not at all.
 */
import { type ClientOptions, ServiceClient } from '../api/client';
import type { Connection } from './settings-store';
import { urlFetchTransport } from './url-fetch-transport';

/** How a caller's calls retry; what it leaves out is the client's default. */
export type RetryPolicy = Pick<ClientOptions, 'maxAttempts' | 'backoffBaseMs' | 'timeLeftMs'>;

export function googleServiceClient(connection: Connection, retries: RetryPolicy = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: connection.baseUrl,
    token: connection.token,
    transport: urlFetchTransport,
    sleep: (ms) => Utilities.sleep(ms),
    ...retries,
  });
}
