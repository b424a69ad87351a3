/** The wire convention of the sample service: URLs, verbs, encodings, tokens, parameters, envelope, headers. */
import {
  SampleDataset,
  callApi,
  callApiJson,
  sampleServiceUrl,
  type DatasetData,
} from '../support/sample-service';

const METHODS = ['completedtrainings.list', 'equipmenttypes.list', 'users.info'] as const;

let dataset: SampleDataset;
let data: DatasetData;
let token: string;

beforeAll(async () => {
  dataset = await SampleDataset.create({ users: 12, completions: 40, equipmentTypes: 3 });
  data = await dataset.data();
  token = dataset.tokens.valid;
});

afterAll(() => dataset.delete());

/** A request the typed helpers cannot express: any verb, path, query and body. */
async function send(path: string, init: RequestInit = {}) {
  const response = await fetch(sampleServiceUrl() + path, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: JSON.parse(text) as Record<string, unknown>,
  };
}

function postJson(path: string, body: string, contentType = 'application/json') {
  return send(path, { method: 'POST', headers: { 'Content-Type': contentType }, body });
}

/** A request object for a method that would succeed with the valid token. */
function validRequest(method: (typeof METHODS)[number]): Record<string, unknown> {
  return method === 'users.info' ? { token, user: data.users[0]!.id } : { token };
}

describe('URL and HTTP verb', () => {
  test.each(['/v1/nosuch.method', '/v2/users.info', '/', '/v1/users.info/', '/v1/USERS.INFO', '/users.info'])(
    '%s answers api_method_not_found with HTTP 200',
    async (path) => {
      const response = await postJson(path, JSON.stringify({ token }));
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ ok: false, error: 'api_method_not_found' });
    },
  );

  test.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s answers request_method_invalid', async (verb) => {
    const response = await send('/v1/equipmenttypes.list', {
      method: verb,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: false, error: 'request_method_invalid' });
  });

  test('the URL is checked before the verb', async () => {
    const response = await send('/v1/nosuch.method', { method: 'DELETE' });
    expect(response.json).toMatchObject({ ok: false, error: 'api_method_not_found' });
  });

  test('the verb is checked before the request data', async () => {
    const response = await send('/v1/users.info', { method: 'PUT', body: 'not json' });
    expect(response.json).toMatchObject({ ok: false, error: 'request_method_invalid' });
  });
});

describe('request data', () => {
  test('GET and POST carry the same request object to the same answer', async () => {
    const request = { token, user: data.users[3]!.id };
    const viaGet = await callApi('users.info', request, 'GET');
    const viaPost = await callApi('users.info', request, 'POST');
    expect(JSON.parse(viaGet.text)).toEqual({ ok: true, user: data.users[3] });
    expect(viaPost.text).toBe(viaGet.text);
  });

  test('GET reads the whole query string as the URL-encoded JSON object', async () => {
    const query = encodeURIComponent(JSON.stringify({ token, limit: 2 }));
    const response = await send(`/v1/completedtrainings.list?${query}`);
    expect(response.json).toMatchObject({ ok: true, paging: { limit: 2 } });
  });

  test.each([
    ['no query string', ''],
    ['a query that is not JSON', '?token=abc'],
    ['a JSON array', `?${encodeURIComponent('[1]')}`],
    ['a JSON string', `?${encodeURIComponent('"text"')}`],
    ['JSON null', '?null'],
    ['broken URL encoding', '?%7B%22token%22%3A%E0%A4%A'],
  ])('GET with %s answers request_data_invalid', async (_, query) => {
    const response = await send(`/v1/equipmenttypes.list${query}`);
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: false, error: 'request_data_invalid' });
  });

  test.each([
    ['an empty body', ''],
    ['a body that is not JSON', '{token:'],
    ['a JSON array', '[]'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
  ])('POST with %s answers request_data_invalid', async (_, body) => {
    const response = await postJson('/v1/equipmenttypes.list', body);
    expect(response.json).toMatchObject({ ok: false, error: 'request_data_invalid' });
  });

  test('POST requires the application/json content type', async () => {
    const asText = await postJson('/v1/equipmenttypes.list', JSON.stringify({ token }), 'text/plain');
    expect(asText.json).toMatchObject({ ok: false, error: 'request_data_invalid' });
    const asForm = await postJson(
      '/v1/equipmenttypes.list',
      JSON.stringify({ token }),
      'application/x-www-form-urlencoded',
    );
    expect(asForm.json).toMatchObject({ ok: false, error: 'request_data_invalid' });
    const withCharset = await postJson(
      '/v1/equipmenttypes.list',
      JSON.stringify({ token }),
      'application/json; charset=utf-8',
    );
    expect(withCharset.json).toMatchObject({ ok: true });
  });

  test('the request data is checked before the token', async () => {
    const response = await send('/v1/equipmenttypes.list?garbage');
    expect(response.json).toMatchObject({ ok: false, error: 'request_data_invalid' });
  });
});

describe('token', () => {
  test.each(METHODS)('%s: a missing or empty token answers token_missing', async (method) => {
    const { token: _omitted, ...withoutToken } = validRequest(method);
    expect(await callApiJson(method, withoutToken)).toMatchObject({ ok: false, error: 'token_missing' });
    expect(await callApiJson(method, { ...withoutToken, token: '' })).toMatchObject({
      ok: false,
      error: 'token_missing',
    });
  });

  test.each(METHODS)('%s: an unknown token answers token_invalid', async (method) => {
    const request = validRequest(method);
    expect(await callApiJson(method, { ...request, token: 'x'.repeat(32) })).toMatchObject({
      ok: false,
      error: 'token_invalid',
    });
    expect(await callApiJson(method, { ...request, token: 12345 })).toMatchObject({
      ok: false,
      error: 'token_invalid',
    });
  });

  test.each(
    METHODS.flatMap((method) =>
      (
        [
          ['inactive', 'token_inactive'],
          ['accountInactive', 'account_inactive'],
          ['noPermission', 'token_permission'],
        ] as const
      ).map(([kind, error]) => [method, kind, error] as const),
    ),
  )('%s: the %s token answers %s', async (method, kind, error) => {
    const response = await callApiJson(method, { ...validRequest(method), token: dataset.tokens[kind] });
    expect(response).toMatchObject({ ok: false, error });
  });

  test('the token is checked before the parameters', async () => {
    const response = await callApiJson('completedtrainings.list', {
      token: 'unknown',
      colour: 'red',
      limit: 0,
    });
    expect(response).toMatchObject({ ok: false, error: 'token_invalid' });
  });

  test("a deleted dataset's tokens are no longer valid", async () => {
    const doomed = await SampleDataset.create({ completions: 1 });
    expect(await callApiJson('equipmenttypes.list', { token: doomed.tokens.valid })).toMatchObject({
      ok: true,
    });
    await doomed.delete();
    expect(await callApiJson('equipmenttypes.list', { token: doomed.tokens.valid })).toMatchObject({
      ok: false,
      error: 'token_invalid',
    });
  });
});

describe('parameters', () => {
  test.each(METHODS)(
    '%s: an unsupported parameter answers parameter_unexpected naming it',
    async (method) => {
      const response = await callApiJson<{ error: string; description: string }>(method, {
        ...validRequest(method),
        colour: 'red',
      });
      expect(response).toMatchObject({ ok: false, error: 'parameter_unexpected' });
      expect(response.description).toContain('colour');
    },
  );

  test('equipmenttypes.list takes no paging parameters', async () => {
    const response = await callApiJson('equipmenttypes.list', { token, limit: 10 });
    expect(response).toMatchObject({ ok: false, error: 'parameter_unexpected' });
  });

  test('users.info without user answers parameter_missing', async () => {
    const response = await callApiJson<{ description: string }>('users.info', { token });
    expect(response).toMatchObject({ ok: false, error: 'parameter_missing' });
    expect(response.description).toContain('user');
  });

  test.each([
    ['completedtrainings.list', 'limit', 0],
    ['completedtrainings.list', 'limit', 1001],
    ['completedtrainings.list', 'limit', 2.5],
    ['completedtrainings.list', 'limit', '10'],
    ['completedtrainings.list', 'limit', null],
    ['completedtrainings.list', 'page', 0],
    ['completedtrainings.list', 'page', -1],
    ['completedtrainings.list', 'page', 1.5],
    ['completedtrainings.list', 'page', '2'],
    ['completedtrainings.list', 'user_id', 42],
    ['completedtrainings.list', 'training_id', ['a']],
    ['completedtrainings.list', 'pretty', 'yes'],
    ['equipmenttypes.list', 'pretty', 1],
    ['users.info', 'user', true],
    ['users.info', 'user', { id: '1' }],
    ['users.info', 'user', null],
  ] as const)('%s with %s = %j answers parameter_invalid naming it', async (method, name, value) => {
    const response = await callApiJson<{ description: string }>(method, {
      ...validRequest(method),
      [name]: value,
    });
    expect(response).toMatchObject({ ok: false, error: 'parameter_invalid' });
    expect(response.description).toContain(name);
  });

  test('limit accepts the bounds 1 and 1000', async () => {
    expect(await callApiJson('completedtrainings.list', { token, limit: 1 })).toMatchObject({ ok: true });
    expect(await callApiJson('completedtrainings.list', { token, limit: 1000 })).toMatchObject({ ok: true });
  });

  test('an unexpected parameter is reported before an invalid one', async () => {
    const response = await callApiJson('completedtrainings.list', { token, limit: 0, colour: 'red' });
    expect(response).toMatchObject({ ok: false, error: 'parameter_unexpected' });
  });
});

describe('users.info', () => {
  test('finds a user by its string id, leading zeros included', async () => {
    const zeroPadded = data.users.find((user) => /^0\d+$/.test(user.id))!;
    expect(await callApiJson('users.info', { token, user: zeroPadded.id })).toEqual({
      ok: true,
      user: zeroPadded,
    });
  });

  test('matches a number against the decimal string of the id', async () => {
    const numeric = data.users.find((user) => /^[1-9]\d*$/.test(user.id))!;
    expect(await callApiJson('users.info', { token, user: Number(numeric.id) })).toEqual({
      ok: true,
      user: numeric,
    });
  });

  test('a number never matches a zero-padded id', async () => {
    const zeroPadded = data.users.find((user) => /^0\d+$/.test(user.id))!;
    const response = await callApiJson('users.info', { token, user: Number(zeroPadded.id) });
    expect(response).toMatchObject({ ok: false, error: 'content_not_found' });
  });

  test('an unknown user answers content_not_found', async () => {
    expect(await callApiJson('users.info', { token, user: 'nobody' })).toMatchObject({
      ok: false,
      error: 'content_not_found',
    });
  });
});

describe('envelope and headers', () => {
  test.each([
    ['a success', { token }],
    ['an error', { token: 'unknown' }],
  ])('%s carries JSON with SVC-Request-ID and SVC-Response-Time', async (_, request) => {
    const response = await callApi('equipmenttypes.list', request);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.headers.get('svc-request-id')).toMatch(/^[A-Za-z0-9]+$/);
    expect(response.headers.get('svc-response-time')).toMatch(/^\d+$/);
  });

  test('request ids are unique', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => callApi('equipmenttypes.list', { token })),
    );
    const ids = new Set(responses.map((response) => response.headers.get('svc-request-id')));
    expect(ids.size).toBe(20);
  });

  test('an error envelope has ok false, the identifier and a description', async () => {
    const response = await callApiJson('users.info', { token, user: 'nobody' });
    expect(response).toEqual({ ok: false, error: 'content_not_found', description: expect.any(String) });
  });

  test('pretty: true indents the JSON, of errors too; otherwise it is one line', async () => {
    const pretty = await callApi('users.info', { token, user: data.users[0]!.id, pretty: true });
    expect(pretty.text).toBe(JSON.stringify({ ok: true, user: data.users[0] }, null, 2));
    const compact = await callApi('users.info', { token, user: data.users[0]!.id, pretty: false });
    expect(compact.text).toBe(JSON.stringify({ ok: true, user: data.users[0] }));
    const prettyError = await callApi('users.info', { token, user: 'nobody', pretty: true });
    expect(prettyError.text).toContain('\n  "ok": false');
  });
});
