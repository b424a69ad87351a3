/**
 * Every way a call to the service can fail, each with the sentence a spreadsheet user needs: what
 * happened and what to do next. Messages never contain the token or a request URL (a GET URL
 * carries the token), and carry the service's SVC-Request-ID when there is one.
 */

export const SERVICE_ERROR_IDS = [
  'api_method_not_found',
  'request_method_invalid',
  'request_data_invalid',
  'rate_limit_exceeded',
  'token_missing',
  'token_invalid',
  'token_inactive',
  'token_permission',
  'account_inactive',
  'parameter_unexpected',
  'parameter_missing',
  'parameter_invalid',
  'server_error',
  'content_not_found',
] as const;

export type ServiceErrorId = (typeof SERVICE_ERROR_IDS)[number];

const ADVICE: Record<ServiceErrorId, string> = {
  api_method_not_found:
    'The service does not know this method. Check the base URL in Safety Sync → Settings (it should end before /v1).',
  request_method_invalid: 'The service refused the HTTP method. Update Safety Sync, then try again.',
  request_data_invalid: 'The service could not read the request. Update Safety Sync, then try again.',
  rate_limit_exceeded:
    'The service is limiting requests for this token. Safety Sync retried; try again in a minute.',
  token_missing: 'No API token was sent. Paste your token in Safety Sync → Settings.',
  token_invalid: 'The service does not recognise the API token. Paste a new token in Safety Sync → Settings.',
  token_inactive:
    'The API token has been deactivated. Create a new token in the service and paste it in Safety Sync → Settings.',
  token_permission:
    'The API token lacks the permission this needs. Ask your administrator for a token with that permission.',
  account_inactive:
    'The service account behind this token is not active. Ask your administrator to reactivate it.',
  parameter_unexpected: 'The service does not accept a parameter that was sent. Update Safety Sync.',
  parameter_missing: 'A required parameter was not sent. Update Safety Sync.',
  parameter_invalid: 'The service refused a parameter value. Check the filter values you entered.',
  server_error: 'The service had an internal error. Safety Sync retried; try again later.',
  content_not_found: 'The service found nothing under that identifier. Check the id you entered.',
};

function isKnownId(id: string): id is ServiceErrorId {
  return (SERVICE_ERROR_IDS as readonly string[]).includes(id);
}

function withRequestId(sentence: string, requestId: string | undefined): string {
  return requestId ? `${sentence} (request ID ${requestId})` : sentence;
}

/** The service answered `ok: false`. */
export class ServiceError extends Error {
  readonly identifier: string;
  readonly description: string | undefined;
  readonly requestId: string | undefined;
  readonly apiMethod: string;

  constructor(
    apiMethod: string,
    identifier: string,
    description: string | undefined,
    requestId: string | undefined,
  ) {
    const advice = isKnownId(identifier)
      ? ADVICE[identifier]
      : 'The service reported an error Safety Sync does not know. Try again later, or contact its support.';
    const detail = description ? ` The service said: ${description}` : '';
    super(withRequestId(`${apiMethod}: ${identifier}. ${advice}${detail}`, requestId));
    this.name = 'ServiceError';
    this.identifier = identifier;
    this.description = description;
    this.requestId = requestId;
    this.apiMethod = apiMethod;
  }
}

export type TransportFailureKind =
  | 'unreachable' // no HTTP response at all
  | 'http_status' // an HTTP status other than 200 and a redirect's (API answers are always 200)
  | 'redirect' // a 3xx: following it would send the request, token included, where it points
  | 'not_json' // e.g. an intermediary's HTML error page, or a truncated body
  | 'not_envelope' // JSON, but not the service's { ok: … } envelope
  | 'unexpected_shape'; // ok: true, but without the fields the contract promises

const TRANSPORT_ADVICE: Record<TransportFailureKind, string> = {
  unreachable:
    'Could not reach the service. Check the base URL in Safety Sync → Settings and your network, then try again.',
  http_status:
    'The service (or a proxy in front of it) answered with an HTTP error. Safety Sync retried; try again in a few minutes.',
  redirect:
    'Check the service base URL in Safety Sync → Settings… (it may need https:// or a different host).',
  not_json:
    "The answer was not the service's JSON (often a proxy error page or a cut-off response). Safety Sync retried; try again in a few minutes.",
  not_envelope:
    "The answer was JSON but not from this service's API. Check the base URL in Safety Sync → Settings.",
  unexpected_shape:
    "The service's answer lacks fields Safety Sync needs. The service may have changed; contact Safety Sync support.",
};

/** No usable answer from the service: the network, a proxy, or a body that is not the API's. */
export class TransportError extends Error {
  readonly kind: TransportFailureKind;
  readonly apiMethod: string;
  readonly requestId: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(
    apiMethod: string,
    kind: TransportFailureKind,
    detail: string,
    requestId?: string,
    httpStatus?: number,
  ) {
    super(withRequestId(`${apiMethod}: ${detail}. ${TRANSPORT_ADVICE[kind]}`, requestId));
    this.name = 'TransportError';
    this.kind = kind;
    this.apiMethod = apiMethod;
    this.requestId = requestId;
    this.httpStatus = httpStatus;
  }
}

/** The host (and port) an absolute or scheme-relative URL names, without any user name or password. */
const URL_HOST = /^(?:[a-z][a-z0-9+.-]*:)?\/\/(?:[^@/?#\\]*@)?([^/?#\\]*)/i;

/** Where a Location header points, in words that quote nothing of it but its host. */
function redirectTarget(location: string | undefined): string {
  if (!location) return 'a redirect without a Location';
  // The host's group takes part in every match (empty at the least).
  const host = URL_HOST.exec(location.trim())?.[1]!.toLowerCase();
  if (host === undefined) return 'a redirect to another address of the service';
  return /^[a-z0-9.:[\]-]{1,255}$/.test(host)
    ? `a redirect to ${host}`
    : 'a redirect to an address Safety Sync cannot read';
}

/**
 * What a TransportError of kind 'redirect' says: the status and the host the Location header
 * points to, nothing more of it (its path and query may carry anything, a token included).
 */
export function describeRedirect(status: number, location: string | undefined): string {
  return `the service answered ${status} (${redirectTarget(location)}), which Safety Sync does not follow: the request carries your token`;
}

/** A value rejected before anything was sent. */
export class InvalidParameterError extends Error {
  readonly parameter: string;

  constructor(parameter: string, problem: string) {
    super(`${parameter} ${problem}. Nothing was sent to the service.`);
    this.name = 'InvalidParameterError';
    this.parameter = parameter;
  }
}

/**
 * Apps Script's refusal of a burst of fetches ("Service invoked too many times in a short time:
 * urlfetch. Try Utilities.sleep(1000) between calls."; community report: Blacksmoke16/GESI issue
 * #99, all pages in one fetchAll). Not the daily quota, which says "for one day".
 */
const URL_FETCH_BURST = /invoked too many times in a short time: urlfetch/i;

/**
 * Whether a request was refused for coming with too many others: the service's rate_limit_exceeded,
 * an HTTP 429 on the way, or Apps Script's refusal of a burst of fetches.
 */
export function isRateLimit(error: unknown): boolean {
  if (error instanceof ServiceError) return error.identifier === 'rate_limit_exceeded';
  if (!(error instanceof TransportError)) return false;
  if (error.kind === 'http_status') return error.httpStatus === 429;
  return error.kind === 'unreachable' && URL_FETCH_BURST.test(error.message);
}

/** Whether trying the same request again later may succeed. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof TransportError)
    return error.kind === 'unreachable' || error.kind === 'http_status' || error.kind === 'not_json';
  if (error instanceof ServiceError) {
    return error.identifier === 'rate_limit_exceeded' || error.identifier === 'server_error';
  }
  return false;
}

/** Removes every occurrence of a secret from text that may reach a user, a cell or a log. */
export function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/**
 * Text fit for a user, a cell or a log: the secret removed, every URL cut to its origin (a GET URL
 * carries the token in its query), and without the platform's "Exception:" prefix.
 */
export function scrub(text: string, secret: string): string {
  return redact(text, secret)
    .replace(/(https?:\/\/[^/\s?#]+)[^\s]*/gi, '$1')
    .replace(/^(Exception|Error):\s*/, '');
}
