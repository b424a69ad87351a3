/**
 * The service client: sends calls (one, or many at once through the transport's fetchAll), decodes
 * them, and retries what may succeed later (rate limits, server errors, transport failures) with
 * exponential backoff and jitter, or after the wait a `Retry-After` header asks for. A retry that
 * would not end within the time the caller has left is not made: the failure is returned instead.
 * It counts every HTTP request, the cost that matters on Google's side (each one counts against
 * the daily UrlFetch quota).
 *
 * Large fetchAlls are cheap on Google (one costs its overhead once and its requests side by side),
 * but a service may limit how many requests of a token it takes at once, and Apps Script refuses a
 * burst of fetches it finds too large: after a fetchAll that met either, the client sends at most
 * half as many requests in one fetchAll from then on, the retries included.
 */
import type * as z from 'zod/mini';
import { appendAll } from '../lib/arrays';
import {
  InvalidParameterError,
  isRateLimit,
  isRetryable,
  scrub,
  ServiceError,
  TransportError,
} from './errors';
import { decodeResponse, encodeRequest, type HttpMethod, type RequestOptions } from './protocol';
import { type HttpResponse, RequestNotAllowedError, type Transport } from './transport';

export interface ClientOptions {
  baseUrl: string;
  token: string;
  transport: Transport;
  /** Blocks for the given milliseconds (Utilities.sleep in Apps Script). */
  sleep: (ms: number) => void;
  /** In [0, 1); the jitter of the backoff. */
  random?: () => number;
  /** Tries per call, the first included. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  httpMethod?: HttpMethod;
  pretty?: boolean;
  /** Milliseconds the caller has left (its execution's budget); without it, retries are not timed. */
  timeLeftMs?: () => number;
}

export interface ServiceCall {
  apiMethod: string;
  params: Record<string, unknown>;
}

export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError | TransportError };

export interface RequestStats {
  requests: number;
  retries: number;
  byMethod: Record<string, number>;
}

const MAX_BACKOFF_MS = 16_000;

/** The wait a `Retry-After` header asks for, in milliseconds (seconds in the header); 0 without one. */
function retryAfterOf(response: HttpResponse): number {
  const seconds = Number(response.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * The platform's message says what went wrong ("DNS error", "Address unavailable", a timeout) but
 * may quote the URL, which for GET carries the token: keep the words, reduce URLs to their origin.
 */
export function describeNetworkFailure(error: unknown, token: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return scrub(message, token).slice(0, 200) || 'no answer arrived';
}

export class ServiceClient {
  readonly stats: RequestStats = { requests: 0, retries: 0, byMethod: {} };
  private readonly request: RequestOptions;
  /** The most requests one fetchAll sends: no limit until a refusal halves what was sent. */
  private atOnce = Number.POSITIVE_INFINITY;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;

  constructor(private readonly options: ClientOptions) {
    if (!/^https?:\/\/[^/\s]+/i.test(options.baseUrl)) {
      throw new InvalidParameterError(
        'The base URL',
        'must start with https:// followed by the service host',
      );
    }
    if (!options.token) throw new InvalidParameterError('The API token', 'is empty');
    this.request = {
      baseUrl: options.baseUrl,
      token: options.token,
      httpMethod: options.httpMethod ?? 'post',
      pretty: options.pretty ?? false,
    };
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.backoffBaseMs = options.backoffBaseMs ?? 1000;
  }

  /** The service's address (which the users' names cache is kept for); never the token. */
  get baseUrl(): string {
    return this.request.baseUrl;
  }

  /** One call; throws the final error once retries are exhausted or the error is not retryable. */
  call<T>(apiMethod: string, params: Record<string, unknown>, schema: z.ZodMiniType<T>): T {
    const [outcome] = this.callAll([{ apiMethod, params }], schema);
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.value;
  }

  /**
   * Many calls at once, in order. Each round sends every call still pending (in one fetchAll, or
   * several one after the other once a refusal limited how many go at once); calls that failed in a
   * retryable way go out again after a backoff, the others keep their outcome.
   */
  callAll<T>(calls: readonly ServiceCall[], schema: z.ZodMiniType<T>): CallOutcome<T>[] {
    return this.callEach(calls.map((call) => ({ ...call, schema })));
  }

  /** As callAll, each call decoded with its own schema: calls of several methods in one round. */
  callEach<T>(calls: readonly (ServiceCall & { schema: z.ZodMiniType<T> })[]): CallOutcome<T>[] {
    const outcomes: CallOutcome<T>[] = new Array(calls.length);
    let pending = calls.map((_, index) => index);
    /** The longest one fetch or fetchAll of these calls took. */
    let longestSendMs = 0;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const responses = this.send(
        pending.map((index) => calls[index]!),
        (ms) => (longestSendMs = Math.max(longestSendMs, ms)),
      );
      const retry: number[] = [];
      let retryAfterMs = 0;
      let refused = false;
      pending.forEach((index, position) => {
        const call = calls[index]!;
        const response = responses[position] ?? { failure: 'no answer arrived' };
        // Each answer's text is let go once decoded: a round of a hundred pages holds megabytes.
        responses[position] = undefined;
        try {
          if ('failure' in response)
            throw new TransportError(call.apiMethod, 'unreachable', response.failure);
          outcomes[index] = {
            ok: true,
            value: decodeResponse(call.apiMethod, response, call.schema, this.request.token),
          };
        } catch (error) {
          if (!(error instanceof ServiceError || error instanceof TransportError)) throw error;
          outcomes[index] = { ok: false, error };
          if (isRateLimit(error)) refused = true;
          if (isRetryable(error) && attempt < this.maxAttempts) {
            retry.push(index);
            if (!('failure' in response)) retryAfterMs = Math.max(retryAfterMs, retryAfterOf(response));
          }
        }
      });
      // A refused fetchAll sent too many at once; a refused lone request says nothing of how many.
      const sentAtOnce = Math.min(this.atOnce, pending.length);
      if (refused && sentAtOnce > 1) this.atOnce = Math.floor(sentAtOnce / 2);
      if (retry.length === 0) break;
      const waitMs = Math.max(this.backoffMs(attempt), retryAfterMs);
      // The retry takes the wait and, for each fetchAll it needs, about as long as the longest so far.
      const retryMs = waitMs + Math.ceil(retry.length / this.atOnce) * longestSendMs;
      if (this.options.timeLeftMs && retryMs > this.options.timeLeftMs()) break;
      this.stats.retries += retry.length;
      this.options.sleep(waitMs);
      pending = retry;
    }
    return outcomes;
  }

  /**
   * Sends `calls` in fetchAlls of at most `atOnce` requests, one after the other, telling `took`
   * how long each took. Once a refusal has made them several, one that would not end within the
   * time the caller has left (as long as the longest before it) is not sent: its calls fail, as a
   * retry that cannot fit does, and the caller stops in time.
   */
  private send(
    calls: readonly ServiceCall[],
    took: (ms: number) => void,
  ): (HttpResponse | { failure: string } | undefined)[] {
    const responses: (HttpResponse | { failure: string })[] = [];
    let longestMs = 0;
    for (let start = 0; start < calls.length; start += this.atOnce) {
      if (start > 0 && this.options.timeLeftMs && longestMs > this.options.timeLeftMs()) {
        const failure = `not sent: too little of the run's time was left once the service took only ${this.atOnce} requests at once`;
        while (responses.length < calls.length) responses.push({ failure });
        break;
      }
      const sentAtMs = Date.now();
      appendAll(responses, this.sendAtOnce(calls.slice(start, start + this.atOnce)));
      const ms = Date.now() - sentAtMs;
      longestMs = Math.max(longestMs, ms);
      took(ms);
    }
    return responses;
  }

  private sendAtOnce(calls: readonly ServiceCall[]): (HttpResponse | { failure: string })[] {
    const requests = calls.map((call) => encodeRequest(call.apiMethod, call.params, this.request));
    this.stats.requests += requests.length;
    for (const call of calls)
      this.stats.byMethod[call.apiMethod] = (this.stats.byMethod[call.apiMethod] ?? 0) + 1;
    try {
      return requests.length === 1
        ? [this.options.transport.fetch(requests[0]!)]
        : this.options.transport.fetchAll(requests);
    } catch (error) {
      if (error instanceof RequestNotAllowedError) throw error;
      const failure = describeNetworkFailure(error, this.request.token);
      return requests.map(() => ({ failure }));
    }
  }

  /** Exponential, capped, with "equal jitter": half fixed, half random, so retries spread out. */
  private backoffMs(retry: number): number {
    const ceiling = Math.min(MAX_BACKOFF_MS, this.backoffBaseMs * 2 ** (retry - 1));
    const random = this.options.random ?? Math.random;
    return Math.round(ceiling / 2 + (ceiling / 2) * random());
  }
}
