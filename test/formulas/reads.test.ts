/**
 * How a formula spends its 30 seconds: an in-memory service whose every round of requests costs a
 * scripted amount of (fake) time shows when a formula refuses up front, when it stops between
 * rounds, and that it never starts a round it cannot expect to finish inside the budget.
 */
import { ServiceClient } from '../../src/api/client';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/transport';
import { FORMULA_BUDGET_MS, FormulaBudget, FormulaTooLargeError } from '../../src/formulas/budget';
import type { AnswerCache } from '../../src/formulas/cache';
import { type FormulaReader, MAX_FORMULA_PAGES, readCompletions, readUsers } from '../../src/formulas/reads';
import { readCost } from '../../src/api/completion-rounds';

interface FakeService {
  transport: Transport;
  now: () => number;
  requests: string[];
}

/**
 * `total` completions by `users` users (and one instructor); `roundMs(n)` is how long the n-th
 * round of requests (one fetch or fetchAll) takes.
 */
function fakeService(total: number, users: number, roundMs: (round: number) => number): FakeService {
  let nowMs = 0;
  let rounds = 0;
  const requests: string[] = [];
  const answer = (request: HttpRequest): HttpResponse => {
    const method = request.url.slice(request.url.lastIndexOf('/') + 1);
    const data = JSON.parse(request.payload!) as { page?: number; limit?: number; user?: string };
    requests.push(method);
    let body: unknown;
    if (method === 'users.info') body = { ok: true, user: { id: data.user, name: `Name of ${data.user}` } };
    else {
      const limit = data.limit ?? 100;
      const page = data.page ?? 1;
      const records = Array.from(
        { length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) },
        (_, i) => {
          const index = (page - 1) * limit + i;
          return {
            user_id: `u${index % users}`,
            training_id: 't1',
            created: 1_700_000_000 - index,
            dateNumber: 20240101,
            instructor_id: 'i1',
            groupTraining_id: `g${index}`,
          };
        },
      );
      body = {
        ok: true,
        completedtrainings: records,
        paging: { last_page: Math.max(1, Math.ceil(total / limit)) },
      };
    }
    return { status: 200, headers: {}, body: JSON.stringify(body) };
  };
  const round = <T>(work: () => T): T => {
    nowMs += roundMs(++rounds);
    return work();
  };
  return {
    transport: {
      fetch: (request) => round(() => answer(request)),
      fetchAll: (list) => round(() => list.map(answer)),
    },
    now: () => nowMs,
    requests,
  };
}

const noCache: AnswerCache = { getOrFetch: (_method, _params, fetch) => fetch() };

function readerOf(service: FakeService, batchSize = 5): FormulaReader {
  const client = new ServiceClient({
    baseUrl: 'https://service.example',
    token: 'T',
    transport: service.transport,
    sleep: () => {},
  });
  return { client, cache: noCache, budget: new FormulaBudget(service.now), batchSize };
}

function refusal(run: () => unknown): FormulaTooLargeError {
  try {
    run();
  } catch (error) {
    if (error instanceof FormulaTooLargeError) return error;
    throw error;
  }
  throw new Error('expected the formula to refuse');
}

test('work that fits is read whole: every page in batches, then each user once', () => {
  const service = fakeService(12_000, 30, () => 500);
  const answer = readCompletions(readerOf(service), {}, undefined);
  expect(answer.records).toHaveLength(12_000);
  expect(answer.names).toMatchObject({ u0: 'Name of u0', u29: 'Name of u29', i1: 'Name of i1' });
  const pages = service.requests.filter((method) => method === 'completedtrainings.list');
  // Read and confirmed: each pass page 1, then rounds of 5 with the page before them.
  expect(pages).toHaveLength(readCost(12, 5).requests);
  expect(service.requests.filter((method) => method === 'users.info')).toHaveLength(31);
});

test('when page 1 shows the rest cannot fit, nothing more is requested', () => {
  // 16 pages: page 1, then 3 rounds of 5 at 8 s each would end at 32 s.
  const service = fakeService(16_000, 3, () => 8_000);
  const error = refusal(() => readCompletions(readerOf(service), {}, undefined));
  expect(service.requests).toEqual(['completedtrainings.list']);
  expect(error.message).toBe(
    '16 pages to read (about 16,000 records): more than fits in the 30 seconds a formula may run. ' +
      'Narrow it with user_id or training_id, give a limit, or use Safety Sync → Import completed trainings…',
  );
});

test('when rounds turn slow midway, the formula stops before a round that would overrun the budget', () => {
  // Page 1 is quick, so the plan fits; then each round takes 9 s: two fit (1 + 9 + 9 = 19 s), a
  // third would end at 28 s.
  const service = fakeService(16_000, 3, (round) => (round === 1 ? 1_000 : 9_000));
  refusal(() => readCompletions(readerOf(service), {}, undefined));
  // Each round asks again for the page before its five.
  expect(service.requests).toHaveLength(1 + 6 + 6);
  expect(service.now()).toBeLessThanOrEqual(FORMULA_BUDGET_MS);
});

test('more pages than a formula may hold are refused after page 1 however fast the service is', () => {
  const service = fakeService((MAX_FORMULA_PAGES + 1) * 1000, 3, () => 1);
  expect(refusal(() => readCompletions(readerOf(service), {}, undefined)).message).toMatch(
    /^51 pages to read/,
  );
  expect(service.requests).toHaveLength(1);
});

test('with a limit one page of that size is read', () => {
  const service = fakeService(5_000, 2, () => 100);
  const answer = readCompletions(readerOf(service), {}, 25);
  expect(answer.records).toHaveLength(25);
  expect(service.requests).toEqual(['completedtrainings.list', 'users.info', 'users.info', 'users.info']);
});

test('users too many to look up in time are refused before the round that would overrun', () => {
  const service = fakeService(0, 1, () => 6_000);
  const ids = Array.from({ length: 40 }, (_, i) => `u${i}`);
  // Rounds of 5 at 6 s: four fit (24 s), the fifth would not.
  const error = refusal(() => readUsers(readerOf(service), ids));
  expect(error.message).toMatch(/^40 users to look up: more than fits in the 30 seconds a formula may run/);
  expect(service.requests).toHaveLength(20);
});
