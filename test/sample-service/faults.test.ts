/**
 * Injected faults: each kind, queue consumption, the request budget, paging inserts, mutations
 * scheduled during paging, and latency.
 */
import {
  SampleDataset,
  callApi,
  callApiJson,
  sampleServiceUrl,
  type Completion,
} from '../support/sample-service';

let dataset: SampleDataset;
let token: string;

beforeAll(async () => {
  dataset = await SampleDataset.create({ completions: 120, users: 20 });
  token = dataset.tokens.valid;
});

afterAll(() => dataset.delete());

beforeEach(async () => {
  await dataset.setFaults({});
  await dataset.clearRequestLog();
});

const listTypes = () => callApi('equipmenttypes.list', { token });

async function expectHealthy(): Promise<void> {
  const response = await listTypes();
  expect(response.status).toBe(200);
  expect(JSON.parse(response.text)).toMatchObject({ ok: true });
}

describe('fault kinds', () => {
  test('html502: HTTP 502 with an HTML page, without the service headers', async () => {
    await dataset.setFaults({ queue: [{ fault: 'html502' }] });
    const response = await listTypes();
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('502 Bad Gateway');
    expect(response.headers.get('svc-request-id')).toBeNull();
    await expectHealthy();
  });

  test('truncated: HTTP 200 with the real JSON body cut off midway', async () => {
    const intact = await callApi('completedtrainings.list', { token, limit: 5 });
    await dataset.setFaults({ queue: [{ fault: 'truncated' }] });
    const response = await callApi('completedtrainings.list', { token, limit: 5 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(response.text)).toThrow(SyntaxError);
    expect(response.text.length).toBeGreaterThan(0);
    expect(intact.text.startsWith(response.text)).toBe(true);
    expect(response.text.length).toBeLessThan(intact.text.length);
  });

  test('server_error: a crashing handler answers the server_error envelope and the server lives on', async () => {
    await dataset.setFaults({ queue: [{ fault: 'server_error' }] });
    const response = await listTypes();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ ok: false, error: 'server_error' });
    await expectHealthy();
  });

  test('rate_limit_exceeded: the error envelope with HTTP 200', async () => {
    await dataset.setFaults({ queue: [{ fault: 'rate_limit_exceeded' }] });
    const response = await listTypes();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ ok: false, error: 'rate_limit_exceeded' });
    await expectHealthy();
  });

  test('non_envelope: HTTP 200 with valid JSON that is not an envelope', async () => {
    await dataset.setFaults({ queue: [{ fault: 'non_envelope', times: 2 }] });
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await listTypes();
      expect(response.status).toBe(200);
      const body: unknown = JSON.parse(response.text);
      const isEnvelope =
        typeof body === 'object' && body !== null && typeof (body as { ok?: unknown }).ok === 'boolean';
      expect(isEnvelope).toBe(false);
    }
    await expectHealthy();
  });

  test('status500: HTTP 500 carrying a JSON ok envelope', async () => {
    await dataset.setFaults({ queue: [{ fault: 'status500' }] });
    const response = await listTypes();
    expect(response.status).toBe(500);
    expect(JSON.parse(response.text)).toMatchObject({ ok: true, equipmenttypes: expect.any(Array) });
    await expectHealthy();
  });
});

describe('fault queue', () => {
  test('faults are consumed in order, each as many times as asked', async () => {
    await dataset.setFaults({ queue: [{ fault: 'html502', times: 2 }, { fault: 'status500' }] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await listTypes()).status);
    expect(statuses).toEqual([502, 502, 500, 200]);
  });

  test('a fault for one method is left for a request to that method', async () => {
    await dataset.setFaults({ queue: [{ fault: 'html502', method: 'users.info' }] });
    await expectHealthy();
    expect((await callApi('completedtrainings.list', { token })).status).toBe(200);
    const userId = (await dataset.data()).users[0]!.id;
    expect((await callApi('users.info', { token, user: userId })).status).toBe(502);
    expect((await callApi('users.info', { token, user: userId })).status).toBe(200);
  });

  test('faults stay within their dataset', async () => {
    const other = await SampleDataset.create({ completions: 1 });
    try {
      await dataset.setFaults({ queue: [{ fault: 'html502' }] });
      expect((await callApi('equipmenttypes.list', { token: other.tokens.valid })).status).toBe(200);
      expect((await listTypes()).status).toBe(502);
    } finally {
      await other.delete();
    }
  });

  test('putting new settings replaces the whole queue', async () => {
    await dataset.setFaults({ queue: [{ fault: 'html502' }] });
    const settings = await dataset.setFaults({ latencyMs: 0 });
    expect(settings).toEqual({
      latencyMs: 0,
      requestBudget: null,
      queue: [],
      redirect: null,
      insertDuringPaging: null,
      insertOnTopAfterPageOne: null,
      mutateAfterRequests: [],
    });
    await expectHealthy();
  });

  test('the request log names the fault and the status it produced', async () => {
    await dataset.setFaults({ queue: [{ fault: 'html502' }, { fault: 'rate_limit_exceeded' }] });
    await listTypes();
    await listTypes();
    const { requests } = await dataset.requestLog();
    expect(requests).toEqual([
      expect.objectContaining({ method: 'equipmenttypes.list', fault: 'html502', status: 502 }),
      expect.objectContaining({ fault: 'rate_limit_exceeded', error: 'rate_limit_exceeded', status: 200 }),
    ]);
  });

  test.each([
    ['an unknown fault kind', { queue: [{ fault: 'meltdown' }] }],
    ['an unknown method', { queue: [{ fault: 'html502', method: 'users.list' }] }],
    ['zero times', { queue: [{ fault: 'html502', times: 0 }] }],
    ['an unknown setting', { latency: 100 }],
    ['a negative budget', { requestBudget: -1 }],
    ['mutations scheduled after 0 requests', { mutateAfterRequests: [{ afterRequests: 0, mutations: {} }] }],
    [
      'an unknown mutation',
      { mutateAfterRequests: [{ afterRequests: 1, mutations: { removeCompletionAt: [1] } }] },
    ],
    ['a single object for mutateAfterRequests', { mutateAfterRequests: { afterRequests: 1, mutations: {} } }],
    [
      'scheduled mutations no list could accept',
      { mutateAfterRequests: [{ afterRequests: 1, mutations: { removeCompletionsAt: [2, 2] } }] },
    ],
  ])('settings with %s are rejected with 400', async (_, settings) => {
    const response = await fetch(`${sampleServiceUrl()}/_admin/datasets/${dataset.id}/faults`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(settings),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe('request budget', () => {
  test('allows the budget, then answers rate_limit_exceeded to every further request', async () => {
    await dataset.setFaults({ requestBudget: 3 });
    const errors = [];
    for (let i = 0; i < 5; i++) errors.push(JSON.parse((await listTypes()).text).error ?? 'none');
    expect(errors).toEqual(['none', 'none', 'none', 'rate_limit_exceeded', 'rate_limit_exceeded']);
  });

  test('is spent only by requests that pass the token checks', async () => {
    await dataset.setFaults({ requestBudget: 1 });
    await callApi('equipmenttypes.list', { token: dataset.tokens.inactive });
    await callApi('equipmenttypes.list', {});
    expect(JSON.parse((await listTypes()).text)).toMatchObject({ ok: true });
    expect(JSON.parse((await listTypes()).text)).toMatchObject({ ok: false, error: 'rate_limit_exceeded' });
  });

  test('is checked after the token and before the parameters', async () => {
    await dataset.setFaults({ requestBudget: 0 });
    expect(await callApiJson('equipmenttypes.list', { token: 'unknown' })).toMatchObject({
      error: 'token_invalid',
    });
    expect(await callApiJson('equipmenttypes.list', { token, colour: 'red' })).toMatchObject({
      error: 'rate_limit_exceeded',
    });
  });

  test('null means unlimited again', async () => {
    await dataset.setFaults({ requestBudget: 0 });
    expect(JSON.parse((await listTypes()).text)).toMatchObject({ error: 'rate_limit_exceeded' });
    await dataset.setFaults({ requestBudget: null });
    await expectHealthy();
  });
});

describe('insertDuringPaging', () => {
  test('inserts newer completions once, after the Nth list request, shifting later pages', async () => {
    const pagingDataset = await SampleDataset.create({ completions: 100 });
    try {
      const list = (page: number) =>
        callApiJson<{ completedtrainings: Completion[]; paging: { total: number } }>(
          'completedtrainings.list',
          {
            token: pagingDataset.tokens.valid,
            limit: 10,
            page,
          },
        );
      await pagingDataset.setFaults({ insertDuringPaging: { afterRequests: 2, count: 4 } });
      const page1 = await list(1);
      const page2 = await list(2);
      expect(page2.paging.total).toBe(100);
      const page3 = await list(3);
      expect(page3.paging.total).toBe(104);
      // Four newer records pushed everything down by four: page 3 now starts with page 2's last four.
      expect(page3.completedtrainings.slice(0, 4)).toEqual(page2.completedtrainings.slice(6));
      const { completions } = await pagingDataset.data();
      const newestBefore = Number(page1.completedtrainings[0]!.dateNumber);
      expect(
        completions.slice(0, 4).every((completion) => Number(completion.dateNumber) > newestBefore),
      ).toBe(true);
      expect(completions.slice(4, 14)).toEqual(page1.completedtrainings);
      expect((await list(4)).paging.total).toBe(104);
    } finally {
      await pagingDataset.delete();
    }
  });
});

describe('redirect', () => {
  const elsewhere = 'http://elsewhere.example:8443';
  const post = () =>
    fetch(`${sampleServiceUrl()}/v1/equipmenttypes.list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      redirect: 'manual',
    });

  test('from the Nth request on: the status, a Location on the given origin with the path and query kept, nothing from the API', async () => {
    await dataset.setFaults({ redirect: { status: 307, to: elsewhere, fromRequest: 2 } });
    expect((await post()).status).toBe(200);
    const redirected = await post();
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get('location')).toBe(`${elsewhere}/v1/equipmenttypes.list`);
    expect(redirected.headers.get('svc-request-id')).toBeNull();
    const query = encodeURIComponent(JSON.stringify({ token }));
    const viaGet = await fetch(`${sampleServiceUrl()}/v1/equipmenttypes.list?${query}`, {
      redirect: 'manual',
    });
    expect(viaGet.status).toBe(307);
    expect(viaGet.headers.get('location')).toBe(`${elsewhere}/v1/equipmenttypes.list?${query}`);
    const { requests } = await dataset.requestLog();
    expect(requests.map(({ httpMethod, fault, status }) => ({ httpMethod, fault, status }))).toEqual([
      { httpMethod: 'POST', fault: undefined, status: 200 },
      { httpMethod: 'POST', fault: 'redirect', status: 307 },
      { httpMethod: 'GET', fault: 'redirect', status: 307 },
    ]);
  });

  test('a redirected request leaves the queued faults to the requests that reach the API', async () => {
    await dataset.setFaults({ redirect: { status: 302, to: elsewhere }, queue: [{ fault: 'html502' }] });
    expect((await post()).status).toBe(302);
    expect((await post()).status).toBe(302);
    expect((await dataset.faults()).queue).toEqual([{ fault: 'html502', times: 1 }]);
  });

  test('the target is an origin, nothing more', async () => {
    await expect(dataset.setFaults({ redirect: { status: 301, to: `${elsewhere}/v1` } })).rejects.toThrow(
      /an origin only/,
    );
    await expect(
      dataset.setFaults({ redirect: { status: 301, to: 'ftp://elsewhere.example' } }),
    ).rejects.toThrow(/400/);
  });
});

describe('insertOnTopAfterPageOne', () => {
  test('adds completions on top after every read of page 1, filtered or not, and after no other', async () => {
    const pagingDataset = await SampleDataset.create({ completions: 50, users: 10 });
    try {
      const list = (page: number, filter: Record<string, unknown> = {}) =>
        callApiJson<{ ok: boolean; completedtrainings: Completion[] }>('completedtrainings.list', {
          token: pagingDataset.tokens.valid,
          limit: 10,
          page,
          ...filter,
        });
      const completions = async () => (await pagingDataset.data()).completions;
      const before = await completions();
      await pagingDataset.setFaults({ insertOnTopAfterPageOne: { count: 3 } });

      // The read itself sees the list as it was; the records arrive right after it.
      expect((await list(1)).completedtrainings).toEqual(before.slice(0, 10));
      const afterOne = await completions();
      expect(afterOne).toHaveLength(53);
      expect(afterOne.slice(3)).toEqual(before);
      const newestBefore = Number(before[0]!.dateNumber);
      expect(afterOne.slice(0, 3).every((record) => Number(record.dateNumber) > newestBefore)).toBe(true);
      // Page 2 shows the three records that page 1 ended with, pushed down.
      expect((await list(2)).completedtrainings.slice(0, 3)).toEqual(before.slice(7, 10));
      expect(await completions()).toEqual(afterOne);
      // Every read of page 1 adds as many again, a filtered one too.
      await list(1);
      expect(await completions()).toHaveLength(56);
      await list(1, { user_id: before[0]!.user_id });
      const afterFiltered = await completions();
      expect(afterFiltered).toHaveLength(59);
      expect(afterFiltered.slice(9)).toEqual(before);
      // An answer that is an error, or that a fault broke, is no read.
      expect(await list(1, { limit: 0 })).toMatchObject({ ok: false });
      await pagingDataset.setFaults({
        insertOnTopAfterPageOne: { count: 3 },
        queue: [{ fault: 'truncated' }, { fault: 'html502' }, { fault: 'rate_limit_exceeded' }],
      });
      for (let request = 0; request < 3; request++) {
        await callApi('completedtrainings.list', { token: pagingDataset.tokens.valid, page: 1 });
      }
      expect(await completions()).toEqual(afterFiltered);
      // Without a page the request reads page 1.
      await callApi('completedtrainings.list', { token: pagingDataset.tokens.valid });
      expect(await completions()).toHaveLength(62);
      await pagingDataset.setFaults({});
      await list(1);
      expect(await completions()).toHaveLength(62);
    } finally {
      await pagingDataset.delete();
    }
  });
});

describe('mutateAfterRequests', () => {
  let pagingDataset: SampleDataset;

  beforeEach(async () => {
    pagingDataset = await SampleDataset.create({ completions: 60, users: 20 });
  });

  afterEach(() => pagingDataset.delete());

  const list = (page = 1) =>
    callApiJson<{ completedtrainings: Completion[]; paging: { total: number } }>('completedtrainings.list', {
      token: pagingDataset.tokens.valid,
      limit: 10,
      page,
    });
  const completions = async () => (await pagingDataset.data()).completions;

  test('each entry is applied once, after its count of list requests and before the next is answered', async () => {
    const before = await completions();
    await pagingDataset.setFaults({
      mutateAfterRequests: [
        {
          afterRequests: 3,
          mutations: { insertCompletionsAt: [{ position: 0, fields: { user_id: 'top' } }] },
        },
        { afterRequests: 1, mutations: { removeCompletionsAt: [0, 1] } },
      ],
    });
    const page1 = await list(1);
    expect(page1.completedtrainings).toEqual(before.slice(0, 10));
    // Removed right after the first answer: page 2 already reads the shorter list.
    const afterFirst = await completions();
    expect(afterFirst).toEqual(before.slice(2));
    const page2 = await list(2);
    expect(page2.paging.total).toBe(58);
    expect(page2.completedtrainings).toEqual(before.slice(12, 22));
    // Other methods do not count.
    await callApi('equipmenttypes.list', { token: pagingDataset.tokens.valid });
    expect(await completions()).toEqual(afterFirst);
    await list(3);
    const afterThird = await completions();
    expect(afterThird[0]).toMatchObject({ user_id: 'top', dateNumber: before[2]!.dateNumber });
    expect(afterThird.slice(1)).toEqual(afterFirst);
    for (let page = 4; page <= 8; page++) await list(page);
    expect(await completions()).toEqual(afterThird);

    const { mutateAfterRequests } = await pagingDataset.faults();
    expect(mutateAfterRequests).toEqual([
      {
        afterRequests: 3,
        mutations: { insertCompletionsAt: [{ position: 0, fields: { user_id: 'top' } }] },
        outcome: 'applied',
        added: [afterThird[0]],
        removed: [],
      },
      {
        afterRequests: 1,
        mutations: { removeCompletionsAt: [0, 1] },
        outcome: 'applied',
        added: [],
        removed: before.slice(0, 2),
      },
    ]);
  });

  test('entries due at the same count apply in the order given, each to the list the one before left', async () => {
    const before = await completions();
    await pagingDataset.setFaults({
      mutateAfterRequests: [
        { afterRequests: 2, mutations: { removeCompletionsAt: [0] } },
        { afterRequests: 2, mutations: { duplicateCompletionsAt: [0] } },
      ],
    });
    await list(1);
    expect(await completions()).toEqual(before);
    await list(2);
    expect(await completions()).toEqual([before[1], before[1], ...before.slice(2)]);
  });

  test('they come after insertDuringPaging of the same moment, whose records they see', async () => {
    await pagingDataset.setFaults({
      insertDuringPaging: { afterRequests: 1, count: 3 },
      mutateAfterRequests: [{ afterRequests: 1, mutations: { removeCompletionsAt: [0] } }],
    });
    const before = await completions();
    await list(1);
    const after = await completions();
    expect(after).toHaveLength(62);
    // The newest inserted record is gone again; the other two lead the list.
    expect(after.slice(2)).toEqual(before);
  });

  test('mutations that no longer fit the list are skipped whole, and the settings say why', async () => {
    const before = await completions();
    await pagingDataset.setFaults({
      mutateAfterRequests: [
        { afterRequests: 1, mutations: { removeCompletionsAt: [0, 60], duplicateCompletionsAt: [1] } },
        { afterRequests: 2, mutations: { duplicateCompletionsAt: [0] } },
      ],
    });
    await list(1);
    expect(await completions()).toEqual(before);
    const settings = await pagingDataset.faults();
    expect(settings.mutateAfterRequests[0]).toEqual({
      afterRequests: 1,
      mutations: { removeCompletionsAt: [0, 60], duplicateCompletionsAt: [1] },
      outcome: 'skipped',
      mutationSkipped: expect.stringMatching(/removeCompletionsAt: no position 60 \(the list has 60/),
    });
    expect(settings.mutateAfterRequests[1]).toMatchObject({ outcome: 'pending' });
    // A skipped entry does not stop the later ones, nor is it tried again.
    await list(2);
    await list(3);
    expect(await completions()).toEqual([before[0], ...before]);
    expect((await pagingDataset.faults()).mutateAfterRequests.map((entry) => entry.outcome)).toEqual([
      'skipped',
      'applied',
    ]);
  });

  test('putting the settings again restarts the count', async () => {
    const mutateAfterRequests = [{ afterRequests: 2, mutations: { removeCompletionsAt: [0] } }];
    await pagingDataset.setFaults({ mutateAfterRequests });
    await list(1);
    expect((await pagingDataset.setFaults({ mutateAfterRequests })).mutateAfterRequests).toEqual([
      { ...mutateAfterRequests[0], outcome: 'pending' },
    ]);
    const before = await completions();
    await list(1);
    expect(await completions()).toEqual(before);
    await list(2);
    expect(await completions()).toEqual(before.slice(1));
  });
});

describe('latency', () => {
  test('delays every request without serialising them', async () => {
    await dataset.setFaults({ latencyMs: 300 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => listTypes()));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const log = await dataset.requestLog();
    expect(log.requests).toHaveLength(10);
    expect(log.maxInFlight).toBe(10);
  });

  test('set at creation applies until the fault settings are replaced', async () => {
    const slow = await SampleDataset.create({ completions: 1, latencyMs: 200 });
    try {
      const response = await callApi('equipmenttypes.list', { token: slow.tokens.valid });
      // The reported processing time includes the wait (timers may fire a millisecond or so early).
      expect(Number(response.headers.get('svc-response-time'))).toBeGreaterThanOrEqual(190);
      expect(await slow.setFaults({})).toMatchObject({ latencyMs: 0 });
    } finally {
      await slow.delete();
    }
  });
});
