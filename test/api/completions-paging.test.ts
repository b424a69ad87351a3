/**
 * The paging algorithm under change, against an in-memory service whose list changes between any
 * two answers and which answers the pages of one fetchAll in any order (as concurrent requests to a
 * real service may be). The sample service answers in arrival order and changes only at set points;
 * here a seeded generator interleaves inserts on top, records backdated into any page, deletes from
 * any page and identical twins with the reads, and an oracle checks every outcome.
 */
import { ServiceClient } from '../../src/api/client';
import { fetchRecentCompletions, readCompletionPages } from '../../src/api/completions';
import type { Completion } from '../../src/api/schemas';
import { TransportError } from '../../src/api/errors';
import type { HttpRequest, HttpResponse } from '../../src/api/transport';
import { SeededRandom } from '../../dev/sample-service/random';
import { readAllCompletions } from '../support/read-all-completions';

/**
 * The test's own identity of a record: every field, in a fixed order (the add-on's key is its own
 * business; two records are the same record when all their fields are).
 */
function identity(record: Completion): string {
  return JSON.stringify(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The YYYYMMDD date number `days` days before 2024-03-01 (negative: after it). */
function daysBefore(days: number): number {
  const date = new Date(Date.UTC(2024, 2, 1 - days));
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

let made = 0;
/** A new record dated `dateNumber`, unlike every other (ids with spaces and empty ones included). */
function record(dateNumber: number): Completion {
  made++;
  return {
    user_id: made % 5 === 0 ? ` u ${made} ` : `u${made % 7}`,
    training_id: `t${made % 3}`,
    created: 1_700_000_000 + made,
    dateNumber,
    instructor_id: made % 4 === 0 ? '' : 'i1',
    groupTraining_id: `g${made}`,
  };
}

/** A list newest first, changed by the test and served `pageSize` records a page. */
class ChangingService {
  list: Completion[];
  /** Every version of the list, and which version each answer was made from. */
  readonly versions: string[][] = [];
  readonly answeredFrom: Array<{ page: number; version: number; round: number }> = [];
  /** The pages each round (fetch or fetchAll) asked for, in order. */
  readonly rounds: number[][] = [];
  beforeAnswer: (served: number) => void = () => {};
  beforeRound: () => void = () => {};

  constructor(
    initial: Completion[],
    readonly pageSize: number,
    private readonly order: <T>(requests: T[]) => T[] = (requests) => requests,
  ) {
    this.list = initial;
    this.snapshot();
  }

  snapshot(): void {
    this.versions.push(this.list.map(identity));
  }

  client(): ServiceClient {
    const answer = (request: HttpRequest): HttpResponse => {
      this.beforeAnswer(this.answeredFrom.length);
      const { page } = JSON.parse(request.payload!) as { page: number };
      this.answeredFrom.push({ page, version: this.versions.length - 1, round: this.rounds.length - 1 });
      const body = {
        ok: true,
        completedtrainings: this.list.slice((page - 1) * this.pageSize, page * this.pageSize),
        paging: { last_page: Math.max(1, Math.ceil(this.list.length / this.pageSize)) },
      };
      return { status: 200, headers: {}, body: JSON.stringify(body) };
    };
    const fetchAll = (requests: HttpRequest[]) => {
      this.beforeRound();
      // A round is the set of pages it asks for: the order they are sent in is the reader's to choose.
      this.rounds.push(
        requests
          .map((request) => (JSON.parse(request.payload!) as { page: number }).page)
          .sort((a, b) => a - b),
      );
      const answers = new Map<HttpRequest, HttpResponse>();
      for (const request of this.order([...requests])) answers.set(request, answer(request));
      return requests.map((request) => answers.get(request)!);
    };
    return new ServiceClient({
      baseUrl: 'https://service.example',
      token: 'T',
      transport: { fetch: (request) => fetchAll([request])[0]!, fetchAll },
      sleep: () => {},
    });
  }
}

/** `count` records, three a day, the newest `newestDaysBefore` days before 2024-03-01. */
function listOf(count: number, newestDaysBefore = 0): Completion[] {
  return Array.from({ length: count }, (_, index) =>
    record(daysBefore(newestDaysBefore + Math.floor(index / 3))),
  );
}

test('an unchanged list: every record in order, read once and confirmed once', () => {
  const service = new ChangingService(listOf(2_345), 1000);
  const client = service.client();
  const result = readAllCompletions(client, {}, 5);
  expect(result.records).toEqual(service.list);
  // The first pass: page 1, then pages 1–3 (page 1 again tells whether records arrived on top
  // meanwhile); the confirming pass knows there are 3 and asks for them at once.
  expect(service.rounds).toEqual([[1], [1, 2, 3], [1, 2, 3]]);
  expect(client.stats.requests).toBe(7);
});

test('with the last page an earlier read found, page 1 goes out with the pages after it', () => {
  const service = new ChangingService(listOf(4_500), 1000);
  const client = service.client();
  const read = readCompletionPages(client, { filter: {}, lastPageBefore: 5 }, 2);
  expect(read.records).toEqual(service.list);
  // Each pass: pages 1–3, then 4–5 anchored on page 3.
  expect(service.rounds).toEqual([
    [1, 2, 3],
    [3, 4, 5],
    [1, 2, 3],
    [3, 4, 5],
  ]);
  expect(client.stats.requests).toBe(12);
});

test.each([
  ['shrank to 3 pages: the pages beyond its end answer nothing', 2_500, 6, 8],
  ['grew to 5 pages: the rest is read in the rounds that follow', 4_200, 2, 3],
  ['is one page: read once, as without a guess', 700, 4, 8],
])('an earlier read found more or fewer pages: the list %s', (_name, records, lastPageBefore, batchSize) => {
  const service = new ChangingService(listOf(records), 1000);
  const read = readCompletionPages(service.client(), { filter: {}, lastPageBefore }, batchSize);
  expect(read.done).toBe(true);
  expect(read.records).toEqual(service.list);
  if (records <= 1000) expect(service.rounds).toEqual([[1, 2, 3, 4]]);
});

test('a confirming pass that begins in the next execution asks for page 1 with the pages after it', () => {
  const service = new ChangingService(listOf(3_300), 1000);
  const client = service.client();
  let asked = 0;
  // The first pass's two rounds, then a pause before the confirming pass.
  const first = readCompletionPages(client, { filter: {} }, 3, { shouldPause: () => ++asked > 1 });
  expect(first.done).toBe(false);
  const second = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 3);
  expect(second.records).toEqual(service.list);
  expect(service.rounds).toEqual([[1], [1, 2, 3, 4], [1, 2, 3, 4]]);
});

test('one page is one answer: no second read', () => {
  const service = new ChangingService(listOf(999), 1000);
  const client = service.client();
  expect(readAllCompletions(client, {}, 5).records).toEqual(service.list);
  expect(client.stats.requests).toBe(1);
});

test('identical twins stay two records, also across a page boundary', () => {
  const list = listOf(2_500);
  list.splice(1_000, 0, { ...list[999]! });
  list.splice(1_500, 0, { ...list[1_500]! });
  const service = new ChangingService(list, 1000);
  const result = readAllCompletions(service.client(), {}, 5);
  expect(result.records).toHaveLength(2_502);
  expect(result.records).toEqual(list);
});

describe.each([
  ['deleted from a page already read', (list: Completion[]) => list.splice(1_200, 10)],
  [
    'backdated into a page already read',
    (list: Completion[]) => list.splice(1_500, 0, record(daysBefore(500))),
  ],
  [
    'deleted and backdated in the same page, cancelling out',
    (list: Completion[]) => {
      list.splice(1_100, 1);
      list.splice(1_700, 0, record(daysBefore(566)));
    },
  ],
])('a record %s, while later pages are read', (_name, change) => {
  test('ends with the list as it is, exactly', () => {
    const service = new ChangingService(listOf(4_321), 1000);
    // Pages 1 and 2, then the change before the batch of pages 3–5.
    service.beforeAnswer = (served) => {
      if (served === 2) {
        service.list = [...service.list];
        change(service.list);
        service.snapshot();
      }
    };
    const result = readAllCompletions(service.client(), {}, 3);
    expect(result.records).toEqual(service.list);
  });
});

test('a steady stream of records on top (one before every round of requests) still ends, with a list that was', () => {
  const service = new ChangingService(listOf(5_500), 1000);
  service.beforeRound = () => {
    service.list = [record(daysBefore(-1)), ...service.list];
    service.snapshot();
  };
  const result = readAllCompletions(service.client(), {}, 4);
  expect(service.versions.map((version) => version.join('\n'))).toContain(
    result.records.map(identity).join('\n'),
  );
});

test('a record arriving on top while the confirming round is answered: the third pass shows the first pass’s list below it, and the read is exact', () => {
  for (const arriving of [1, 3]) {
    const service = new ChangingService(listOf(2_500), 1000);
    // The confirming pass asks for pages 1–3 in one round; the records arrive before its last answer.
    service.beforeAnswer = (served) => {
      if (served === 5) {
        service.list = [...listOf(arriving, -30), ...service.list];
        service.snapshot();
      }
    };
    const read = readCompletionPages(service.client(), { filter: {} }, 5);
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([[1], [1, 2, 3], [1, 2, 3], [1, 2, 3]]);
  }
});

test('records that change in the middle on every read: the read still ends, after three passes, and says what it could not confirm', () => {
  const original = listOf(3_500);
  const service = new ChangingService([...original], 1000);
  // One record deleted from the middle before every answer: no two passes can ever agree.
  service.beforeAnswer = () => {
    service.list = [...service.list];
    service.list.splice(1_800, 1);
    service.snapshot();
  };
  const read = readCompletionPages(service.client(), { filter: {} }, 5);
  expect(read.done).toBe(true);
  // Three passes: page 1 alone, then all four pages at once, as each later pass knows the last page.
  expect(service.rounds).toEqual([[1], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]);
  expect(read.cursor.unconfirmed).toBeGreaterThan(0);
  const kept = new Set(read.records.map(identity));
  const stillListed = service.list.filter((record) => !kept.has(identity(record)));
  expect(stillListed).toEqual([]);
  // Nothing the service never listed, nothing twice.
  const everListed = new Set(original.map(identity));
  expect(read.records.every((record) => everListed.has(identity(record)))).toBe(true);
  expect(kept.size).toBe(read.records.length);
});

test('a read that settles unconfirmed keeps each record once, wherever either of its last two passes saw it', () => {
  const original = listOf(2_600);
  const service = new ChangingService([...original], 1000);
  let answers = 0;
  // Before every answer a record from the middle goes and a backdated one comes in further down.
  service.beforeAnswer = () => {
    answers++;
    service.list = [...service.list];
    service.list.splice(1_100 + answers, 1);
    service.list.splice(2_000, 0, record(service.list[2_000]!.dateNumber));
    service.snapshot();
  };
  const read = readCompletionPages(service.client(), { filter: {} }, 3);
  expect(read.done).toBe(true);
  expect(read.cursor.unconfirmed).toBeGreaterThan(0);
  const keys = read.records.map(identity);
  expect(new Set(keys).size).toBe(keys.length);
  const first = service.versions[0]!;
  const last = new Set(service.versions[service.versions.length - 1]);
  for (const key of first) if (last.has(key)) expect(keys).toContain(key);
});

test('recent records (Refresh all): records arriving on top between the answers of a round are not doubled', () => {
  for (const arriving of [1, 2, 3]) {
    const original = listOf(12);
    const service = new ChangingService([...original], 3);
    // Round 2 asks page 1 again (the anchor) and page 2; the records arrive after the anchor's answer.
    service.beforeAnswer = (served) => {
      if (served === 2)
        service.list.unshift(...Array.from({ length: arriving }, () => record(daysBefore(0))));
    };
    const recent = fetchRecentCompletions(service.client(), {}, daysBefore(30));
    const keys = recent.records.map(identity);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(original.map(identity));
  }
});

test.each([1, 0, -3, 2.5, Number.NaN])(
  'a last page from an earlier read of %p is no guess: page 1 alone first, as for a first read',
  (lastPageBefore) => {
    const service = new ChangingService(listOf(2_500), 1000);
    const read = readCompletionPages(service.client(), { filter: {}, lastPageBefore }, 5);
    expect(read.records).toEqual(service.list);
    expect(service.rounds).toEqual([[1], [1, 2, 3], [1, 2, 3]]);
  },
);

describe('what a caller of the reader is told and may ask', () => {
  test('one pass, for a question one read answers well enough: the pages once, unconfirmed', () => {
    const service = new ChangingService(listOf(2_500), 1000);
    const read = readCompletionPages(service.client(), { filter: {}, onePass: true }, 5);
    expect(read.done).toBe(true);
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([[1], [1, 2, 3]]);
  });

  test('one pass: a record deleted above the page a round anchors on is counted as not confirmed', () => {
    const service = new ChangingService(listOf(2_500), 1000);
    let rounds = 0;
    // Rounds [1], [1, 2], [2, 3]: the record goes from page 1 before the second.
    service.beforeRound = () => {
      if (++rounds === 2) {
        service.list.splice(10, 1);
        service.snapshot();
      }
    };
    const read = readCompletionPages(service.client(), { filter: {}, onePass: true }, 1);
    expect(read.done).toBe(true);
    expect(read.cursor.unconfirmed).toBe(1);
  });

  test('after page 1 of the first pass, the records a page holds, once; after every round, where paging stands', () => {
    const service = new ChangingService(listOf(2_500), 1000);
    const firstPages: Array<[number, number]> = [];
    const progress: Array<[string, number, number]> = [];
    readCompletionPages(service.client(), { filter: {} }, 2, {
      afterFirstPage: (cursor, records) => firstPages.push([cursor.lastPage, records]),
      onProgress: (cursor) => progress.push([cursor.phase, cursor.passes, cursor.nextPage]),
    });
    expect(firstPages).toEqual([[3, 1000]]);
    // The first pass: page 1, then pages 2–3 (anchored on page 1); the second: pages 1–3 at once.
    expect(service.rounds).toEqual([[1], [1, 2, 3], [1, 2, 3]]);
    expect(progress).toEqual([
      ['read', 1, 2],
      ['read', 1, 4],
      ['confirm', 2, 4],
    ]);
  });

  test('a round the service fails: a read that may pause keeps what it read and resumes; one that may not throws', () => {
    const service = new ChangingService(listOf(3_500), 1000);
    let failing = false;
    service.beforeAnswer = () => {
      if (failing) throw new Error('connection reset');
    };
    const client = service.client();
    let rounds = 0;
    const first = readCompletionPages(client, { filter: {} }, 1, {
      shouldPause: () => false,
      onProgress: () => {
        if (++rounds === 2) failing = true;
      },
    });
    expect(first.done).toBe(false);
    expect(first.interruption).toBeInstanceOf(TransportError);
    expect(first.records).toEqual(service.list.slice(0, 2_000));
    failing = false;
    const resumed = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 1);
    expect(resumed.done).toBe(true);
    expect(resumed.records).toEqual(service.list);
    failing = true;
    expect(() => readCompletionPages(client, { filter: {} }, 1)).toThrow(TransportError);
  });
});

describe('recent records: page by page until a page reaches back before the day', () => {
  // 3,000 records, three a day: page 1 holds days 0–333 before 2024-03-01, page 2 days 333–666.
  const oldestOnPageOne = (service: ChangingService) => service.list[999]!.dateNumber;

  test('a page whose oldest record is of the day itself does not reach back: the next page is read, then no more', () => {
    const service = new ChangingService(listOf(3_000), 1000);
    const recent = fetchRecentCompletions(service.client(), {}, oldestOnPageOne(service));
    expect(recent.complete).toBe(true);
    expect(recent.records).toEqual(service.list.slice(0, 2_000));
    expect(service.rounds).toEqual([[1], [1, 2]]);
  });

  test('a day before everything: every page, and complete', () => {
    const service = new ChangingService(listOf(3_000), 1000);
    const recent = fetchRecentCompletions(service.client(), {}, daysBefore(5_000));
    expect(recent).toMatchObject({ complete: true, rejected: [] });
    expect(recent.records).toEqual(service.list);
    expect(service.rounds).toEqual([[1], [1, 2], [2, 3]]);
  });

  test('paused after its first round: page 1 only, and not complete', () => {
    const service = new ChangingService(listOf(3_000), 1000);
    const recent = fetchRecentCompletions(service.client(), {}, daysBefore(5_000), {
      shouldPause: () => true,
    });
    expect(recent.complete).toBe(false);
    expect(recent.records).toEqual(service.list.slice(0, 1_000));
    expect(service.rounds).toEqual([[1]]);
  });

  test('an empty list: one request, nothing, complete', () => {
    const service = new ChangingService([], 1000);
    expect(fetchRecentCompletions(service.client(), {}, daysBefore(5_000))).toEqual({
      records: [],
      rejected: [],
      complete: true,
    });
    expect(service.rounds).toEqual([[1]]);
  });
});

test('a read paused after page 1 alone resumes with page 1 once, the anchor of its first round', () => {
  const service = new ChangingService(listOf(2_500), 1000);
  const client = service.client();
  const first = readCompletionPages(client, { filter: {} }, 5, { shouldPause: () => true });
  expect(service.rounds).toEqual([[1]]);
  const second = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 5);
  expect(second.records).toEqual(service.list);
  expect(service.rounds).toEqual([[1], [1, 2, 3], [1, 2, 3]]);
});

test('a confirming pass resumed after records arrived on top: they are taken first, and nothing moved', () => {
  const service = new ChangingService(listOf(2_500), 1000);
  const client = service.client();
  let asked = 0;
  // Rounds [1], [1, 2], [2, 3], then the confirming [1, 2]: the read pauses before its [2, 3].
  const first = readCompletionPages(client, { filter: {} }, 1, { shouldPause: () => ++asked === 4 });
  expect(first.cursor).toMatchObject({ phase: 'confirm', nextPage: 3 });
  service.list = [...listOf(3, -30), ...service.list];
  service.snapshot();
  const second = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 1);
  expect(second.records).toEqual(service.list);
  expect(second.cursor.unconfirmed).toBe(0);
});

describe('a confirming pass resumed in a later execution, the list changed between the two where it had read', () => {
  /**
   * `records` served 7 a page, read in batches of `batchSize` until the confirming pass has read
   * `pagesRead` pages and pauses (the first pass takes a round for page 1 and one for each batch
   * after it; the confirming pass asks for page 1 with the first batch); then `change` lands, and
   * the rounds recorded so far are let go.
   */
  function pausedInConfirmingPass(
    records: number,
    batchSize: number,
    pagesRead: number,
    change: (list: Completion[]) => void = () => {},
  ) {
    const service = new ChangingService(listOf(records), 7);
    const client = service.client();
    const batches = (pages: number) => Math.ceil(pages / batchSize);
    const roundsBefore = 1 + batches(Math.ceil(records / 7) - 1) + batches(pagesRead - 1);
    let asked = 0;
    const first = readCompletionPages(client, { filter: {} }, batchSize, {
      shouldPause: () => ++asked === roundsBefore,
    });
    expect(first.cursor).toMatchObject({ phase: 'confirm', nextPage: pagesRead + 1 });
    const before = [...service.list];
    service.list = [...service.list];
    change(service.list);
    service.snapshot();
    service.rounds.length = 0;
    return { service, client, first, before };
  }

  /**
   * 23 records, 7 a page, batches of 1: the confirming pass pauses after pages 1–3 (page 3 is
   * the anchor of its next round), `change` lands, and the read goes on in a new call.
   */
  function resumedAfter(change: (list: Completion[]) => void) {
    const { service, client, first, before } = pausedInConfirmingPass(23, 1, 3, change);
    const read = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 1);
    return { service, before, read };
  }

  test('a record deleted from page 2 and a twin of the first record of page 3 cancel out below it: the pages read before are read again, and the read says it could not confirm', () => {
    const { service, before, read } = resumedAfter((list) => {
      list.splice(9, 1);
      // The 15th record is now the 14th, the last of page 2: its twin begins page 3 as it did.
      list.splice(14, 0, { ...list[13]! });
    });
    expect(read.done).toBe(true);
    // The rest of the pass, and page 3 read again as its anchor, are the list as it was: only
    // reading pages 1 and 2 again tells.
    expect(read.records).toEqual(before);
    expect(read.cursor.unconfirmed).toBeGreaterThan(0);
    expect(service.rounds).toEqual([
      [1, 3, 4],
      [1, 2],
    ]);
  });

  test('a record deleted from page 1 and one backdated into it: the same', () => {
    const { service, read } = resumedAfter((list) => {
      list.splice(2, 1);
      list.splice(5, 0, record(list[5]!.dateNumber));
    });
    expect(read.done).toBe(true);
    expect(read.cursor.unconfirmed).toBeGreaterThan(0);
    expect(service.rounds).toEqual([
      [1, 3, 4],
      [1, 2],
    ]);
  });

  test('nothing changed: the pages read before are read again once, and the read is exact', () => {
    const { service, read } = resumedAfter(() => {});
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([
      [1, 3, 4],
      [1, 2],
    ]);
  });

  test('records on top since, and between the rounds that read the pages again: taken, and the read is exact', () => {
    const { service, read } = resumedAfter((list) => list.unshift(...listOf(2, -30)));
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
  });

  test('batches of the configured size, page 1 with each, and no page past the last one read before', () => {
    // 40 records, 7 a page: 6 pages. The confirming pass pauses after pages 1–4: then 1–3 are read again.
    const { service, client, first } = pausedInConfirmingPass(40, 3, 4);
    const read = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 3);
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([
      [1, 4, 5, 6],
      [1, 2, 3],
    ]);
  });

  test('a change within the last page read before, in a batch of its own: read again, and not confirmed', () => {
    // 40 records, 7 a page, batches of 1: the confirming pass pauses after pages 1–4; pages 1–3 are
    // read again one a round, and only page 3 changed (a record deleted, another backdated into it).
    const { service, client, first } = pausedInConfirmingPass(40, 1, 4, (list) => {
      list.splice(15, 1);
      list.splice(18, 0, record(list[18]!.dateNumber));
    });
    const read = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 1);
    expect(service.rounds).toEqual([
      [1, 4, 5],
      [5, 6],
      [1, 2],
      [1, 3],
    ]);
    expect(read.cursor.unconfirmed).toBeGreaterThan(0);
  });

  test('paused while reading them again: the next execution goes on with them, and says what it could not confirm', () => {
    const { client, first } = pausedInConfirmingPass(23, 1, 3, (list) => {
      list.splice(3, 1);
      list.splice(4, 0, record(list[4]!.dateNumber));
    });
    const second = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 1, {
      shouldPause: () => true,
    });
    expect(second.done).toBe(false);
    expect(second.cursor).toMatchObject({ phase: 'settled', recheckThrough: 2 });
    const third = readCompletionPages(client, { cursor: second.cursor, held: second.entries }, 1);
    expect(third.done).toBe(true);
    expect(third.cursor.unconfirmed).toBeGreaterThan(0);
  });
});

test('a third pass resumed from a cursor saved before passes were printed: compared with the second alone, and it ends', () => {
  const service = new ChangingService(listOf(2_500), 1000);
  const client = service.client();
  let rounds = 0;
  // The first pass reads the list; a record deleted from page 2 before the second makes a third.
  service.beforeRound = () => {
    if (++rounds === 3) {
      service.list.splice(1_500, 1);
      service.snapshot();
    }
  };
  const paused = readCompletionPages(client, { filter: {} }, 5, { shouldPause: () => rounds === 3 });
  expect(paused.cursor).toMatchObject({ phase: 'confirm', passes: 3 });
  expect(paused.cursor.passBeforePrevious).toBeDefined();
  const { passBeforePrevious: _dropped, ...older } = paused.cursor;
  const read = readCompletionPages(client, { cursor: older, held: paused.entries }, 5);
  expect(read.done).toBe(true);
  expect(read.records).toEqual(service.list);
  expect(read.cursor.unconfirmed).toBe(0);
});

test('a paused read resumes from its cursor and the records it held', () => {
  const service = new ChangingService(listOf(5_000), 1000);
  const client = service.client();
  let asked = 0;
  const first = readCompletionPages(client, { filter: {} }, 2, { shouldPause: () => ++asked > 1 });
  expect(first.done).toBe(false);
  expect(first.records).toEqual(service.list.slice(0, 3_000));
  // Between executions: 4 on top, one gone from page 2.
  service.list = [...listOf(4, -30), ...service.list];
  service.list.splice(1_500, 1);
  service.snapshot();
  const second = readCompletionPages(client, { cursor: first.cursor, held: first.entries }, 2);
  expect(second.done).toBe(true);
  expect(second.extendsHeld).toBe(false);
  expect(second.records).toEqual(service.list);
});

describe('a settled read handed back in a later execution (the import writes what it read there)', () => {
  /** A read of 2,500 records that settled exactly, and the service it read. */
  function settledRead() {
    const service = new ChangingService(listOf(2_500), 1000);
    const client = service.client();
    const settled = readCompletionPages(client, { filter: {} }, 5);
    expect(settled.cursor).toMatchObject({ phase: 'settled', unconfirmed: 0, lastPage: 3 });
    service.rounds.length = 0;
    const resume = () => readCompletionPages(client, { cursor: settled.cursor, held: settled.entries }, 5);
    return { service, client, resume };
  }

  test('unchanged: page 1 and the last page again, in one round, and the list still exact', () => {
    const { service, resume } = settledRead();
    const read = resume();
    expect(read.done).toBe(true);
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([[1, 3]]);
  });

  test('records on top since: taken first, the rest still exact', () => {
    const { service, resume } = settledRead();
    service.list = [...listOf(4, -30), ...service.list];
    service.snapshot();
    const read = resume();
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
    expect(service.rounds).toEqual([[1, 3]]);
  });

  test.each([
    ['one deleted from page 2', (list: Completion[]) => list.splice(1_500, 1), 1],
    ['two backdated into page 2', (list: Completion[]) => list.splice(1_200, 0, ...listOf(2, 400)), 2],
  ])(
    '%s since: the last page moved, and the read says by how much it is not confirmed',
    (_name, change, moved) => {
      const { service, resume } = settledRead();
      change(service.list);
      service.snapshot();
      const read = resume();
      expect(read.done).toBe(true);
      expect(read.cursor.unconfirmed).toBe(moved);
      expect(service.rounds).toEqual([[1, 3]]);
    },
  );

  test('a twin of the newest record on top since: taken, the list still exact', () => {
    const { service, resume } = settledRead();
    service.list = [{ ...service.list[0]! }, ...service.list];
    service.snapshot();
    const read = resume();
    expect(read.records).toEqual(service.list);
    expect(read.cursor.unconfirmed).toBe(0);
  });

  test('one deleted from page 1 and one backdated into it since: the tail has not moved, page 1 shows it', () => {
    const { service, resume } = settledRead();
    service.list.splice(10, 1);
    service.list.splice(500, 0, record(service.list[500]!.dateNumber));
    service.snapshot();
    const read = resume();
    expect(read.cursor.unconfirmed).toBeGreaterThan(0);
    expect(service.rounds).toEqual([[1, 3]]);
  });

  test('the whole last page gone: not confirmed either', () => {
    const { service, resume } = settledRead();
    service.list.splice(2_000);
    service.snapshot();
    const read = resume();
    expect(read.cursor.unconfirmed).toBeGreaterThan(0);
  });

  test('a list of one page: page 1 alone', () => {
    const service = new ChangingService(listOf(700), 1000);
    const client = service.client();
    const settled = readCompletionPages(client, { filter: {} }, 5);
    service.rounds.length = 0;
    const read = readCompletionPages(client, { cursor: settled.cursor, held: settled.entries }, 5);
    expect(read.records).toEqual(service.list);
    expect(service.rounds).toEqual([[1]]);
  });
});

/** How many times each key is in `keys`. */
function countsOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/**
 * The model: a random list of 0–60 records served 3–8 a page, a random batch size, answers of one
 * fetchAll in random order, pauses between rounds (resumed from the cursor and the records held, as
 * the next execution would) or one pass only (the removal check's read), and before a round or
 * between the answers of one, with some probability, one or two changes: records on top, backdated
 * into any place, deleted from any place, or twinned. The oracle, the property a full import
 * promises:
 *  - every read ends, within three passes (and one more round for each call that resumes one);
 *  - a read of more than one pass that says it is exact (nothing unconfirmed) holds a version of
 *    the list that was current while its last pass was answered, and during its last call (a
 *    change between two calls of the last pass is no excuse), below records that arrived on top
 *    after it; a read whose recheck of the pages read in an earlier call was itself paused
 *    promises the first only;
 *  - any read holds every record listed both when it began and when it ended, at least as many
 *    times as both list it and never more often than a version listed it; nothing that no version
 *    listed; and every record put on top before its last call began that is still listed;
 *  - a read whose list held still from its second pass on ends with exactly the list: a pass that
 *    nothing changed under reads the list as it is, and the one after it confirms that;
 *  - a read under records put on top only (before rounds) is exact: the list below its newest
 *    records, those that arrived while its last pass read on (the next read takes them).
 */
test('seeded model: 600 generated interleavings of changes and reads', () => {
  const SEQUENCES = 600;
  const covered = { exact: 0, unconfirmed: 0, resumed: 0, changesWithinRound: 0, confirmedAcrossCalls: 0 };
  // PAGING_SEED=n replays one sequence.
  const replay = Number(process.env['PAGING_SEED'] ?? 0);
  for (let seed = replay || 1; seed <= (replay || SEQUENCES); seed++) {
    const random = new SeededRandom(seed, 'paging model');
    const steps: string[] = [];
    const pageSize = random.int(3, 8);
    const batchSize = random.int(1, 4);
    const service = new ChangingService(listOf(random.int(0, 60)), pageSize, (requests) => {
      for (let index = requests.length - 1; index > 0; index--) {
        const other = random.int(0, index);
        [requests[index], requests[other]] = [requests[other]!, requests[index]!];
      }
      return requests;
    });
    /** Records put on top, with the call that was under way (0: the first). */
    const onTop: Array<{ key: string; call: number }> = [];
    let call = 0;
    let changedWithinRound = false;
    // Up to about three changes while the passes read their pages.
    const rounds = 2 * (Math.ceil(service.list.length / pageSize / batchSize) + 1);
    const changeRate = (random.next() * 3) / rounds;
    const withinRounds = random.chance(0.5);
    // A fifth of the sequences see only records put on top, before rounds: a busy service.
    const onlyArrivals = !withinRounds && random.chance(0.4);
    /** The round during or before which the list last changed (-1: never). */
    let lastChangeRound = -1;
    const change = (when: string) => {
      const served = service.answeredFrom.length;
      if (random.next() >= changeRate) return;
      lastChangeRound = service.rounds.length - (when === 'between answers' ? 1 : 0);
      if (when === 'between answers') {
        covered.changesWithinRound++;
        changedWithinRound = true;
      }
      const list = [...service.list];
      for (let count = random.int(1, 2); count > 0; count--) {
        const kind = onlyArrivals ? 0 : random.int(0, 3);
        const at = random.int(0, list.length);
        const dateAt = list[Math.min(at, list.length - 1)]?.dateNumber ?? daysBefore(0);
        if (kind === 0) {
          const fresh = record(daysBefore(-1 - served));
          list.unshift(fresh);
          onTop.push({ key: identity(fresh), call });
        } else if (kind === 1) list.splice(at, 0, record(dateAt));
        else if (kind === 2 && list.length > 0) list.splice(Math.min(at, list.length - 1), 1);
        else if (list.length > 0) list.splice(at, 0, { ...list[Math.min(at, list.length - 1)]! });
        steps.push(
          `${when} (answer ${served} on): ${['on top', 'backdate', 'delete', 'twin'][kind]} at ${at}`,
        );
      }
      service.list = list;
      service.snapshot();
    };
    service.beforeRound = () => change('before the round');
    // Between two calls, sometimes a record deleted and another inserted, which cancel out below
    // both: only the pages read before the call, read again, show them.
    const cancellingPair = () => {
      if (onlyArrivals || service.list.length < 2 || !random.chance(0.3)) return;
      lastChangeRound = service.rounds.length;
      const list = [...service.list];
      const gone = random.int(0, list.length - 1);
      list.splice(gone, 1);
      const at = random.int(0, list.length - 1);
      const twin = random.chance(0.5);
      list.splice(at, 0, twin ? { ...list[at]! } : record(list[at]!.dateNumber));
      steps.push(`between calls: delete at ${gone}, ${twin ? 'twin' : 'backdate'} at ${at}`);
      service.list = list;
      service.snapshot();
    };
    let roundOfLastAnswer = -1;
    service.beforeAnswer = () => {
      // Between two answers of the same round (not before its first: that is before the round).
      const round = service.rounds.length - 1;
      if (withinRounds && round === roundOfLastAnswer) change('between answers');
      roundOfLastAnswer = round;
    };
    const describe = () =>
      `seed ${seed} (page size ${pageSize}, batch ${batchSize}):\n  ${steps.join('\n  ') || 'no changes'}`;
    const fail = (problem: string) => {
      throw new Error(`${describe()}\n${problem}`);
    };
    // Half the sequences pause between rounds now and then and resume in a new call, as an import
    // spread over several executions does.
    const pauseRate = random.chance(0.5) ? random.next() * 0.4 : 0;
    // A quarter of those that do not pause make one pass (the removal check's read, in one call).
    const onePass = pauseRate === 0 && random.chance(0.25);
    if (onePass) steps.push('one pass');
    const client = service.client();
    /** The first round of the second pass (null: the read made one pass). */
    let secondPassRound: number | null = null;
    /** The first round of the last pass that went on (0: page 1 alone, settled at once). */
    let lastPassRound = 0;
    let passes = 0;
    const control = {
      ...(pauseRate && { shouldPause: () => random.chance(pauseRate) }),
      onProgress: (cursor: { passes: number }) => {
        if (cursor.passes >= 2) secondPassRound ??= service.rounds.length - 1;
        if (cursor.passes > passes) lastPassRound = service.rounds.length - 1;
        passes = cursor.passes;
      },
    };
    // Half the sequences start with the last page an earlier read found (as a routine import
    // does), right or wrong by now.
    const lastPageBefore = random.chance(0.5) ? random.int(1, 12) : undefined;
    if (lastPageBefore) steps.push(`the last page an earlier read found: ${lastPageBefore}`);
    /** The first round of the last call, and whether a recheck of a settled list was paused. */
    let lastCallRound = 0;
    let recheckPaused = false;
    let read;
    try {
      read = readCompletionPages(client, { filter: {}, lastPageBefore, onePass }, batchSize, control);
      while (!read.done) {
        if (++call > 200) fail('still paused after 200 calls');
        steps.push(`paused after answer ${service.answeredFrom.length}`);
        cancellingPair();
        lastCallRound = service.rounds.length;
        if (read.cursor.recheckThrough !== undefined) recheckPaused = true;
        read = readCompletionPages(client, { cursor: read.cursor, held: read.entries }, batchSize, control);
      }
    } catch (error) {
      return fail(String(error));
    }
    if (call > 0) covered.resumed++;
    if (passes >= 2 && lastPassRound < lastCallRound) covered.confirmedAcrossCalls++;
    const keys = read.records.map(identity);
    // Bounded: three passes, each at most a round per page (a batch of one) and page 1 alone, and
    // the round that resumes each call; a list that grew has more pages to read.
    const mostPages = Math.max(...service.versions.map((version) => Math.ceil(version.length / pageSize)), 1);
    const bound = 3 * (mostPages + 1) + call + 1;
    if (service.rounds.length > bound) fail(`${service.rounds.length} rounds, more than ${bound}`);
    // A change between two answers of one round can read a record twice, or pass one over, at the
    // boundary of the pages answered on either side of it, where no anchor sees it, and two passes
    // may do so alike (the record at a page boundary is the one exposed): then the read still
    // ends within the bound and holds nothing that no version listed, and that is all.
    // One pass says only how far its anchors saw the list move: it claims no version.
    if (read.cursor.unconfirmed === 0 && !changedWithinRound && !onePass) {
      covered.exact++;
      // The versions current while its last pass was answered; and, when that pass began in an
      // earlier call, those of the last call (the pages read before it were read again in it)
      // unless that recheck was itself paused.
      const from = recheckPaused ? lastPassRound : Math.max(lastPassRound, lastCallRound);
      const candidates = new Set(
        service.answeredFrom
          .filter((answer) => answer.round >= from)
          .map((answer) => service.versions[answer.version]!.join('\n')),
      );
      const asVersion = [...candidates].some((candidate) => {
        const version = candidate === '' ? [] : candidate.split('\n');
        const arrived = keys.length - version.length;
        return arrived >= 0 && keys.slice(arrived).join('\n') === candidate;
      });
      if (!asVersion)
        fail(`read ${keys.length} records as exact that are no version of the list it confirmed`);
    } else if (read.cursor.unconfirmed > 0) covered.unconfirmed++;
    // Records put on top are taken by page 1 read again, or left to the next read when they arrive
    // while a pass reads on: either way nothing under them moved, and the read is exact.
    if (onlyArrivals) {
      const listed = service.list.map(identity);
      if (
        read.cursor.unconfirmed !== 0 ||
        keys.join('\n') !== listed.slice(listed.length - keys.length).join('\n')
      )
        fail(
          `only records on top arrived, and the read holds ${keys.length} records, ${read.cursor.unconfirmed} ` +
            `unconfirmed, for ${listed.length} listed: not the list below its newest`,
        );
    }
    if (secondPassRound !== null && lastChangeRound < secondPassRound) {
      if (read.cursor.unconfirmed !== 0 || keys.join('\n') !== service.list.map(identity).join('\n'))
        fail(
          `the list held still from the second pass (round ${secondPassRound}) on, and the read ended with ` +
            `${keys.length} records, ${read.cursor.unconfirmed} unconfirmed, for ${service.list.length} listed`,
        );
    }
    const first = countsOf(service.versions[0]!);
    const last = countsOf(service.versions[service.versions.length - 1]!);
    const most = new Map<string, number>();
    for (const version of service.versions) {
      for (const [key, count] of countsOf(version)) most.set(key, Math.max(most.get(key) ?? 0, count));
    }
    const held = countsOf(keys);
    for (const [key, count] of first) {
      const both = changedWithinRound ? 0 : Math.min(count, last.get(key) ?? 0);
      if ((held.get(key) ?? 0) < both)
        fail(`${key} is listed ${both} times throughout, read ${held.get(key) ?? 0}`);
    }
    for (const [key, count] of held) {
      const listed = most.get(key) ?? 0;
      if (listed === 0 || (!changedWithinRound && count > listed))
        fail(
          `${key} read ${count} times, listed at most ${listed} times ${read.cursor.unconfirmed} ${JSON.stringify(service.rounds)} ${keys.map((k) => k.slice(-10)).join(' ')}`,
        );
    }
    for (const arrival of onTop) {
      if (!changedWithinRound && arrival.call < call && last.has(arrival.key) && !held.has(arrival.key))
        fail(`${arrival.key}, put on top before the last call, is missing`);
    }
  }
  if (!replay) {
    expect(covered.exact).toBeGreaterThan(SEQUENCES / 3);
    expect(covered.unconfirmed).toBeGreaterThan(10);
    expect(covered.resumed).toBeGreaterThan(SEQUENCES / 4);
    expect(covered.changesWithinRound).toBeGreaterThan(50);
    expect(covered.confirmedAcrossCalls).toBeGreaterThan(30);
  }
});
