/**
 * Rounds of requests against a service that limits how many requests of a token it takes at once:
 * after a round it partly refused with rate_limit_exceeded, the rounds that follow are half as large,
 * and what was refused is asked again, so the read still ends with every record.
 */
import { ServiceClient } from '../../src/api/client';
import { readCompletionPages } from '../../src/api/completions';
import { RoundSize } from '../../src/api/round-size';
import { fetchUsers } from '../../src/api/users';
import type { HttpRequest, HttpResponse } from '../../src/api/transport';

const PAGE_SIZE = 10;

/** A service that answers at most `atOnce` requests of one round and refuses the rest. */
class BurstLimitedService {
  /** The size of each round the client sent, retries included. */
  readonly rounds: number[] = [];

  constructor(
    private readonly records: number,
    private readonly atOnce: number,
  ) {}

  client(): ServiceClient {
    const fetchAll = (requests: HttpRequest[]): HttpResponse[] => {
      this.rounds.push(requests.length);
      return requests.map((request, index) =>
        index < this.atOnce ? this.answer(request) : json({ ok: false, error: 'rate_limit_exceeded' }),
      );
    };
    return new ServiceClient({
      baseUrl: 'https://service.example',
      token: 'T',
      transport: { fetch: (request) => fetchAll([request])[0]!, fetchAll },
      sleep: () => {},
    });
  }

  private answer(request: HttpRequest): HttpResponse {
    const params = JSON.parse(request.payload!) as { page?: number; user?: string };
    if (params.user !== undefined)
      return json({ ok: true, user: { id: params.user, name: `Name ${params.user}` } });
    const page = params.page!;
    const numbers = Array.from({ length: this.records }, (_, index) => index).slice(
      (page - 1) * PAGE_SIZE,
      page * PAGE_SIZE,
    );
    return json({
      ok: true,
      completedtrainings: numbers.map((number) => ({
        user_id: `u${number}`,
        training_id: 't',
        created: 1_700_000_000 - number,
        dateNumber: 20240101,
        instructor_id: 'i',
        groupTraining_id: `g${number}`,
      })),
      paging: { last_page: Math.max(1, Math.ceil(this.records / PAGE_SIZE)) },
    });
  }
}

function json(body: unknown): HttpResponse {
  return { status: 200, headers: {}, body: JSON.stringify(body) };
}

test('a read whose rounds the service partly refuses goes on in rounds half as large, and ends exact', () => {
  const service = new BurstLimitedService(400, 5);
  const client = service.client();
  const read = readCompletionPages(client, { filter: {}, lastPageBefore: 40 }, 16);
  expect(read.done).toBe(true);
  expect(read.records.map((record) => record.groupTraining_id)).toEqual(
    Array.from({ length: 400 }, (_, index) => `g${index}`),
  );
  expect(client.stats.rateLimited).toBeGreaterThan(0);
  // Pages 1–17 (12 refused, asked again in rounds of 12, 7, 2), then anchor + 8 (4 refused), then
  // anchor + 4 from then on: nothing refused.
  expect(service.rounds.slice(0, 6)).toEqual([17, 12, 7, 2, 9, 4]);
  expect(service.rounds.slice(6).every((size) => size <= 5)).toBe(true);
});

test('a service that takes every round keeps the batch size the user set', () => {
  const service = new BurstLimitedService(400, 100);
  readCompletionPages(service.client(), { filter: {}, lastPageBefore: 40 }, 16);
  // Each pass: pages 1–17, then 16 more with page 17, then the last 7 with page 33.
  expect(service.rounds).toEqual([17, 17, 8, 17, 17, 8]);
});

test("users' names are looked up in rounds that shrink the same way", () => {
  const service = new BurstLimitedService(0, 3);
  const client = service.client();
  const ids = Array.from({ length: 30 }, (_, index) => `u${index}`);
  const read = fetchUsers(client, ids, 12);
  expect(read.complete).toBe(true);
  expect([...read.users.keys()].sort()).toEqual([...ids].sort());
  // 12 (9 refused: 9, 6, 3 again), then 6 (3 refused, asked again), then 3 at a time.
  expect(service.rounds.slice(0, 6)).toEqual([12, 9, 6, 3, 6, 3]);
  expect(service.rounds.slice(6).every((size) => size <= 3)).toBe(true);
});

test('a round size never goes below one request, nor above the setting', () => {
  const client = new BurstLimitedService(0, 0).client();
  const size = new RoundSize(client, 3);
  expect(size.next()).toBe(3);
  for (let round = 0; round < 4; round++) {
    client.stats.rateLimited++;
    size.next();
  }
  expect(size.next()).toBe(1);
  expect(() => new RoundSize(client, 101)).toThrow('The batch size must be a whole number from 1 to 100');
});
