/**
 * Paging through every completed training against the sample service: exact records in service
 * order, each page read and confirmed (one request for a single page), parallel batches, and no record lost or doubled when completions
 * arrive while the pages are read.
 */
import { nodeTransport } from '../../dev/http/node-transport';
import { ServiceClient } from '../../src/api/client';
import { completionKey } from '../../src/api/completion-key';
import { readCost } from '../../src/api/completion-rounds';
import { fetchRecentCompletions } from '../../src/api/completions';
import { checkFilter, checkLimit, checkPage } from '../../src/api/completions-contract';
import { InvalidParameterError } from '../../src/api/errors';
import type { Completion } from '../../src/api/schemas';
import type { Transport } from '../../src/api/transport';
import { readAllCompletions } from '../support/read-all-completions';
import { SampleDataset, sampleServiceUrl } from '../support/sample-service';

/** The sample service's records as the contract types them (anomalies aside). */
const keyOf = (record: unknown) => completionKey(record as Completion);

/**
 * More requests than any read here needs (25,000 records are 26 pages a pass): past it, a read that
 * does not end fails at once instead of paging forever.
 */
const MAX_REQUESTS = 2_000;

function clientFor(token: string): ServiceClient {
  let sent = 0;
  const transport: Transport = {
    fetch: (request) => transport.fetchAll([request])[0]!,
    fetchAll: (requests) => {
      sent += requests.length;
      if (sent > MAX_REQUESTS) throw new Error(`The read sent more than ${MAX_REQUESTS} requests.`);
      return nodeTransport.fetchAll(requests);
    },
  };
  return new ServiceClient({ baseUrl: sampleServiceUrl(), token, transport, sleep: () => {} });
}

async function completionRequests(dataset: SampleDataset) {
  const { requests } = await dataset.requestLog();
  return requests.filter((request) => request.method === 'completedtrainings.list');
}

describe.each([0, 1, 999, 1000, 1001, 25_000])('%i completions', (count) => {
  let dataset: SampleDataset;
  beforeAll(async () => {
    dataset = await SampleDataset.create({ seed: count + 3, completions: count, users: 40 });
  });
  afterAll(() => dataset.delete());

  test('every record, in service order, each page read and then confirmed (page 1 alone for one page)', async () => {
    const client = clientFor(dataset.tokens.valid);
    const result = readAllCompletions(client, {}, 10);
    const expected = (await dataset.data()).completions;
    expect(result.records).toEqual(expected);
    expect(result.rejected).toEqual([]);
    const requests = await completionRequests(dataset);
    const pages = Math.max(1, Math.ceil(count / 1000));
    expect(requests).toHaveLength(readCost(pages, 10).requests);
    expect(requests.map((request) => request.params.limit)).toEqual(requests.map(() => 1000));
    // Every page, each as many times as the two passes ask for it.
    expect(new Set(requests.map((request) => request.params.page)).size).toBe(pages);
  });
});

test('pages after the first go out in parallel batches of the configured size', async () => {
  const dataset = await SampleDataset.create({ seed: 11, completions: 9_500, latencyMs: 50 });
  const client = clientFor(dataset.tokens.valid);
  readAllCompletions(client, {}, 4);
  const log = await dataset.requestLog();
  expect(log.requests).toHaveLength(readCost(10, 4).requests);
  // Page 1, then batches of 4, 4 and 1, each with the page before it: never more than 5 at once.
  expect(log.maxInFlight).toBe(5);
  await dataset.delete();
});

test('filters narrow the records and are sent as given', async () => {
  const dataset = await SampleDataset.create({ seed: 5, completions: 3_000, users: 20, trainings: 5 });
  const all = (await dataset.data()).completions;
  const trainingId = all[0]!.training_id;
  const result = readAllCompletions(clientFor(dataset.tokens.valid), { training_id: trainingId }, 10);
  expect(result.records).toEqual(all.filter((record) => record.training_id === trainingId));
  const requests = await completionRequests(dataset);
  expect(requests[0]!.params).toMatchObject({ training_id: trainingId });
  await dataset.delete();
});

describe('completions recorded while the pages are read', () => {
  test.each([1, 2, 3, 6, 11])('inserted after request %i: none lost, none doubled', async (afterRequests) => {
    const dataset = await SampleDataset.create({ seed: 21, completions: 12_345, latencyMs: 5 });
    await dataset.setFaults({ latencyMs: 5, insertDuringPaging: { afterRequests, count: 7 } });
    const result = readAllCompletions(clientFor(dataset.tokens.valid), {}, 5);
    const expected = (await dataset.data()).completions;
    expect(expected).toHaveLength(12_352);
    const keys = result.records.map(completionKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(expected.map(keyOf).sort());
    await dataset.delete();
  });
});

test('records of the wrong shape are counted and listed, the rest imported', async () => {
  const dataset = await SampleDataset.create({ seed: 9, completions: 500, anomalies: true });
  const result = readAllCompletions(clientFor(dataset.tokens.valid), {}, 10);
  expect(result.rejected.length).toBeGreaterThan(0);
  expect(result.rejected[0]!.source).toMatch(/^completedtrainings\.list page 1, record \d+$/);
  expect(result.rejected[0]!.problem).toMatch(/dateNumber/);
  const served = (await dataset.data()).completions.length;
  expect(result.records.length + result.rejected.length).toBe(served);
  await dataset.delete();
});

describe('checks before anything is sent', () => {
  test.each([0, 1001, 2.5, Number.NaN])('limit %p is refused', (limit) => {
    expect(() => checkLimit(limit)).toThrow(/limit must be a whole number from 1 to 1000/);
  });
  test.each([0, -1, 1.5])('page %p is refused', (page) => {
    expect(() => checkPage(page)).toThrow(/page must be a whole number of 1 or more/);
  });
  test('the bounds themselves are taken: a limit of 1 or 1,000, page 1', () => {
    expect([checkLimit(1), checkLimit(1000), checkPage(1)]).toEqual([1, 1000, 1]);
  });
  test.each([
    [{ user_id: '' }, /user_id must be a non-empty id/],
    [{ training_id: '   ' }, /training_id must be a non-empty id/],
    [{ user_id: 42 as unknown as string }, /user_id must be a non-empty id/],
  ])('filter %p is refused and no request goes out', async (filter, message) => {
    const dataset = await SampleDataset.create({ seed: 1, completions: 10 });
    const error = (() => {
      try {
        readAllCompletions(clientFor(dataset.tokens.valid), filter, 10);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as Error).message).toMatch(message);
    expect((await dataset.requestLog()).requests).toHaveLength(0);
    await dataset.delete();
  });
  test.each(['  padded  ', '007', '=1+1', 'Mixed Case'])('the id %p is sent exactly as given', (id) => {
    expect(checkFilter({ user_id: id, training_id: id })).toEqual({ user_id: id, training_id: id });
  });
});

test('recent completions: 20 new on top of 100,000 cost one request', async () => {
  const dataset = await SampleDataset.create({ seed: 4, completions: 100_000, users: 500 });
  const newestBefore = Number((await dataset.data()).completions[0]!.dateNumber);
  const { added } = await dataset.mutate({ addCompletions: 20 });
  await dataset.clearRequestLog();
  const since = newestBefore - 7; // the overlap; exact calendar arithmetic is not needed for this bound
  const result = fetchRecentCompletions(clientFor(dataset.tokens.valid), {}, since);
  const keys = new Set(result.records.map(completionKey));
  expect(added.every((record) => keys.has(keyOf(record)))).toBe(true);
  expect(await completionRequests(dataset)).toHaveLength(1);
  await dataset.delete();
});
