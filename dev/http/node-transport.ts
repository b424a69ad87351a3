/**
 * The service client's transport on Node: the same synchronous contract as UrlFetchApp, over real
 * HTTP through the blocking client, so tests and dev tools drive the real client code.
 */
import { type HttpRequest, lowerCaseHeaders, type Transport } from '../../src/api/transport';
import { isFailure, requestAllSync, type SyncHttpRequest } from './sync-http';

function toSyncRequest(request: HttpRequest): SyncHttpRequest {
  const headers: Record<string, string> = {};
  if (request.contentType) headers['content-type'] = request.contentType;
  return { url: request.url, method: request.method.toUpperCase(), headers, body: request.payload };
}

/** Like UrlFetchApp.fetchAll, a request that gets no response at all fails the whole call. */
export const nodeTransport: Transport = {
  fetch(request) {
    return nodeTransport.fetchAll([request])[0]!;
  },
  fetchAll(requests) {
    return requestAllSync(requests.map(toSyncRequest)).map((result) => {
      if (isFailure(result)) throw new Error(result.error);
      return { status: result.status, headers: lowerCaseHeaders(result.headers), body: result.body };
    });
  },
};
