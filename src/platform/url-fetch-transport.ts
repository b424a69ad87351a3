/**
 * The service client's transport on Google's side: UrlFetchApp, with muteHttpExceptions so that
 * every HTTP answer (a proxy's 502 page included) reaches the client, which decides what it means.
 */
import { type HttpRequest, type HttpResponse, lowerCaseHeaders, type Transport } from '../api/transport';

function toUrlFetchRequest(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const options: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
    url: request.url,
    method: request.method,
    muteHttpExceptions: true,
    followRedirects: true,
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

export const urlFetchTransport: Transport = {
  fetch(request) {
    const { url, ...params } = toUrlFetchRequest(request);
    return fromUrlFetchResponse(UrlFetchApp.fetch(url, params));
  },
  fetchAll(requests) {
    return UrlFetchApp.fetchAll(requests.map(toUrlFetchRequest)).map(fromUrlFetchResponse);
  },
};
