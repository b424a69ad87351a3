/**
 * The service client over real loopback HTTP against the sample service: the request convention,
 * every error identifier, faults and retries, and the token kept out of every error and URL.
 */
import { nodeTransport } from '../../dev/http/node-transport';
import { ServiceClient, type ClientOptions } from '../../src/api/client';
import { SERVICE_ERROR_IDS, ServiceError, TransportError } from '../../src/api/errors';
import { completionsPageSchema, equipmentTypesSchema, userInfoSchema } from '../../src/api/schemas';
import type { HttpRequest, Transport } from '../../src/api/transport';
import { SampleDataset, sampleServiceUrl } from '../support/sample-service';

let dataset: SampleDataset;
beforeAll(async () => {
  dataset = await SampleDataset.create({ seed: 7, completions: 120, users: 30 });
});
beforeEach(async () => {
  await dataset.setFaults({});
  await dataset.clearRequestLog();
});

/** Records every delay instead of waiting, so retries cost no test time. */
function recordingSleep(): { sleep: (ms: number) => void; delays: number[] } {
  const delays: number[] = [];
  return { sleep: (ms) => delays.push(ms), delays };
}

function clientFor(token: string, options: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sampleServiceUrl(),
    token,
    transport: nodeTransport,
    sleep: recordingSleep().sleep,
    random: () => 0.5,
    ...options,
  });
}

/** A transport that changes each request on its way out, for conditions the client never creates. */
function tampering(change: (request: HttpRequest) => HttpRequest & { method: string }): Transport {
  const tamper = (request: HttpRequest) => change(request) as HttpRequest;
  return {
    fetch: (request) => nodeTransport.fetch(tamper(request)),
    fetchAll: (requests) => nodeTransport.fetchAll(requests.map(tamper)),
  };
}

function errorOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('request convention', () => {
  test.each(['post', 'get'] as const)(
    '%s: the request object reaches the service, token inside',
    async (httpMethod) => {
      const client = clientFor(dataset.tokens.valid, { httpMethod });
      const page = client.call('completedtrainings.list', { limit: 5, page: 2 }, completionsPageSchema);
      expect(page.completedtrainings).toHaveLength(5);
      const { requests } = await dataset.requestLog();
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        method: 'completedtrainings.list',
        httpMethod: httpMethod.toUpperCase(),
        params: { limit: 5, page: 2 },
      });
    },
  );

  test('pretty asks for formatted JSON and still decodes', () => {
    const client = clientFor(dataset.tokens.valid, { pretty: true });
    const types = client.call('equipmenttypes.list', {}, equipmentTypesSchema);
    expect(types.equipmenttypes.length).toBeGreaterThan(0);
  });

  test('POST requests carry the token in the body, never in the URL', () => {
    const sent: HttpRequest[] = [];
    const client = clientFor(dataset.tokens.valid, {
      transport: tampering((request) => {
        sent.push(request);
        return request;
      }),
    });
    client.call('completedtrainings.list', { limit: 1 }, completionsPageSchema);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`${sampleServiceUrl()}/v1/completedtrainings.list`);
    expect(JSON.parse(sent[0]!.payload!)).toEqual({ token: dataset.tokens.valid, limit: 1 });
  });

  test('GET sends the URL-encoded request object as the whole query string', () => {
    const sent: HttpRequest[] = [];
    const client = clientFor(dataset.tokens.valid, {
      httpMethod: 'get',
      transport: tampering((request) => {
        sent.push(request);
        return request;
      }),
    });
    client.call('completedtrainings.list', { limit: 1 }, completionsPageSchema);
    const [base, query] = sent[0]!.url.split('?');
    expect(base).toBe(`${sampleServiceUrl()}/v1/completedtrainings.list`);
    expect(JSON.parse(decodeURIComponent(query!))).toEqual({ token: dataset.tokens.valid, limit: 1 });
  });
});

describe('every error identifier of the contract becomes a ServiceError that says what to do', () => {
  // A careless service: its errors quote the token sent, three times (when the request carries one of
  // the dataset's tokens): the message still never shows it.
  beforeAll(() => dataset.setQuirks({ quoteTokenInErrors: true }));
  afterAll(() => dataset.setQuirks({}));

  type Case = {
    id: string;
    call: (client: ServiceClient) => unknown;
    token?: () => string;
    transport?: Transport;
    faults?: Parameters<SampleDataset['setFaults']>[0];
    advice: RegExp;
    /** False where the service cannot quote one of the dataset's tokens (none, or one it does not know). */
    quoted?: false;
  };
  const list =
    (params: Record<string, unknown> = {}) =>
    (client: ServiceClient) =>
      client.call('completedtrainings.list', params, completionsPageSchema);
  const cases: Case[] = [
    {
      id: 'api_method_not_found',
      call: (c) => c.call('nonexistent.method', {}, completionsPageSchema),
      advice: /base URL/,
    },
    {
      id: 'request_method_invalid',
      call: list(),
      transport: tampering((request) => ({ ...request, method: 'put' as never })),
      advice: /Update Safety Sync/,
    },
    {
      id: 'request_data_invalid',
      call: list(),
      transport: tampering((request) => ({ ...request, payload: '{not json' })),
      advice: /Update Safety Sync/,
      quoted: false,
    },
    {
      id: 'rate_limit_exceeded',
      call: list(),
      faults: { requestBudget: 0 },
      advice: /try again in a minute/,
    },
    {
      id: 'token_missing',
      call: list(),
      transport: tampering((request) => {
        const { token: _token, ...rest } = JSON.parse(request.payload!);
        return { ...request, payload: JSON.stringify(rest) };
      }),
      advice: /Paste your token/,
      quoted: false,
    },
    {
      id: 'token_invalid',
      call: list(),
      token: () => 'NotARealToken0000000000000000',
      advice: /Paste a new token/,
      quoted: false,
    },
    { id: 'token_inactive', call: list(), token: () => dataset.tokens.inactive, advice: /deactivated/ },
    { id: 'token_permission', call: list(), token: () => dataset.tokens.noPermission, advice: /permission/ },
    {
      id: 'account_inactive',
      call: list(),
      token: () => dataset.tokens.accountInactive,
      advice: /reactivate/,
    },
    { id: 'parameter_unexpected', call: list({ colour: 'red' }), advice: /parameter/ },
    {
      id: 'parameter_missing',
      call: (c) => c.call('users.info', {}, userInfoSchema),
      advice: /required parameter/,
    },
    { id: 'parameter_invalid', call: list({ limit: 5000 }), advice: /parameter value/ },
    {
      id: 'server_error',
      call: list(),
      faults: { queue: [{ fault: 'server_error', times: 5 }] },
      advice: /internal error/,
    },
    {
      id: 'content_not_found',
      call: (c) => c.call('users.info', { user: 'no-such-user' }, userInfoSchema),
      advice: /found nothing/,
    },
  ];

  test('the cases cover all 14 identifiers', () => {
    expect(cases.map((c) => c.id).sort()).toEqual([...SERVICE_ERROR_IDS].sort());
  });

  test.each(cases)('$id', async ({ id, call, token, transport, faults, advice, quoted }) => {
    if (faults) await dataset.setFaults(faults);
    const usedToken = token ? token() : dataset.tokens.valid;
    const client = clientFor(usedToken, { maxAttempts: 1, ...(transport ? { transport } : {}) });
    const error = errorOf(() => call(client));
    expect(error).toBeInstanceOf(ServiceError);
    const serviceError = error as ServiceError;
    expect(serviceError.identifier).toBe(id);
    expect(serviceError.message).toContain(id);
    expect(serviceError.message).toMatch(advice);
    expect(serviceError.requestId).toMatch(/^[A-Za-z0-9]+$/);
    expect(serviceError.message).toContain(`request ID ${serviceError.requestId}`);
    expect(serviceError.message).not.toContain(usedToken);
    if (quoted !== false) {
      expect(serviceError.message).toContain(
        'Token "[redacted]" (sent as token=[redacted]; again:[redacted]).',
      );
    }
  });
});

describe('faults and retries', () => {
  const page = (client: ServiceClient) =>
    client.call('completedtrainings.list', { limit: 10 }, completionsPageSchema);

  test.each(['html502', 'status500', 'truncated', 'server_error', 'rate_limit_exceeded'] as const)(
    '%s is retried with growing backoff and then succeeds',
    async (fault) => {
      await dataset.setFaults({ queue: [{ fault, times: 2 }] });
      const { sleep, delays } = recordingSleep();
      const client = clientFor(dataset.tokens.valid, { sleep, backoffBaseMs: 1000 });
      expect(page(client).completedtrainings).toHaveLength(10);
      expect(client.stats.requests).toBe(3);
      // Equal jitter at random() = 0.5: three quarters of 1 s, then of 2 s.
      expect(delays).toEqual([750, 1500]);
    },
  );

  test.each([
    ['html502', TransportError, /HTTP status 502.*proxy/],
    ['truncated', TransportError, /not JSON/],
    ['server_error', ServiceError, /server_error.*try again later/],
    ['rate_limit_exceeded', ServiceError, /rate_limit_exceeded.*try again in a minute/],
  ] as const)(
    '%s that persists gives up after the last attempt with its own message',
    async (fault, type, message) => {
      await dataset.setFaults({ queue: [{ fault, times: 10 }] });
      const client = clientFor(dataset.tokens.valid, { maxAttempts: 3 });
      const error = errorOf(() => page(client));
      expect(error).toBeInstanceOf(type);
      expect(error.message).toMatch(message);
      expect(client.stats.requests).toBe(3);
    },
  );

  test('JSON that is not the envelope is not retried: it is not this service', async () => {
    await dataset.setFaults({ queue: [{ fault: 'non_envelope', times: 10 }] });
    const client = clientFor(dataset.tokens.valid);
    const error = errorOf(() => page(client));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('not_envelope');
    expect(client.stats.requests).toBe(1);
  });

  test.each(['token_invalid', 'parameter_invalid'])('%s is never retried', (id) => {
    const client = clientFor(id === 'token_invalid' ? 'NotARealToken0000000000000000' : dataset.tokens.valid);
    const params = id === 'parameter_invalid' ? { limit: 0 } : {};
    errorOf(() => client.call('completedtrainings.list', params, completionsPageSchema));
    expect(client.stats.requests).toBe(1);
  });

  test('a request budget answers rate_limit_exceeded once it is spent', async () => {
    await dataset.setFaults({ requestBudget: 2 });
    const client = clientFor(dataset.tokens.valid, { maxAttempts: 1 });
    page(client);
    page(client);
    expect((errorOf(() => page(client)) as ServiceError).identifier).toBe('rate_limit_exceeded');
  });

  test('an unreachable host is a transport failure that names the host, not the token', () => {
    const token = 'SecretToken1234567890abcdef';
    for (const httpMethod of ['get', 'post'] as const) {
      const client = new ServiceClient({
        baseUrl: 'http://127.0.0.1:9',
        token,
        transport: nodeTransport,
        sleep: () => {},
        maxAttempts: 2,
        httpMethod,
      });
      const error = errorOf(() => page(client));
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).kind).toBe('unreachable');
      expect(error.message).toMatch(/Could not reach the service/);
      expect(error.message).toContain('127.0.0.1:9');
      expect(error.message).not.toContain(token);
      expect(error.message).not.toContain('%22token');
      expect(client.stats.requests).toBe(2);
    }
  });

  test.each(['post', 'get'] as const)(
    '%s: a redirect is a transport failure naming the status and the host only, never retried',
    async (httpMethod) => {
      await dataset.setFaults({ redirect: { status: 307, to: 'https://elsewhere.example:8443' } });
      const client = clientFor(dataset.tokens.valid, { httpMethod });
      const error = errorOf(() => page(client));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: 'redirect', httpStatus: 307 });
      expect(error.message).toBe(
        'completedtrainings.list: the service answered 307 (a redirect to elsewhere.example:8443), which Safety Sync does not follow: the request carries your token. ' +
          'Check the service base URL in Safety Sync → Settings… (it may need https:// or a different host).',
      );
      expect(client.stats).toMatchObject({ requests: 1, retries: 0 });
    },
  );

  test.each([
    ['https://user:pass@Other.Example.NET/v1/x?token=T0ken', 'a redirect to other.example.net'],
    ['//other.example.net:81/path', 'a redirect to other.example.net:81'],
    ['/v1/elsewhere?token=T0ken', 'a redirect to another address of the service'],
    [undefined, 'a redirect without a Location'],
    ['https://bad host/?token=T0ken', 'a redirect to an address Safety Sync cannot read'],
  ])('a redirect to %j is told as %j', (location, target) => {
    const headers: Record<string, string> = location === undefined ? {} : { location };
    const transport: Transport = {
      fetch: () => ({ status: 302, headers, body: 'T0ken' }),
      fetchAll: () => [],
    };
    const client = new ServiceClient({
      baseUrl: 'https://service.example',
      token: 'T0ken',
      transport,
      sleep: () => {},
    });
    const error = errorOf(() => page(client));
    expect(error.message).toContain(`answered 302 (${target})`);
    expect(error.message).not.toMatch(/T0ken|pass|path|elsewhere/);
    expect(client.stats.requests).toBe(1);
  });

  test('a service description that echoes the token, again and again, is scrubbed of every copy', () => {
    const token = 'EchoedToken1234567890abcdef';
    const transport: Transport = {
      fetch: () => ({
        status: 200,
        headers: { 'svc-request-id': 'R1' },
        body: JSON.stringify({
          ok: false,
          error: 'token_invalid',
          description: `unknown token ${token}; you sent "${token}"(${token})`,
        }),
      }),
      fetchAll: () => [],
    };
    const client = new ServiceClient({
      baseUrl: 'https://service.example',
      token,
      transport,
      sleep: () => {},
    });
    const error = errorOf(() => page(client));
    expect(error.message).toContain('unknown token [redacted]; you sent "[redacted]"([redacted])');
    expect(error.message).not.toContain(token);
  });
});
