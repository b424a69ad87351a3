/**
 * The paging algorithm when one batch is answered on both sides of a change: the service sees a new
 * completion between the answers to pages of the same fetchAll, so a lower page is read after the
 * change and a higher one before it, and without care the records between them would be lost. The
 * sample service answers in arrival order and never produces this interleaving, so an in-memory
 * service with a scripted order of snapshots stands in here.
 */
import { ServiceClient } from '../../src/api/client';
import { completionKey } from '../../src/api/completion-key';
import type { Completion } from '../../src/api/schemas';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/transport';
import { readAllCompletions } from '../support/read-all-completions';

function completion(index: number): Completion {
  return {
    user_id: `u${index % 7}`,
    training_id: `t${index % 3}`,
    created: 1_700_000_000 - index * 60,
    dateNumber: 20240101,
    instructor_id: 'i1',
    groupTraining_id: `g${index}`,
  };
}

/** Newest first: the inserted records go on top and push every page down. */
function snapshot(total: number, inserted: number): Completion[] {
  const fresh = Array.from({ length: inserted }, (_, i) => completion(-1 - i));
  return [...fresh, ...Array.from({ length: total }, (_, i) => completion(i))];
}

function pageOf(records: Completion[], page: number): HttpResponse {
  const lastPage = Math.max(1, Math.ceil(records.length / 1000));
  const body = {
    ok: true,
    completedtrainings: records.slice((page - 1) * 1000, page * 1000),
    paging: { page, last_page: lastPage },
  };
  return { status: 200, headers: {}, body: JSON.stringify(body) };
}

/**
 * Answers each request from the snapshot the script names for it, in order of arrival:
 * 'before' or 'after' the insertion of `inserted` records.
 */
function scriptedService(total: number, inserted: number, script: Array<'before' | 'after'>): Transport {
  let served = 0;
  const answer = (request: HttpRequest) => {
    const moment = script[served++] ?? 'after';
    const { page } = JSON.parse(request.payload!) as { page: number };
    return pageOf(snapshot(total, moment === 'after' ? inserted : 0), page);
  };
  return { fetch: answer, fetchAll: (requests) => requests.map(answer) };
}

test('a batch whose lower page saw a new record and whose higher pages did not is read again', () => {
  // Page 1 before; in the batch of pages 2–6, page 2 after the insertion, pages 3–6 before it.
  const script: Array<'before' | 'after'> = ['before', 'after', 'before', 'before', 'before', 'before'];
  const transport = scriptedService(5_500, 3, script);
  const client = new ServiceClient({
    baseUrl: 'https://service.example',
    token: 'T',
    transport,
    sleep: () => {},
  });
  const result = readAllCompletions(client, {}, 5);
  const expected = snapshot(5_500, 3).map(completionKey).sort();
  expect(result.records.map(completionKey).sort()).toEqual(expected);
  // Page 1; the batch until two reads agree (the second still overlaps page 1, as any read after an
  // insertion does, so only a third read shows it is stable); then pages 1–2 for the new records.
  expect(client.stats.requests).toBe(1 + 3 * 5 + 2);
});

test('records that keep changing on every read end the run with a clear error, not a silent gap', () => {
  let reads = 0;
  const answer = (request: HttpRequest) => {
    const { page } = JSON.parse(request.payload!) as { page: number };
    reads++;
    return pageOf(snapshot(3_500, reads), page);
  };
  const client = new ServiceClient({
    baseUrl: 'https://service.example',
    token: 'T',
    transport: { fetch: answer, fetchAll: (requests) => requests.map(answer) },
    sleep: () => {},
  });
  expect(() => readAllCompletions(client, {}, 5)).toThrow(
    /records kept changing while they were read.*Try again in a few minutes/,
  );
});

function clientOf(transport: Transport): ServiceClient {
  return new ServiceClient({ baseUrl: 'https://service.example', token: 'T', transport, sleep: () => {} });
}

test('a record the service holds twice is one record and costs no extra read', () => {
  const records = Array.from({ length: 2_500 }, (_, i) => completion(i));
  // The same completion twice in page 2 (identical in every field: indistinguishable).
  records.splice(1_500, 0, { ...records[1_500]! });
  const answer = (request: HttpRequest) =>
    pageOf(records, (JSON.parse(request.payload!) as { page: number }).page);
  const client = clientOf({ fetch: answer, fetchAll: (requests) => requests.map(answer) });

  const result = readAllCompletions(client, {}, 5);

  expect(result.records).toHaveLength(2_500);
  expect(new Set(result.records.map(completionKey)).size).toBe(2_500);
  // Pages 1–3 once each: no batch read again, no catch-up from page 1.
  expect(client.stats.requests).toBe(3);
});

test('a shift of more than a page between batches loses and doubles nothing', () => {
  // Pages 1 and 2 before 1,200 completions arrive on top; every later request after.
  const client = clientOf(scriptedService(3_500, 1_200, ['before', 'before']));

  const result = readAllCompletions(client, {}, 1);

  const keys = result.records.map(completionKey);
  expect(keys).toHaveLength(4_700);
  expect(new Set(keys)).toEqual(new Set(snapshot(3_500, 1_200).map(completionKey)));
});
