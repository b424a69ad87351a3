/**
 * The service's failures in words, on their own (src/api/errors.ts): the sentence each failure
 * shows a user (what happened, what to do, the request ID), where a redirect points without quoting
 * more than its host, which failures are a rate limit or worth retrying, and the scrubbing that keeps
 * the token and request URLs out of every message. The built add-on showing these is driven in
 * test/api/client, test/api/redirects and test/platform/token-exposure.
 */
import {
  describeRedirect,
  InvalidParameterError,
  isRateLimit,
  isRetryable,
  redact,
  scrub,
  SERVICE_ERROR_IDS,
  ServiceError,
  TransportError,
  type TransportFailureKind,
} from '../../src/api/errors';

const TOKEN = 'tok_5ecret-Value';

describe('a service error', () => {
  /** The sentence after "method: identifier. " for each identifier the service documents. */
  const ADVICE: Record<(typeof SERVICE_ERROR_IDS)[number], string> = {
    api_method_not_found:
      'The service does not know this method. Check the base URL in Safety Sync → Settings (it should end before /v1).',
    request_method_invalid: 'The service refused the HTTP method. Update Safety Sync, then try again.',
    request_data_invalid: 'The service could not read the request. Update Safety Sync, then try again.',
    rate_limit_exceeded:
      'The service is limiting requests for this token. Safety Sync retried; try again in a minute.',
    token_missing: 'No API token was sent. Paste your token in Safety Sync → Settings.',
    token_invalid:
      'The service does not recognise the API token. Paste a new token in Safety Sync → Settings.',
    token_inactive:
      'The API token has been deactivated. Create a new token in the service and paste it in Safety Sync → Settings.',
    token_permission:
      'The API token lacks the permission this needs. Ask your administrator for a token with that permission.',
    account_inactive:
      'The service account behind this token is not active. Ask your administrator to reactivate it.',
    parameter_unexpected: 'The service does not accept a parameter that was sent. Update Safety Sync.',
    parameter_missing: 'A required parameter was not sent. Update Safety Sync.',
    parameter_invalid: 'The service refused a parameter value. Check the filter values you entered.',
    server_error: 'The service had an internal error. Safety Sync retried; try again later.',
    content_not_found: 'The service found nothing under that identifier. Check the id you entered.',
  };

  test.each(SERVICE_ERROR_IDS.map((id) => [id]))('%s says what to do', (id) => {
    expect(new ServiceError('users.info', id, undefined, undefined).message).toBe(
      `users.info: ${id}. ${ADVICE[id]}`,
    );
  });

  test('an identifier the add-on does not know still says what to do', () => {
    expect(new ServiceError('trainings.list', 'quota_melted', undefined, undefined).message).toBe(
      'trainings.list: quota_melted. The service reported an error Safety Sync does not know. Try again later, or contact its support.',
    );
  });

  test("quotes the service's description and its request ID when there are any", () => {
    const error = new ServiceError('users.info', 'parameter_invalid', 'user_id must be numeric', 'req-42');
    expect(error.message).toBe(
      `users.info: parameter_invalid. ${ADVICE.parameter_invalid} The service said: user_id must be numeric (request ID req-42)`,
    );
    expect(error).toMatchObject({
      name: 'ServiceError',
      apiMethod: 'users.info',
      identifier: 'parameter_invalid',
      description: 'user_id must be numeric',
      requestId: 'req-42',
    });
    // An empty description or request ID adds nothing.
    expect(new ServiceError('users.info', 'server_error', '', '').message).toBe(
      `users.info: server_error. ${ADVICE.server_error}`,
    );
  });
});

describe('a transport failure', () => {
  const ADVICE: Record<TransportFailureKind, string> = {
    unreachable:
      'Could not reach the service. Check the base URL in Safety Sync → Settings and your network, then try again.',
    http_status:
      'The service (or a proxy in front of it) answered with an HTTP error. Safety Sync retried; try again in a few minutes.',
    redirect:
      'Check the service base URL in Safety Sync → Settings… (it may need https:// or a different host).',
    not_json:
      "The answer was not the service's JSON (often a proxy error page or a cut-off response). Safety Sync retried; try again in a few minutes.",
    not_envelope:
      "The answer was JSON but not from this service's API. Check the base URL in Safety Sync → Settings.",
    unexpected_shape:
      "The service's answer lacks fields Safety Sync needs. The service may have changed; contact Safety Sync support.",
  };

  test.each(Object.keys(ADVICE).map((kind) => [kind as TransportFailureKind]))(
    '%s says what happened and what to do',
    (kind) => {
      expect(new TransportError('equipment.list', kind, 'it went wrong').message).toBe(
        `equipment.list: it went wrong. ${ADVICE[kind]}`,
      );
    },
  );

  test('carries its request ID and HTTP status', () => {
    const error = new TransportError('equipment.list', 'http_status', 'HTTP 502', 'req-7', 502);
    expect(error.message).toBe(`equipment.list: HTTP 502. ${ADVICE.http_status} (request ID req-7)`);
    expect(error).toMatchObject({
      name: 'TransportError',
      kind: 'http_status',
      apiMethod: 'equipment.list',
      requestId: 'req-7',
      httpStatus: 502,
    });
  });
});

describe('a redirect', () => {
  const said = (location: string | undefined) => describeRedirect(302, location);
  const sentence = (target: string) =>
    `the service answered 302 (${target}), which Safety Sync does not follow: the request carries your token`;

  test('names only the host it points to, lower-cased, port kept, no user, path, query or fragment', () => {
    expect(said(`https://User:${TOKEN}@Login.Example.COM:8443/sso?token=${TOKEN}#top`)).toBe(
      sentence('a redirect to login.example.com:8443'),
    );
    expect(said(`  HTTP://proxy.example.net?next=${TOKEN}  `)).toBe(
      sentence('a redirect to proxy.example.net'),
    );
    expect(said('https://mirror.example.org#v1')).toBe(sentence('a redirect to mirror.example.org'));
    expect(said('https://mirror.example.org\\evil.example')).toBe(
      sentence('a redirect to mirror.example.org'),
    );
    expect(said('git+ssh.v2-x://code.example.io/repo')).toBe(sentence('a redirect to code.example.io'));
    expect(said('https://[::1]:8080/x')).toBe(sentence('a redirect to [::1]:8080'));
  });

  test('to a scheme-relative address: its host', () => {
    expect(describeRedirect(301, '//cdn.example.net/v1/users.list?token=x')).toBe(
      'the service answered 301 (a redirect to cdn.example.net), which Safety Sync does not follow: the request carries your token',
    );
  });

  test('without a host of its own: another address of the service', () => {
    for (const location of [
      `/v1/users.list?token=${TOKEN}`,
      'v2/users.list',
      '1http://elsewhere.example/',
      `mailto:${TOKEN}@x.example`,
    ]) {
      expect(said(location)).toBe(sentence('a redirect to another address of the service'));
    }
  });

  test('without a Location: says so', () => {
    expect(said(undefined)).toBe(sentence('a redirect without a Location'));
    expect(said('')).toBe(sentence('a redirect without a Location'));
  });

  test('to a host that is no plain name: quotes nothing of it', () => {
    for (const location of [
      `https://${TOKEN}%40evil.example/`,
      'https://ex ample.com/',
      'https:///nothing-before-the-path',
      `https://${'a'.repeat(256)}.example/`,
    ]) {
      expect(said(location)).toBe(sentence('a redirect to an address Safety Sync cannot read'));
    }
    // The longest host a name may have is still named.
    const longest = 'b'.repeat(255);
    expect(said(`https://${longest}/`)).toBe(sentence(`a redirect to ${longest}`));
  });
});

test('a value refused before sending says so, and which', () => {
  const error = new InvalidParameterError('Since', 'must be a date like 2024-01-31');
  expect(error.message).toBe('Since must be a date like 2024-01-31. Nothing was sent to the service.');
  expect(error).toMatchObject({ name: 'InvalidParameterError', parameter: 'Since' });
});

describe('a rate limit', () => {
  test("is the service's rate_limit_exceeded, an HTTP 429, or Apps Script's refusal of a burst of fetches", () => {
    expect(isRateLimit(new ServiceError('m', 'rate_limit_exceeded', undefined, undefined))).toBe(true);
    expect(isRateLimit(new TransportError('m', 'http_status', 'HTTP 429', undefined, 429))).toBe(true);
    const burst =
      'Exception: Service invoked too many times in a short time: URLFetch. Try Utilities.sleep(1000) between calls.';
    expect(isRateLimit(new TransportError('m', 'unreachable', burst))).toBe(true);
  });

  test('is nothing else: another service error or status, the daily quota, another kind, not our errors', () => {
    expect(isRateLimit(new ServiceError('m', 'server_error', undefined, undefined))).toBe(false);
    expect(isRateLimit(new TransportError('m', 'http_status', 'HTTP 503', undefined, 503))).toBe(false);
    expect(
      isRateLimit(
        new TransportError('m', 'unreachable', 'Service invoked too many times for one day: urlfetch'),
      ),
    ).toBe(false);
    // A proxy page quoting Apps Script's words is still no burst refusal.
    expect(
      isRateLimit(
        new TransportError(
          'm',
          'not_json',
          'invoked too many times in a short time: urlfetch',
          undefined,
          429,
        ),
      ),
    ).toBe(false);
    expect(isRateLimit(new Error('invoked too many times in a short time: urlfetch'))).toBe(false);
    expect(isRateLimit('rate_limit_exceeded')).toBe(false);
    // A script may throw anything, nothing at all included; another library's error may look alike.
    expect(isRateLimit(undefined)).toBe(false);
    expect(isRateLimit({ kind: 'http_status', httpStatus: 429 })).toBe(false);
  });
});

test('only an unreachable service, an HTTP error, a cut-off answer, a rate limit or a server error is retried', () => {
  const transport = (kind: TransportFailureKind) => isRetryable(new TransportError('m', kind, 'x'));
  expect(
    ['unreachable', 'http_status', 'not_json'].map((kind) => transport(kind as TransportFailureKind)),
  ).toEqual([true, true, true]);
  expect(
    ['redirect', 'not_envelope', 'unexpected_shape'].map((kind) => transport(kind as TransportFailureKind)),
  ).toEqual([false, false, false]);
  const service = (id: string) => isRetryable(new ServiceError('m', id, undefined, undefined));
  expect(service('rate_limit_exceeded')).toBe(true);
  expect(service('server_error')).toBe(true);
  expect(service('token_invalid')).toBe(false);
  expect(isRetryable(new InvalidParameterError('Since', 'is wrong'))).toBe(false);
  expect(isRetryable(new Error('unreachable'))).toBe(false);
  expect(isRetryable(null)).toBe(false);
  expect(isRetryable({ identifier: 'server_error' })).toBe(false);
});

describe('scrubbing', () => {
  test('removes every copy of the token', () => {
    expect(redact(`${TOKEN} and again ${TOKEN}`, TOKEN)).toBe('[redacted] and again [redacted]');
    expect(scrub(`bad token ${TOKEN}; ${TOKEN}`, TOKEN)).toBe('bad token [redacted]; [redacted]');
  });

  test('with no token known, leaves the text as it is', () => {
    expect(redact('nothing secret here', '')).toBe('nothing secret here');
    expect(scrub('nothing secret here', '')).toBe('nothing secret here');
  });

  test('cuts every URL to its origin, whatever its case, and keeps the words around it', () => {
    expect(
      scrub(
        'Exception: Request failed for https://svc.example.com/v1/users.list?token=abc returned code 500; ' +
          'see HTTP://Status.Example.org/incidents#today or http://10.0.0.1:8080?q=1.',
        '',
      ),
    ).toBe(
      'Request failed for https://svc.example.com returned code 500; see HTTP://Status.Example.org or http://10.0.0.1:8080',
    );
  });

  test("drops Apps Script's Exception: or Error: prefix, only at the start", () => {
    expect(scrub('Exception:   Address unavailable', '')).toBe('Address unavailable');
    expect(scrub('Error: timed out', '')).toBe('timed out');
    expect(scrub('Fetch failed. Exception: later', '')).toBe('Fetch failed. Exception: later');
  });

  test('a token inside a URL goes with the URL, and one outside it is redacted', () => {
    expect(scrub(`Exception: https://svc.example.com/v1/x?token=${TOKEN} refused ${TOKEN}`, TOKEN)).toBe(
      'https://svc.example.com refused [redacted]',
    );
  });
});
