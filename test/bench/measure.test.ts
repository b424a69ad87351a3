/** What the bench reads from the emulator's UrlFetch log: requests by API method and the fetch phase. */
import type { RecordedRequest } from '../../dev/emulator';
import { fetchPhaseMs, requestsByMethod } from '../../dev/bench/measure';

function request(method: string, atMs: number, answeredAtMs: number | undefined): RecordedRequest {
  return {
    method: 'POST',
    url: `http://127.0.0.1:8080/v1/${method}`,
    headers: {},
    payload: '{}',
    user: 'owner@example.com',
    executionId: 1,
    atMs: atMs + 5_000,
    sentAtRealMs: atMs,
    ...(answeredAtMs === undefined
      ? {}
      : { answeredAtMs: answeredAtMs + 9_000, answeredAtRealMs: answeredAtMs }),
  };
}

const log = [
  request('completedtrainings.list', 1_000, 1_100),
  request('completedtrainings.list', 1_150, 1_260),
  request('completedtrainings.list', 1_150, 1_260),
  request('users.info', 1_300, 1_400),
];

test('counts requests by the API method their path names', () => {
  expect(requestsByMethod(log)).toEqual({ 'completedtrainings.list': 3, 'users.info': 1 });
});

test("the fetch phase runs from the first request of a method to the last answer on this machine's clock, time between batches included", () => {
  expect(fetchPhaseMs(log, 'completedtrainings.list')).toBe(260);
  expect(fetchPhaseMs(log, 'users.info')).toBe(100);
  expect(fetchPhaseMs(log, 'equipmenttypes.list')).toBeNull();
});

test('a request without an answer cannot end a fetch phase', () => {
  expect(() => fetchPhaseMs([request('users.info', 1, undefined)], 'users.info')).toThrow('got no answer');
});
