/**
 * The service's request convention and response envelope: `{base}/v1/METHOD`, the request object as
 * a JSON POST body (default) or URL-encoded as the whole GET query string, the token inside it; and
 * an answer that is only trusted once it is a 200 carrying the `{ ok: … }` JSON envelope. A redirect
 * is an error, never followed (the transport does not follow it either): the request carries the token.
 */
import type * as z from 'zod/mini';
import { describeRedirect, redact, ServiceError, TransportError } from './errors';
import { envelopeSchema } from './schemas';
import type { HttpRequest, HttpResponse } from './transport';

export type HttpMethod = 'post' | 'get';

export interface RequestOptions {
  baseUrl: string;
  token: string;
  httpMethod: HttpMethod;
  pretty: boolean;
}

export function methodUrl(baseUrl: string, apiMethod: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/${apiMethod}`;
}

export function encodeRequest(
  apiMethod: string,
  params: Record<string, unknown>,
  options: RequestOptions,
): HttpRequest {
  const data: Record<string, unknown> = { token: options.token, ...params };
  if (options.pretty) data.pretty = true;
  const json = JSON.stringify(data);
  const url = methodUrl(options.baseUrl, apiMethod);
  if (options.httpMethod === 'get') return { url: `${url}?${encodeURIComponent(json)}`, method: 'get' };
  return { url, method: 'post', contentType: 'application/json', payload: json };
}

export const REQUEST_ID_HEADER = 'svc-request-id';

/** Decodes one answer; throws ServiceError or TransportError, with the token scrubbed from any text. */
export function decodeResponse<T>(
  apiMethod: string,
  response: HttpResponse,
  schema: z.ZodMiniType<T>,
  token: string,
): T {
  const requestId = response.headers[REQUEST_ID_HEADER] || undefined;
  if (response.status >= 300 && response.status < 400) {
    const detail = describeRedirect(response.status, response.headers['location']);
    throw new TransportError(apiMethod, 'redirect', detail, requestId, response.status);
  }
  if (response.status !== 200) {
    throw new TransportError(
      apiMethod,
      'http_status',
      `HTTP status ${response.status}`,
      requestId,
      response.status,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    const type = response.headers['content-type'] || 'no content type';
    throw new TransportError(
      apiMethod,
      'not_json',
      `the answer was not JSON (${type}, ${response.body.length} bytes)`,
      requestId,
    );
  }
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TransportError(apiMethod, 'not_envelope', 'the answer had no "ok" field', requestId);
  }
  if (!envelope.data.ok) {
    const description = envelope.data.description && redact(envelope.data.description, token);
    throw new ServiceError(apiMethod, envelope.data.error || 'unknown_error', description, requestId);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new TransportError(
      apiMethod,
      'unexpected_shape',
      'the answer lacked the expected fields',
      requestId,
    );
  }
  return parsed.data;
}
