/**
 * UrlFetchApp over real HTTP: the script blocks while dev/http's worker performs the requests
 * (fetchAll really runs them concurrently). Google's limits and messages apply: URL length, payload
 * size, the daily quota (every request of a fetchAll counts; per user, renewed 24 hours after the
 * first request: runtime/daily-quota.ts), status >= 400 throws unless muted, a
 * network failure throws even when muted. Real UrlFetchApp cannot reach loopback or private
 * addresses ("Address unavailable"); this one can, because the sample service runs on 127.0.0.1.
 * Each round (a fetch, or a whole fetchAll) costs the emulated clock what Google's round trip and
 * batch overhead would (runtime/cost-model.ts) on top of the service's own time.
 *
 * Redirects (followRedirects, true unless set false) are followed up to 10 hops, each hop checked
 * against the urlFetchWhitelist and sent, and recorded, as a request of its own to the Location's
 * host. 301, 302 and 303 are followed with a GET without the payload, as Google's 302 is seen to be
 * (a POST to a web app's /exec is answered 302, and UrlFetchApp reads the Location with a GET; 301
 * and 303 taken alike). For 307 and 308 Google documents nothing about the payload: the emulator
 * takes the stricter reading and sends the method, headers and payload again to the Location, so a
 * test sees everything a followed redirect could carry to another host. With followRedirects false
 * the 3xx answer comes back as it is.
 */
import {
  isFailure,
  requestAllSync,
  startSyncHttpWorker,
  type SyncHttpResponse,
  type SyncHttpResult,
} from '../../http/sync-http';
import { AppsScriptException } from '../core';
import { FETCH_ALL_CONCURRENT_REQUESTS, fetchAllWaves } from './cost-model';
import { DailyQuota } from './daily-quota';
import type { ServiceEnvironment } from './service-object';
import { expose, isPlainRecord, requireAuthMode, signatureMismatch, toSignedBytes } from './service-object';

export const URL_LENGTH_LIMIT = 2048;
export const PAYLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 10;
const TRUNCATED_RESPONSE_CHARS = 100;
const EXTERNAL_REQUEST_SCOPE = 'https://www.googleapis.com/auth/script.external_request';
const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: emulator)';
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
/**
 * validateHttpsCertificates is accepted but certificates are always checked (stricter); escaping is
 * accepted and Node's URL parser escapes what a URL may not contain, as Google's default does.
 */
const BOOLEAN_OPTIONS = ['muteHttpExceptions', 'followRedirects', 'validateHttpsCertificates', 'escaping'];
/**
 * Google ignores options it does not know; a misspelt option (mutHttpExceptions) then silently
 * changes behaviour. This emulator is stricter: anything else throws.
 */
const KNOWN_OPTIONS = new Set(['method', 'contentType', 'payload', 'headers', ...BOOLEAN_OPTIONS]);
/** Headers Google sets itself and refuses from the script. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | undefined;
  /** The user whose quota paid for it. */
  user: string;
  executionId: number;
  /** Emulated epoch ms when it was sent. */
  atMs: number;
  /**
   * Emulated epoch ms when its answer (or its network failure) came back, Google's round trip (the
   * cost model's and any urlFetchRoundTripMs) included; for a fetchAll, when the slowest of its
   * requests did, as the script waits for all of them. Unset while it is in flight.
   */
  answeredAtMs?: number;
  /**
   * The same two moments on this machine's monotonic clock (performance.now()), without anything
   * emulated: what the bench's wall-clock figures measure.
   */
  sentAtRealMs: number;
  answeredAtRealMs?: number;
}

interface PreparedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload: string | undefined;
  muteHttpExceptions: boolean;
  followRedirects: boolean;
}

/** The log of every request sent (redirects included) and each user's daily quota. */
export class UrlFetchRecorder {
  readonly requests: RecordedRequest[] = [];
  private readonly quota: DailyQuota;

  /**
   * @param roundTripMs How long the service takes to answer, in emulated time: a fetch takes it
   *   once, a fetchAll once a wave (FETCH_ALL_CONCURRENT_REQUESTS at a time). The clock is virtual:
   *   the real time our loopback service took is never charged, so a run pauses at the same round
   *   on any machine. How tests model a slow service and reach execution limits without waiting
   *   for them; a test may change it between runs (a network that turns slow for one operation).
   */
  constructor(
    dailyQuota: number,
    public roundTripMs = 0,
  ) {
    this.quota = new DailyQuota(dailyQuota);
  }

  /**
   * What happens elsewhere while the script waits on the network, called once a round trip is
   * answered: where a test lets a user edit the spreadsheet during a run, as people do on Google.
   */
  whileWaiting: ((requests: readonly RecordedRequest[]) => void) | null = null;

  /** Requests the user has sent in their quota's window open at `nowMs`: 24 hours from their first. */
  usedToday(user: string, nowMs: number): number {
    return this.quota.used(user, nowMs);
  }

  consume(user: string, count: number, nowMs: number): void {
    if (count > this.quota.remaining(user, nowMs)) {
      throw new AppsScriptException('Service invoked too many times for one day: urlfetch.');
    }
    this.quota.spend(user, count, nowMs);
  }
}

function formEncode(fields: Record<string, unknown>): string {
  // Java's URLEncoder: spaces become '+'.
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  return Object.entries(fields)
    .map(([key, value]) => `${encode(key)}=${encode(String(value))}`)
    .join('&');
}

function prepare(url: unknown, params: unknown, method: string, args: unknown[]): PreparedRequest {
  if (typeof url !== 'string') throw signatureMismatch(method, args);
  if (params === undefined) params = {};
  if (!isPlainRecord(params)) throw signatureMismatch(method, args);
  for (const key of Object.keys(params)) {
    if (!KNOWN_OPTIONS.has(key))
      throw new AppsScriptException(`Invalid argument: unknown UrlFetchApp option ${key}`);
  }
  for (const key of BOOLEAN_OPTIONS) {
    if (params[key] !== undefined && typeof params[key] !== 'boolean') {
      throw new AppsScriptException(`Invalid argument: ${key}`);
    }
  }
  const httpMethod = params.method === undefined ? 'get' : String(params.method).toLowerCase();
  if (!METHODS.includes(httpMethod)) throw new AppsScriptException(`Invalid argument: method`);

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppsScriptException(`Invalid argument: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new AppsScriptException(`Invalid argument: ${url}`);
  if (url.length > URL_LENGTH_LIMIT || parsed.href.length > URL_LENGTH_LIMIT) {
    throw new AppsScriptException('Limit exceeded: URLFetch URL Length.');
  }

  const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
  if (params.headers !== undefined) {
    if (!isPlainRecord(params.headers)) throw new AppsScriptException('Invalid argument: headers');
    for (const [name, value] of Object.entries(params.headers)) {
      if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
        throw new AppsScriptException(`Attribute provided with invalid value: Header:${name}`);
      }
      headers[name] = String(value);
    }
  }

  let payload: string | undefined;
  if (params.payload !== undefined) {
    if (httpMethod === 'get')
      throw new AppsScriptException('not emulated: UrlFetchApp payload on a GET request');
    if (typeof params.payload === 'string') payload = params.payload;
    else if (Array.isArray(params.payload))
      throw new AppsScriptException('not emulated: UrlFetchApp byte[] payload');
    else if (isPlainRecord(params.payload)) payload = formEncode(params.payload);
    else throw signatureMismatch(method, args);
    if (Buffer.byteLength(payload, 'utf8') > PAYLOAD_LIMIT_BYTES) {
      throw new AppsScriptException('Limit Exceeded: URLFetch POST Size.');
    }
  }
  const contentTypeHeaders = Object.keys(headers).filter((name) => name.toLowerCase() === 'content-type');
  if (params.contentType !== undefined) {
    if (typeof params.contentType !== 'string')
      throw new AppsScriptException('Invalid argument: contentType');
    // The option wins over a Content-Type header, whatever its spelling.
    for (const name of contentTypeHeaders) delete headers[name];
    headers['Content-Type'] = params.contentType;
  } else if (payload !== undefined && contentTypeHeaders.length === 0) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }

  return {
    url: parsed.href,
    method: httpMethod,
    headers,
    payload,
    muteHttpExceptions: params.muteHttpExceptions === true,
    followRedirects: params.followRedirects !== false,
  };
}

function headerValues(response: SyncHttpResponse): Array<[string, string[]]> {
  return Object.entries(response.headers).map(([name, value]) => [
    name,
    Array.isArray(value) ? value : [value],
  ]);
}

class HttpResponse {
  readonly #response: SyncHttpResponse;
  readonly #env: ServiceEnvironment;

  constructor(response: SyncHttpResponse, env: ServiceEnvironment) {
    this.#response = response;
    this.#env = env;
  }

  getResponseCode(): number {
    return this.#response.status;
  }

  getContentText(charset?: unknown): string {
    // The HTTP worker hands over text already decoded as UTF-8; other charsets cannot be honoured.
    if (charset !== undefined && !/^utf-?8$/i.test(String(charset))) {
      throw new AppsScriptException(`not emulated: HTTPResponse.getContentText charset ${String(charset)}`);
    }
    return this.#response.body;
  }

  getContent(): number[] {
    return this.#env.realm.toScript(toSignedBytes(Buffer.from(this.#response.body, 'utf8')));
  }

  /**
   * Header names arrive in lower case (Node's HTTP client, and HTTP/2 everywhere), so code must not
   * depend on the server's spelling.
   */
  getHeaders(): Record<string, string> {
    const headers = Object.fromEntries(
      headerValues(this.#response).map(([name, values]) => [name, values[0]!]),
    );
    return this.#env.realm.toScript(headers);
  }

  getAllHeaders(): Record<string, string | string[]> {
    const headers = Object.fromEntries(
      headerValues(this.#response).map(([name, values]) => [name, values.length > 1 ? values : values[0]!]),
    );
    return this.#env.realm.toScript(headers);
  }
}

/** KB of body a request sent and got back (a network failure brought none back). */
function bodyKb(payload: string | undefined, answer: SyncHttpResult): number {
  const answered = isFailure(answer) ? 0 : Buffer.byteLength(answer.body, 'utf8');
  return (Buffer.byteLength(payload ?? '', 'utf8') + answered) / 1024;
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * @param allowUrl Throws for a URL the manifest's urlFetchWhitelist does not allow (manifest.ts):
 *   checked before anything is sent, and for every redirect before it is followed.
 */
export function createUrlFetchApp(
  env: ServiceEnvironment,
  recorder: UrlFetchRecorder,
  allowUrl: (url: string) => void = () => {},
): GoogleAppsScript.URL_Fetch.UrlFetchApp {
  startSyncHttpWorker();
  const authorize = (method: string) =>
    requireAuthMode(env, method, ['FULL', 'CUSTOM_FUNCTION'], EXTERNAL_REQUEST_SCOPE);

  function send(
    requests: PreparedRequest[],
    batched: boolean,
    user: string,
    executionId: number,
  ): SyncHttpResponse[] {
    const results: SyncHttpResponse[] = new Array(requests.length);
    let pending = requests.map((request, index) => ({ index, request, hops: 0 }));
    while (pending.length > 0) {
      const sent: RecordedRequest[] = pending.map(({ request }) => ({
        method: request.method.toUpperCase(),
        url: request.url,
        headers: { ...request.headers },
        payload: request.payload,
        user,
        executionId,
        atMs: env.clock.now(),
        sentAtRealMs: performance.now(),
      }));
      recorder.requests.push(...sent);
      // Google runs a fetchAll's requests a few at a time (cost-model.ts): so does the emulator.
      const answers: SyncHttpResult[] = [];
      for (let start = 0; start < pending.length; start += FETCH_ALL_CONCURRENT_REQUESTS) {
        const wave = pending.slice(start, start + FETCH_ALL_CONCURRENT_REQUESTS);
        answers.push(
          ...requestAllSync(
            wave.map(({ request }) => ({
              url: request.url,
              method: request.method.toUpperCase(),
              headers: request.headers,
              body: request.payload,
            })),
          ),
        );
      }
      const answeredAtRealMs = performance.now();
      const serviceMs = fetchAllWaves(pending.length) * recorder.roundTripMs;
      env.costs.fetchRound({
        batched,
        requests: pending.length,
        serviceMs,
        largestKb: Math.max(
          ...pending.map(({ request }, position) => bodyKb(request.payload, answers[position]!)),
        ),
      });
      env.clock.advance(serviceMs);
      const answeredAtMs = env.clock.now();
      for (const record of sent) Object.assign(record, { answeredAtMs, answeredAtRealMs });
      recorder.whileWaiting?.(sent);
      const redirected: typeof pending = [];
      answers.forEach((answer, position) => {
        const { index, request, hops } = pending[position]!;
        if (isFailure(answer)) throw new AppsScriptException(answer.error);
        const location = answer.headers.location;
        if (
          request.followRedirects &&
          REDIRECT_STATUSES.has(answer.status) &&
          typeof location === 'string' &&
          hops < MAX_REDIRECTS
        ) {
          const keepsMethod = answer.status === 307 || answer.status === 308;
          const target = new URL(location, request.url).href;
          allowUrl(target);
          redirected.push({
            index,
            hops: hops + 1,
            request: {
              ...request,
              url: target,
              method: keepsMethod ? request.method : 'get',
              payload: keepsMethod ? request.payload : undefined,
            },
          });
        } else {
          results[index] = answer;
        }
      });
      pending = redirected;
    }
    return results;
  }

  function fetchPrepared(requests: PreparedRequest[], batched: boolean): unknown[] {
    const execution = env.executions.requireCurrent();
    for (const request of requests) allowUrl(request.url);
    recorder.consume(execution.user, requests.length, env.clock.now());
    const responses = send(requests, batched, execution.user, execution.id);
    return responses.map((response, index) => {
      const request = requests[index]!;
      if (response.status >= 400 && !request.muteHttpExceptions) {
        const body = response.body;
        const truncated =
          body.length > TRUNCATED_RESPONSE_CHARS ? `${body.slice(0, TRUNCATED_RESPONSE_CHARS)}...` : body;
        throw new AppsScriptException(
          `Request failed for ${withoutQuery(request.url)} returned code ${response.status}. ` +
            `Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
        );
      }
      return expose('HTTPResponse', new HttpResponse(response, env), env);
    });
  }

  const urlFetchApp = {
    fetch(url: unknown, params?: unknown) {
      authorize('UrlFetchApp.fetch');
      return fetchPrepared([prepare(url, params, 'UrlFetchApp.fetch', [url, params])], false)[0];
    },
    fetchAll(requests: unknown) {
      authorize('UrlFetchApp.fetchAll');
      if (!Array.isArray(requests)) throw signatureMismatch('UrlFetchApp.fetchAll', [requests]);
      const prepared = requests.map((request: unknown) => {
        if (typeof request === 'string')
          return prepare(request, undefined, 'UrlFetchApp.fetchAll', [requests]);
        if (!isPlainRecord(request)) throw signatureMismatch('UrlFetchApp.fetchAll', [requests]);
        const { url, ...params } = request;
        return prepare(url, params, 'UrlFetchApp.fetchAll', [requests]);
      });
      return env.realm.toScript(fetchPrepared(prepared, true));
    },
    getRequest(url: unknown, params?: unknown) {
      authorize('UrlFetchApp.getRequest');
      const request = prepare(url, params, 'UrlFetchApp.getRequest', [url, params]);
      return env.realm.toScript({
        url: request.url,
        method: request.method,
        headers: request.headers,
        payload: request.payload ?? '',
        contentType: request.headers['Content-Type'] ?? null,
        muteHttpExceptions: request.muteHttpExceptions,
        followRedirects: request.followRedirects,
      });
    },
  };
  return expose('UrlFetchApp', urlFetchApp, env) as unknown as GoogleAppsScript.URL_Fetch.UrlFetchApp;
}
