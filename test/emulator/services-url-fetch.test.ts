/**
 * UrlFetchApp over real HTTP to a server in a child process (UrlFetchApp blocks this thread).
 */
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { EchoedRequest } from './fixtures/http-test-server';
import { emulate } from './fixtures/script-emulator';

let server: ChildProcess;
let base: string;

interface JsonResult<Body = EchoedRequest> {
  code: number;
  body: Body;
  contentType: string;
}

interface RawResult {
  code: number;
  text: string;
  headers: Record<string, string>;
  allHeaders: Record<string, string | string[]>;
  bytes: number[];
}

beforeAll(async () => {
  server = fork(path.join(__dirname, 'fixtures', 'http-test-server.ts'), {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve) =>
    server.once('message', (message: { port: number }) => resolve(message.port)),
  );
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  server.disconnect();
});

const SCRIPT = `
  function fetchJson(url, params) {
    var response = UrlFetchApp.fetch(url, params);
    return { code: response.getResponseCode(), body: JSON.parse(response.getContentText()),
             contentType: response.getHeaders()['content-type'] };
  }
  function fetchRaw(url, params) {
    var response = UrlFetchApp.fetch(url, params);
    return { code: response.getResponseCode(), text: response.getContentText(), headers: response.getHeaders(),
             allHeaders: response.getAllHeaders(), bytes: response.getContent().slice(0, 3) };
  }
  function fetchAllPaths(urls) {
    return UrlFetchApp.fetchAll(urls).map(function (response) { return JSON.parse(response.getContentText()).path; });
  }
  function fetchCount(url, count) {
    var requests = [];
    for (var i = 0; i < count; i++) requests.push({ url: url, muteHttpExceptions: true });
    return UrlFetchApp.fetchAll(requests).length;
  }
  function describeRequest(url, params) { return UrlFetchApp.getRequest(url, params); }
`;

describe('UrlFetchApp.fetch', () => {
  it('GETs by default, with Apps Script’s user agent', () => {
    const emulator = emulate(SCRIPT);
    const result = emulator.run('fetchJson', [`${base}/echo?a=1`]) as JsonResult;
    expect(result.code).toBe(200);
    expect(result.body.method).toBe('GET');
    expect(result.body.url).toBe('/echo?a=1');
    expect(result.body.headers['user-agent']).toContain('Google-Apps-Script');
  });

  it('POSTs a string payload as is, with the content type asked for', () => {
    const emulator = emulate(SCRIPT);
    const payload = JSON.stringify({ token: 't0k3n', page: 2 });
    const result = emulator.run('fetchJson', [
      `${base}/echo`,
      { method: 'post', contentType: 'application/json', payload, headers: { 'X-Trace': 'abc' } },
    ]) as JsonResult;
    expect(result.body).toMatchObject({ method: 'POST', body: payload });
    expect(result.body.headers).toMatchObject({ 'content-type': 'application/json', 'x-trace': 'abc' });
    expect(emulator.urlFetch.requests).toEqual([
      expect.objectContaining({ method: 'POST', url: `${base}/echo`, payload, user: 'owner@example.com' }),
    ]);
  });

  it('sends a string payload without content type as a form, and an object payload form-encoded', () => {
    const emulator = emulate(SCRIPT);
    const raw = emulator.run('fetchJson', [`${base}/echo`, { method: 'put', payload: 'x=1' }]) as JsonResult;
    expect(raw.body.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = emulator.run('fetchJson', [
      `${base}/echo`,
      { method: 'post', payload: { name: 'Ada Lovelace', note: 'a&b=c' } },
    ]) as JsonResult;
    expect(form.body.body).toBe('name=Ada+Lovelace&note=a%26b%3Dc');
    expect(form.body.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('throws for a status of 400 or more unless muted, without the query in the message', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('fetchRaw', [`${base}/status/404?token=secret`])).toThrow(
      `Request failed for ${base}/status/404 returned code 404. Truncated server response: ${'E'.repeat(100)}... ` +
        '(use muteHttpExceptions option to examine full response)',
    );
    const muted = emulator.run('fetchRaw', [`${base}/status/503`, { muteHttpExceptions: true }]) as RawResult;
    expect(muted.code).toBe(503);
    expect(muted.text).toHaveLength(150);
  });

  it('throws for a network failure even when muted', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('fetchRaw', ['http://127.0.0.1:1/x', { muteHttpExceptions: true }])).toThrow(
      'Address unavailable: http://127.0.0.1:1',
    );
    expect(() =>
      emulator.run('fetchRaw', ['http://nonexistent.invalid/', { muteHttpExceptions: true }]),
    ).toThrow('DNS error: http://nonexistent.invalid');
  });

  it('follows redirects unless told not to', () => {
    const emulator = emulate(SCRIPT);
    const followed = emulator.run('fetchJson', [`${base}/redirect?to=/echo%3Fhop%3D1`]) as JsonResult;
    expect(followed.body.url).toBe('/echo?hop=1');
    const stopped = emulator.run('fetchRaw', [
      `${base}/redirect?to=/echo`,
      { followRedirects: false },
    ]) as RawResult;
    expect(stopped.code).toBe(302);
  });

  it.each([
    [307, 'POST', 'secret=1'],
    [308, 'POST', 'secret=1'],
    [301, 'GET', ''],
    [302, 'GET', ''],
    [303, 'GET', ''],
  ])(
    'a %i is followed with %s and the payload %j, each hop a request of its own; not followed when told not to',
    (status, method, body) => {
      const emulator = emulate(SCRIPT);
      // Another port stands for another host: what a redirect to it sends is what that host receives.
      const target = `${base.replace('127.0.0.1', 'localhost')}/echo`;
      const from = `${base}/redirect?status=${status}&to=${encodeURIComponent(target)}`;
      const post = { method: 'post', payload: 'secret=1' };
      const followed = emulator.run('fetchJson', [from, post]) as JsonResult;
      expect([followed.body.method, followed.body.body]).toEqual([method, body]);
      expect(emulator.urlFetch.requests.map(({ method, url, payload }) => [method, url, payload])).toEqual([
        ['POST', from, 'secret=1'],
        [method, target, body || undefined],
      ]);
      const stopped = emulator.run('fetchRaw', [from, { ...post, followRedirects: false }]) as RawResult;
      expect(stopped.code).toBe(status);
      expect(stopped.headers['location']).toBe(target);
      expect(emulator.urlFetch.requests).toHaveLength(3);
    },
  );

  it('gives headers one value per name, all headers with arrays for repeated ones, and content as signed bytes', () => {
    const emulator = emulate(SCRIPT);
    const result = emulator.run('fetchRaw', [`${base}/cookies`]) as RawResult;
    expect(result.headers['set-cookie']).toBe('a=1');
    expect(result.allHeaders['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(result.bytes).toEqual([111, 107]);
  });

  it('refuses URLs longer than 2 KB, unknown options and headers Google sets itself', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('fetchRaw', [`${base}/echo?q=${'x'.repeat(2048)}`])).toThrow(
      'Limit exceeded: URLFetch URL Length.',
    );
    expect(() => emulator.run('fetchRaw', [`${base}/echo`, { mutHttpExceptions: true }])).toThrow(
      'Invalid argument: unknown UrlFetchApp option mutHttpExceptions',
    );
    expect(() => emulator.run('fetchRaw', [`${base}/echo`, { headers: { Host: 'elsewhere' } }])).toThrow(
      'Attribute provided with invalid value: Header:Host',
    );
    expect(() => emulator.run('fetchRaw', ['ftp://example.com/file'])).toThrow(
      'Invalid argument: ftp://example.com/file',
    );
    expect(emulator.urlFetch.requests).toHaveLength(0);
  });
});

describe('UrlFetchApp.fetchAll', () => {
  it('runs the requests concurrently and returns the responses in request order', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('fetchRaw', [`${base}/reset`]);
    const paths = emulator.run('fetchAllPaths', [
      [`${base}/slow?ms=300`, `${base}/slow?ms=10`, `${base}/slow?ms=200`, `${base}/slow?ms=100`],
    ]);
    expect(paths).toEqual(['/slow?ms=300', '/slow?ms=10', '/slow?ms=200', '/slow?ms=100']);
    const stats = emulator.run('fetchJson', [`${base}/stats`]) as JsonResult<{ maxInFlight: number }>;
    expect(stats.body.maxInFlight).toBe(4);
  });

  it('records when each request was sent and when the script got its answer, the emulated round trip included', () => {
    const emulator = emulate(SCRIPT, { urlFetchRoundTripMs: 1_000 });
    emulator.run('fetchAllPaths', [[`${base}/slow?ms=200`, `${base}/slow?ms=10`]]);
    const [slow, fast] = emulator.urlFetch.requests;
    expect(slow!.answeredAtMs! - slow!.atMs).toBeGreaterThanOrEqual(1_200);
    // The script waits for the whole fetchAll: both answers reach it at the same moment.
    expect(fast!.answeredAtMs).toBe(slow!.answeredAtMs);
    const sentAt = emulator.clock.now();
    emulator.run('fetchRaw', [`${base}/echo`]);
    expect(emulator.urlFetch.requests[2]!.atMs).toBeGreaterThanOrEqual(sentAt);
    expect(emulator.urlFetch.requests[2]!.answeredAtMs).toBeGreaterThanOrEqual(sentAt + 1_000);
  });

  it('counts every request against the daily quota', () => {
    const emulator = emulate(SCRIPT, { urlFetchDailyQuota: 5 });
    expect(emulator.run('fetchCount', [`${base}/echo`, 4])).toBe(4);
    expect(() => emulator.run('fetchCount', [`${base}/echo`, 2])).toThrow(
      'Service invoked too many times for one day: urlfetch.',
    );
    expect(emulator.run('fetchCount', [`${base}/echo`, 1])).toBe(1);
    expect(emulator.urlFetch.usedToday('owner@example.com', emulator.clock.now())).toBe(5);
    emulator.clock.advance(24 * 3_600_000);
    expect(emulator.run('fetchCount', [`${base}/echo`, 5])).toBe(5);
  });
});

describe('UrlFetchApp.getRequest', () => {
  it('shows the request that would be sent, without sending it', () => {
    const emulator = emulate(SCRIPT);
    expect(
      emulator.run('describeRequest', [`${base}/echo`, { method: 'post', payload: 'a=1' }]),
    ).toMatchObject({
      url: `${base}/echo`,
      method: 'post',
      payload: 'a=1',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(emulator.urlFetch.requests).toHaveLength(0);
  });
});
