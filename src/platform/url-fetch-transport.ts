/**
 * The service client's transport on Google's side: UrlFetchApp, with muteHttpExceptions so that
 * every HTTP answer (a proxy's 502 page included) reaches the client, which decides what it means.
 * Redirects are not followed: UrlFetchApp would send the request again, the token in its body or
 * URL, to whatever host the Location names; the client turns a 3xx into an error instead.
 * A URL outside the manifest's urlFetchWhitelist is not sent, and fails with a sentence saying how
 * to allow it (url-fetch-whitelist.ts).
 */
import {
  type HttpRequest,
  type HttpResponse,
  lowerCaseHeaders,
  RequestNotAllowedError,
  type Transport,
} from '../api/transport';
import { whitelistRefusal, whitelistRefusalOf } from './url-fetch-whitelist';

function toUrlFetchRequest(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const options: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
    url: request.url,
    method: request.method,
    muteHttpExceptions: true,
    followRedirects: false,
  };
  if (request.contentType !== undefined) options.contentType = request.contentType;
  if (request.payload !== undefined) options.payload = request.payload;
  return options;
}

function fromUrlFetchResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  return {
    status: response.getResponseCode(),
    headers: lowerCaseHeaders(response.getHeaders() as Record<string, unknown>),
    body: response.getContentText(),
  };
}

/** Runs `send` for these requests unless the whitelist refuses one of them, whether the add-on or Apps Script sees it first. */
function withinWhitelist<T>(requests: readonly HttpRequest[], send: () => T): T {
  for (const { url } of requests) {
    const refusal = whitelistRefusal(url);
    if (refusal) throw new RequestNotAllowedError(refusal);
  }
  try {
    return send();
  } catch (error) {
    const refusal = whitelistRefusalOf(error, requests[0]!.url);
    throw refusal ? new RequestNotAllowedError(refusal) : error;
  }
}

export const urlFetchTransport: Transport = {
  fetch(request) {
    const { url, ...params } = toUrlFetchRequest(request);
    return withinWhitelist([request], () => fromUrlFetchResponse(UrlFetchApp.fetch(url, params)));
  },
  fetchAll(requests) {
    return withinWhitelist(requests, () =>
      UrlFetchApp.fetchAll(requests.map(toUrlFetchRequest)).map(fromUrlFetchResponse),
    );
  },
};
