/**
 * The last line of defence before a message reaches a cell, where every editor reads it: the
 * function's name first, and never the token or more of a URL than its host.
 */
import { cellMessage } from '../../src/formulas/custom-functions';
import { ServiceError } from '../../src/api/errors';

const TOKEN = 'xoxp-secret-token-1234';

test('a message quoting the token or a URL with it keeps the words and loses the secret', () => {
  const error = new Error(
    `Exception: Request failed for https://safety.example.com/v1/users.info?%7B%22token%22%3A%22${TOKEN}%22%7D: ${TOKEN}`,
  );
  const message = cellMessage('SAFETY_USER', error, TOKEN);
  expect(message).toBe('SAFETY_USER: Request failed for https://safety.example.com [redacted]');
  expect(message).not.toContain(TOKEN);
});

test('a token quoted twice, in different words, is gone twice', () => {
  const error = new Error(`token_invalid: token "${TOKEN}" is unknown (sent:${TOKEN})`);
  const message = cellMessage('SAFETY_USER', error, TOKEN);
  expect(message).toBe('SAFETY_USER: token_invalid: token "[redacted]" is unknown (sent:[redacted])');
  expect(message).not.toContain(TOKEN);
});

test("the service's identifier and advice come through as they are, named once", () => {
  const error = new ServiceError('users.info', 'rate_limit_exceeded', undefined, 'R42');
  expect(cellMessage('SAFETY_USER', error, TOKEN)).toBe(
    'SAFETY_USER: users.info: rate_limit_exceeded. The service is limiting requests for this token. Safety Sync retried; try again in a minute. (request ID R42)',
  );
  expect(cellMessage('SAFETY_USER', new Error('SAFETY_USER: already named'), TOKEN)).toBe(
    'SAFETY_USER: already named',
  );
});

test('whatever is thrown, a short string comes out', () => {
  expect(cellMessage('SAFETY_COMPLETIONS', 'x'.repeat(5000), TOKEN)).toHaveLength(1000);
  expect(cellMessage('SAFETY_COMPLETIONS', undefined, '')).toBe('SAFETY_COMPLETIONS: undefined');
});
