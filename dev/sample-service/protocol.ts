/**
 * The wire convention of the service (spec/service-api.md): which URLs name methods, how the request
 * object travels in a GET or a POST, how tokens and parameters are checked, and the response envelope.
 * Every rule here answers a client mistake with the error identifier the real service would send.
 */

export const API_METHOD_NAMES = ['completedtrainings.list', 'equipmenttypes.list', 'users.info'] as const;
export type ApiMethodName = (typeof API_METHOD_NAMES)[number];

export type ErrorIdentifier =
  | 'api_method_not_found'
  | 'request_method_invalid'
  | 'request_data_invalid'
  | 'rate_limit_exceeded'
  | 'token_missing'
  | 'token_invalid'
  | 'token_inactive'
  | 'token_permission'
  | 'account_inactive'
  | 'parameter_unexpected'
  | 'parameter_missing'
  | 'parameter_invalid'
  | 'server_error'
  | 'content_not_found';

/** A failure the API reports in its envelope (with HTTP 200), as opposed to a crash. */
export class ApiError extends Error {
  constructor(
    readonly identifier: ErrorIdentifier,
    readonly description: string,
  ) {
    super(`${identifier}: ${description}`);
  }
}

export type RequestData = Record<string, unknown>;

export function apiMethodOfPath(pathname: string): ApiMethodName | undefined {
  return API_METHOD_NAMES.find((name) => pathname === `/v1/${name}`);
}

export interface RawApiRequest {
  httpMethod: string;
  /** Everything after the first '?' of the request target, still URL-encoded. */
  rawQuery: string;
  body: string;
  contentType: string | undefined;
}

export interface DecodedRequest {
  /** The request object, when one could be parsed at all (even from a request that breaks the rules). */
  data: RequestData | undefined;
  /** Why the request carries no valid request object (request_data_invalid), if it does not. */
  problem: string | undefined;
}

/**
 * GET carries the URL-encoded JSON object as the whole query string; POST carries it as an
 * application/json body. For other verbs (rejected later) the object is still looked for, so that
 * the request can be attributed to its dataset in the request log.
 */
export function decodeRequestData(request: RawApiRequest): DecodedRequest {
  if (request.httpMethod === 'GET') return parseQueryObject(request.rawQuery);
  if (request.httpMethod === 'POST') {
    const decoded = parseJsonObject(request.body, 'The POST body');
    if (decoded.problem === undefined && !isJsonContentType(request.contentType)) {
      return { data: decoded.data, problem: 'A POST body must be sent with content-type application/json.' };
    }
    return decoded;
  }
  return request.body.length > 0
    ? parseJsonObject(request.body, 'The body')
    : parseQueryObject(request.rawQuery);
}

function parseQueryObject(rawQuery: string): DecodedRequest {
  if (rawQuery.length === 0) {
    return {
      data: undefined,
      problem: 'A GET request carries the request object as its whole query string.',
    };
  }
  let text: string;
  try {
    text = decodeURIComponent(rawQuery);
  } catch {
    return { data: undefined, problem: 'The query string is not validly URL-encoded.' };
  }
  return parseJsonObject(text, 'The query string');
}

function parseJsonObject(text: string, source: string): DecodedRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { data: undefined, problem: `${source} is not valid JSON.` };
  }
  if (!isPlainObject(value)) return { data: undefined, problem: `${source} is not a JSON object.` };
  return { data: value, problem: undefined };
}

function isPlainObject(value: unknown): value is RequestData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonContentType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** What a known token string stands for. Any other string is token_invalid. */
export type TokenKind = 'valid' | 'inactive' | 'accountInactive' | 'noPermission';

/** Throws the token error of the request, if any; `kind` is what the token is known as. */
export function checkToken(token: unknown, kind: TokenKind | undefined): void {
  if (token === undefined || token === null || token === '') {
    throw new ApiError('token_missing', 'The request object has no token.');
  }
  switch (kind) {
    case undefined:
      throw new ApiError('token_invalid', 'The token is not valid.');
    case 'inactive':
      throw new ApiError('token_inactive', 'The token has been deactivated.');
    case 'accountInactive':
      throw new ApiError('account_inactive', "The token's account is not active.");
    case 'noPermission':
      throw new ApiError('token_permission', 'The token lacks the required permission.');
    case 'valid':
      return;
  }
}

export interface CompletionListParameters {
  training_id: string | undefined;
  user_id: string | undefined;
  limit: number;
  page: number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export function parseCompletionListParameters(data: RequestData): CompletionListParameters {
  rejectUnexpected(data, ['token', 'pretty', 'training_id', 'user_id', 'limit', 'page']);
  checkPretty(data);
  return {
    training_id: optionalString(data, 'training_id'),
    user_id: optionalString(data, 'user_id'),
    limit: optionalInteger(data, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
    page: optionalInteger(data, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1,
  };
}

export function parseEquipmentTypeListParameters(data: RequestData): void {
  rejectUnexpected(data, ['token', 'pretty']);
  checkPretty(data);
}

/** The user to look up, as the string id it is matched against (a number by its decimal form). */
export function parseUserInfoParameters(data: RequestData): string {
  rejectUnexpected(data, ['token', 'pretty', 'user']);
  const user = data['user'];
  if (user === undefined) throw new ApiError('parameter_missing', 'The parameter "user" is required.');
  checkPretty(data);
  if (typeof user === 'string') return user;
  if (typeof user === 'number' && Number.isFinite(user)) return String(user);
  throw new ApiError('parameter_invalid', 'The parameter "user" must be a string or a number.');
}

function rejectUnexpected(data: RequestData, allowed: readonly string[]): void {
  const unexpected = Object.keys(data).find((name) => !allowed.includes(name));
  if (unexpected !== undefined) {
    throw new ApiError(
      'parameter_unexpected',
      `The parameter ${JSON.stringify(unexpected)} is not supported.`,
    );
  }
}

function checkPretty(data: RequestData): void {
  if (data['pretty'] !== undefined && typeof data['pretty'] !== 'boolean') {
    throw new ApiError('parameter_invalid', 'The parameter "pretty" must be a boolean.');
  }
}

function optionalString(data: RequestData, name: string): string | undefined {
  const value = data[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ApiError('parameter_invalid', `The parameter "${name}" must be a string.`);
}

function optionalInteger(data: RequestData, name: string, min: number, max: number): number | undefined {
  const value = data[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new ApiError('parameter_invalid', `The parameter "${name}" must be an integer ${range}.`);
  }
  return value;
}

export function errorEnvelope(error: ApiError): { ok: false; error: ErrorIdentifier; description: string } {
  return { ok: false, error: error.identifier, description: error.description };
}

/** A value already encoded as JSON (see Dataset.completionsPageJson). */
export class EncodedJson {
  constructor(readonly json: string) {}
}

const ENCODED_JSON_MARK = '\u0000encoded-json\u0000';

/** `pretty: true` asks for indented JSON; it applies to error responses too. */
export function encodeEnvelope(envelope: object, pretty: boolean): string {
  if (pretty) {
    const decoded = (_key: string, value: unknown) =>
      value instanceof EncodedJson ? (JSON.parse(value.json) as unknown) : value;
    return JSON.stringify(envelope, decoded, 2);
  }
  const encoded: EncodedJson[] = [];
  const json = JSON.stringify(envelope, (_key, value: unknown) => {
    if (!(value instanceof EncodedJson)) return value;
    encoded.push(value);
    return ENCODED_JSON_MARK;
  });
  const parts = json.split(JSON.stringify(ENCODED_JSON_MARK));
  return parts.reduce((joined, part, index) => `${joined}${encoded[index - 1]!.json}${part}`);
}

/** The request object as the request log keeps it: the token never leaves the request. */
export function withoutToken(data: RequestData): RequestData {
  const copy: RequestData = {};
  for (const [name, value] of Object.entries(data)) if (name !== 'token') copy[name] = value;
  return copy;
}
