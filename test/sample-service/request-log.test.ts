/** The request log: what tests can see of the traffic a dataset received, and never its token. */
import { SampleDataset, callApi, sampleServiceUrl } from '../support/sample-service';

let dataset: SampleDataset;
let token: string;

beforeAll(async () => {
  dataset = await SampleDataset.create({ completions: 30 });
  token = dataset.tokens.valid;
});

afterAll(() => dataset.delete());

beforeEach(() => dataset.clearRequestLog());

test('records each request oldest first, with its method, verb, params, outcome and request id', async () => {
  const first = await callApi('completedtrainings.list', { token, limit: 5, page: 2 }, 'GET');
  const second = await callApi('users.info', { token, user: 'nobody', pretty: true });
  const { requests } = await dataset.requestLog();
  expect(requests).toEqual([
    {
      method: 'completedtrainings.list',
      httpMethod: 'GET',
      params: { limit: 5, page: 2 },
      requestId: first.headers.get('svc-request-id'),
      status: 200,
    },
    {
      method: 'users.info',
      httpMethod: 'POST',
      params: { user: 'nobody', pretty: true },
      error: 'content_not_found',
      requestId: second.headers.get('svc-request-id'),
      status: 200,
    },
  ]);
});

test('a path that names no method is logged by its path, without the query', async () => {
  const query = encodeURIComponent(JSON.stringify({ token }));
  await fetch(`${sampleServiceUrl()}/v1/nosuch.method?${query}`);
  await fetch(`${sampleServiceUrl()}/v1/users.info`, { method: 'PUT', body: JSON.stringify({ token }) });
  const { requests } = await dataset.requestLog();
  expect(requests).toEqual([
    expect.objectContaining({
      method: '/v1/nosuch.method',
      httpMethod: 'GET',
      error: 'api_method_not_found',
    }),
    expect.objectContaining({ method: 'users.info', httpMethod: 'PUT', error: 'request_method_invalid' }),
  ]);
});

test("records requests made with any of the dataset's tokens, and only those", async () => {
  const other = await SampleDataset.create({ completions: 1 });
  try {
    await callApi('equipmenttypes.list', { token: dataset.tokens.inactive });
    await callApi('equipmenttypes.list', { token: dataset.tokens.noPermission });
    await callApi('equipmenttypes.list', { token: other.tokens.valid });
    await callApi('equipmenttypes.list', { token: 'unknown' });
    const { requests } = await dataset.requestLog();
    expect(requests.map((request) => request.error)).toEqual(['token_inactive', 'token_permission']);
    expect((await other.requestLog()).requests).toHaveLength(1);
  } finally {
    await other.delete();
  }
});

test('never holds a token, whatever the request looked like', async () => {
  const tokens = Object.values(dataset.tokens);
  for (const each of tokens) {
    await callApi('completedtrainings.list', { token: each, user_id: 'x' }, 'GET');
    await callApi('users.info', { token: each, user: 1 }, 'POST');
  }
  await fetch(`${sampleServiceUrl()}/v1/nosuch?${encodeURIComponent(JSON.stringify({ token }))}`);
  await fetch(`${sampleServiceUrl()}/v1/users.info`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ token, user: 1 }),
  });
  const log = await dataset.requestLog();
  expect(log.requests).toHaveLength(tokens.length * 2 + 2);
  const serialized = JSON.stringify(log);
  for (const each of tokens) expect(serialized).not.toContain(each);
  for (const request of log.requests) expect(request.params).not.toHaveProperty('token');
});

test('clearing empties the log', async () => {
  await callApi('equipmenttypes.list', { token });
  expect((await dataset.requestLog()).requests).toHaveLength(1);
  await dataset.clearRequestLog();
  expect(await dataset.requestLog()).toEqual({ requests: [], maxInFlight: 0 });
});
