/**
 * The HTTP server: /_admin/ goes to the admin API, everything else is the service API. An API request
 * passes the checks of the contract in its order (URL, HTTP verb, request object, token, budget,
 * parameters, content); a request whose token belongs to a dataset also gets that dataset's latency
 * and faults, and is written to its request log.
 */
import * as http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { handleAdminRequest } from './admin';
import { HTML_502_BODY, truncateBody, type FaultKind } from './faults';
import { API_METHODS, type SuccessEnvelope } from './methods';
import { answerWithQuirks, describedWithQuirks, handleQuirksRequest, quirkHeaders } from './quirks';
import {
  ApiError,
  apiMethodOfPath,
  checkToken,
  decodeRequestData,
  encodeEnvelope,
  errorEnvelope,
  withoutToken,
  type ApiMethodName,
  type DecodedRequest,
  type TokenKind,
} from './protocol';
import { randomAlphanumeric } from './random';
import { DatasetRegistry, type Dataset } from './store';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function createSampleServer(registry: DatasetRegistry = new DatasetRegistry()): http.Server {
  return http.createServer((request, response) => {
    serve(registry, request, response).catch((error: unknown) => {
      // Only a bug in the server itself gets here; answer it rather than leave the client hanging.
      console.error('sample service: unhandled error', error);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Internal error of the sample service');
    });
  });
}

async function serve(
  registry: DatasetRegistry,
  request: http.IncomingMessage,
  response: http.ServerResponse,
) {
  const body = await readBody(request);
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);
  const httpMethod = request.method ?? '';

  if (pathname === '/_admin' || pathname.startsWith('/_admin/')) {
    const answer =
      handleQuirksRequest(registry, httpMethod, pathname, body) ??
      handleAdminRequest(registry, httpMethod, pathname, body);
    // No keep-alive for admin calls: a test whose thread was blocked on synchronous HTTP for a while
    // would otherwise reuse a socket the server has meanwhile closed ("other side closed").
    const headers = { 'Content-Type': JSON_CONTENT_TYPE, Connection: 'close' };
    send(response, answer.status, headers, JSON.stringify(answer.body));
    return;
  }
  await serveApi(registry, response, {
    httpMethod,
    target,
    pathname,
    decoded: decodeRequestData({ httpMethod, rawQuery, body, contentType: request.headers['content-type'] }),
  });
}

type Envelope = SuccessEnvelope | ReturnType<typeof errorEnvelope>;

interface ApiRequest {
  httpMethod: string;
  /** The path and query as received. */
  target: string;
  pathname: string;
  decoded: DecodedRequest;
}

interface ApiAnswer {
  status: number;
  body: string;
  /** Set when the service itself answered (not an intermediary): JSON, with the SVC- headers. */
  fromService: boolean;
  error?: string;
  /** Where a redirect sends the client. */
  location?: string;
}

let requestsReceived = 0;

async function serveApi(registry: DatasetRegistry, response: http.ServerResponse, request: ApiRequest) {
  const startedAt = performance.now();
  const arrival = ++requestsReceived;
  const requestId = randomAlphanumeric(12) + arrival.toString(36);
  const apiMethod = apiMethodOfPath(request.pathname);
  const owner = registry.resolveToken(request.decoded.data?.['token']);
  const dataset = owner?.dataset;

  let fault: FaultKind | 'redirect' | undefined;
  let answer: ApiAnswer;
  dataset?.requestStarted();
  try {
    // A redirect is answered in front of the API: the request reaches neither the queue nor the API.
    const redirect = dataset?.faults.redirectOf(request.target);
    const queued = redirect ? undefined : dataset?.faults.takeQueuedFault(apiMethod);
    fault = redirect ? 'redirect' : queued;
    // Latency is awaited, never slept: concurrent requests must overlap, as on a real server.
    if (dataset && dataset.faults.latencyMs > 0) await delay(dataset.faults.latencyMs);
    if (redirect) {
      answer = { status: redirect.status, body: '', fromService: false, location: redirect.location };
    } else {
      answer = answerApi(request, apiMethod, owner, queued);
      if (dataset && apiMethod === 'completedtrainings.list')
        dataset.completionListRequestAnswered(pageRead(request, answer, queued));
    }
  } finally {
    dataset?.requestFinished();
  }

  if (dataset && request.decoded.data) {
    dataset.recordRequest(arrival, {
      method: apiMethod ?? request.pathname,
      httpMethod: request.httpMethod,
      params: withoutToken(request.decoded.data),
      ...(answer.error === undefined ? {} : { error: answer.error }),
      ...(fault === undefined ? {} : { fault }),
      requestId,
      status: answer.status,
    });
  }

  const headers: http.OutgoingHttpHeaders = answer.fromService
    ? {
        'Content-Type': JSON_CONTENT_TYPE,
        'SVC-Request-ID': requestId,
        'SVC-Response-Time': String(Math.round(performance.now() - startedAt)),
        ...quirkHeaders(dataset, answer.error),
      }
    : {
        'Content-Type': 'text/html',
        ...(answer.location === undefined ? {} : { Location: answer.location }),
      };
  send(response, answer.status, headers, answer.body);
}

/**
 * The page a completedtrainings.list request read: null when the client got no page (an error, or
 * an answer a fault broke on its way).
 */
function pageRead(request: ApiRequest, answer: ApiAnswer, fault: FaultKind | undefined): number | null {
  if (answer.status !== 200 || answer.error !== undefined || !answer.fromService) return null;
  if (fault === 'truncated' || fault === 'non_envelope') return null;
  const page = request.decoded.data?.['page'];
  return typeof page === 'number' ? page : 1;
}

/**
 * The response to an API request. Faults that stand for something in front of the API (a proxy
 * error, a rate limiter, a crash, a misbehaving intermediary) replace it; truncated and status500
 * damage the real response of a request the API did process.
 */
function answerApi(
  request: ApiRequest,
  apiMethod: ApiMethodName | undefined,
  owner: { dataset: Dataset; kind: TokenKind } | undefined,
  fault: FaultKind | undefined,
): ApiAnswer {
  const pretty = request.decoded.data?.['pretty'] === true;
  const described = (error: ApiError) =>
    describedWithQuirks(owner?.dataset, error, request.decoded.data?.['token']);
  switch (fault) {
    case 'html502':
      return { status: 502, body: HTML_502_BODY, fromService: false };
    case 'non_envelope':
      // A fault only ever comes from the dataset that owns the request's token.
      return { status: 200, body: owner!.dataset.faults.nextNonEnvelopeBody(), fromService: true };
    case 'rate_limit_exceeded':
      return envelopeAnswer(200, errorEnvelope(described(rateLimitError())), pretty);
  }
  let envelope: Envelope;
  try {
    if (fault === 'server_error') throw new Error('Injected fault: the handler crashed');
    envelope = processApiRequest(request, apiMethod, owner);
  } catch (error) {
    if (!(error instanceof ApiError) && fault !== 'server_error') {
      console.error('sample service: handler failed', error);
    }
    envelope = errorEnvelope(
      described(error instanceof ApiError ? error : new ApiError('server_error', 'Internal server error.')),
    );
  }
  const answer = envelopeAnswer(fault === 'status500' ? 500 : 200, envelope, pretty);
  return fault === 'truncated' ? { ...answer, body: truncateBody(answer.body) } : answer;
}

/** The contract's checks, in its order; throws the ApiError of the first one that fails. */
function processApiRequest(
  request: ApiRequest,
  apiMethod: ApiMethodName | undefined,
  owner: { dataset: Dataset; kind: TokenKind } | undefined,
): SuccessEnvelope {
  if (apiMethod === undefined) {
    throw new ApiError('api_method_not_found', `No API method at ${JSON.stringify(request.pathname)}.`);
  }
  if (request.httpMethod !== 'GET' && request.httpMethod !== 'POST') {
    throw new ApiError('request_method_invalid', `Use GET or POST, not ${request.httpMethod}.`);
  }
  const { data, problem } = request.decoded;
  if (problem !== undefined || data === undefined) {
    throw new ApiError('request_data_invalid', problem ?? 'The request has no request object.');
  }
  checkToken(data['token'], owner?.kind);
  // checkToken passed, so the token is the valid token of a dataset.
  const dataset = owner!.dataset;
  if (!dataset.faults.spendBudget()) throw rateLimitError();
  return answerWithQuirks(dataset, apiMethod, data, (methodQuirks) =>
    API_METHODS[apiMethod](dataset, data, methodQuirks),
  );
}

function rateLimitError(): ApiError {
  return new ApiError('rate_limit_exceeded', 'The token exceeded its request limit.');
}

function envelopeAnswer(status: number, envelope: Envelope, pretty: boolean): ApiAnswer {
  const body = encodeEnvelope(envelope, pretty);
  return envelope.ok
    ? { status, body, fromService: true }
    : { status, body, fromService: true, error: envelope.error };
}

function send(
  response: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: string,
) {
  response.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
