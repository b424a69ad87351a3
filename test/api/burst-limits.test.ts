/**
 * Large fetchAlls against a service that limits how many requests of a token it takes at once, and
 * an Apps Script that refuses a burst of fetches: after a fetchAll that met a refusal, the client
 * sends at most half as many requests at once, the retries included, and every read still ends
 * with every record.
 */
import { type ClientOptions, ServiceClient } from '../../src/api/client';
import { readCompletionPages } from '../../src/api/completions';
import { fetchUsers } from '../../src/api/users';
import { userInfoSchema } from '../../src/api/schemas';
import type { HttpRequest, HttpResponse } from '../../src/api/transport';

const PAGE_SIZE = 10;

/**
 * A service that answers at most `atOnce` requests of one fetchAll and refuses the rest with
 * rate_limit_exceeded; or, with `platformBurst`, an Apps Script that throws its burst refusal for
 * a fetchAll of more.
 */
class BurstLimitedService {
  /** The size of each fetchAll (or fetch) the client sent, retries included. */
  readonly sent: number[] = [];
  /** How many of the next requests are refused, whatever comes with them. */
  refuseNext = 0;

  constructor(
    private readonly records: number,
    private readonly atOnce: number,
    private readonly platformBurst = false,
  ) {}

  /** `took`: called as each fetchAll is sent (a test's clock advances there). */
  client(options: Pick<ClientOptions, 'timeLeftMs'> = {}, took: () => void = () => {}): ServiceClient {
    const fetchAll = (requests: HttpRequest[]): HttpResponse[] => {
      this.sent.push(requests.length);
      took();
      if (this.platformBurst && requests.length > this.atOnce)
        throw new Error(
          'Exception: Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.',
        );
      return requests.map((request, index) => {
        const refused = index >= this.atOnce || this.refuseNext > 0;
        if (this.refuseNext > 0) this.refuseNext--;
        return refused ? json({ ok: false, error: 'rate_limit_exceeded' }) : this.answer(request);
      });
    };
    return new ServiceClient({
      baseUrl: 'https://service.example',
      token: 'T',
      transport: { fetch: (request) => fetchAll([request])[0]!, fetchAll },
      sleep: () => {},
      ...options,
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

const allRecords = (count: number) => Array.from({ length: count }, (_, index) => `g${index}`);

test.each([
  ['the service refuses what comes beyond 5 at once', false],
  ['Apps Script refuses a fetchAll of more than 5', true],
])('a read in rounds of 16 pages where %s: fetchAlls half as large, then exact', (_name, platformBurst) => {
  const service = new BurstLimitedService(400, 5, platformBurst);
  const read = readCompletionPages(service.client(), { filter: {}, lastPageBefore: 40 }, 16);
  expect(read.done).toBe(true);
  expect(read.records.map((record) => record.groupTraining_id)).toEqual(allRecords(400));
  // Pages 1–17 in one fetchAll; then at most 8, then at most 4 at once.
  expect(service.sent[0]).toBe(17);
  const limited = service.sent.findIndex((size) => size <= 4);
  expect(service.sent.slice(1, limited).every((size) => size <= 8)).toBe(true);
  expect(service.sent.slice(limited).every((size) => size <= 4)).toBe(true);
});

test('a service that takes every fetchAll gets the batch size the user set', () => {
  const service = new BurstLimitedService(400, 100);
  readCompletionPages(service.client(), { filter: {}, lastPageBefore: 40 }, 16);
  // Each pass: pages 1–17, then 16 more with page 17, then the last 7 with page 33.
  expect(service.sent).toEqual([17, 17, 8, 17, 17, 8]);
});

test("users' names are looked up in fetchAlls that shrink the same way", () => {
  const service = new BurstLimitedService(0, 3);
  const ids = Array.from({ length: 30 }, (_, index) => `u${index}`);
  const read = fetchUsers(service.client(), ids, 12);
  expect(read.complete).toBe(true);
  expect([...read.users.keys()].sort()).toEqual([...ids].sort());
  // 12 (9 refused), the 9 again in fetchAlls of 6 and 3 (3 refused), then 3 at a time.
  expect(service.sent.slice(0, 3)).toEqual([12, 6, 3]);
  expect(service.sent.slice(3).every((size) => size <= 3)).toBe(true);
});

test('a lone request refused (page 1, asked alone) leaves the pages after it in one fetchAll', () => {
  const service = new BurstLimitedService(300, 100);
  service.refuseNext = 1;
  const read = readCompletionPages(service.client(), { filter: {} }, 100);
  expect(read.records.map((record) => record.groupTraining_id)).toEqual(allRecords(300));
  // Page 1, refused, and again; then pages 1–30 at once (page 1 anchoring them), and all 30 again.
  expect(service.sent).toEqual([1, 1, 30, 30]);
});

test('once a refusal splits rounds into several fetchAlls, one that would not end in the time left is not sent', () => {
  let nowMs = 0;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => nowMs);
  try {
    const service = new BurstLimitedService(0, 1);
    // Each fetchAll takes 10 s; the caller has 45 s.
    const client = service.client({ timeLeftMs: () => 45_000 - nowMs }, () => (nowMs += 10_000));
    const lookUp = (ids: string[]) =>
      client.callAll(
        ids.map((user) => ({ apiMethod: 'users.info', params: { user } })),
        userInfoSchema,
      );
    // Two at once, one refused: one at a time from then on, the refused one again at 10–20 s.
    expect(lookUp(['u1', 'u2']).every((outcome) => outcome.ok)).toBe(true);
    // Four more, one at a time: 20–30 s, 30–40 s; a third would end after the 45 s.
    const outcomes = lookUp(['u3', 'u4', 'u5', 'u6']);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, false, false]);
    for (const outcome of outcomes.slice(2))
      expect(!outcome.ok && outcome.error.message).toMatch(/not sent: too little of the run's time was left/);
    expect(service.sent).toEqual([2, 1, 1, 1]);
  } finally {
    clock.mockRestore();
  }
});
