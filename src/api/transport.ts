/**
 * How the service client reaches the network. Apps Script's UrlFetchApp is synchronous, so this is
 * too; the add-on wraps UrlFetchApp (src/platform/url-fetch-transport.ts) and Node tooling wraps a
 * blocking HTTP client (dev/http), so the same client code runs in both places.
 */
export interface HttpRequest {
  url: string;
  method: 'get' | 'post';
  contentType?: string;
  payload?: string;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A request the platform will not send (an address outside the manifest's urlFetchWhitelist): not a
 * network failure, so the client neither retries it nor words it as one. Its message says what to do.
 */
export class RequestNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestNotAllowedError';
  }
}

export interface Transport {
  /**
   * Returns the response whatever its status, a redirect's as it is (a transport never follows
   * one: the request carries the token); throws only when no response arrived at all, or
   * RequestNotAllowedError when none may be sent.
   */
  fetch(request: HttpRequest): HttpResponse;
  /** The requests go out concurrently; responses come back in request order. */
  fetchAll(requests: readonly HttpRequest[]): HttpResponse[];
}

export function lowerCaseHeaders(headers: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return result;
}
