/**
 * The removal check on its own (src/trainings/completions/removal-check.ts), against the sample
 * service: which rows with the user's notes it confirms gone and which it finds still listed (twins
 * counted one by one), the reads it makes for them, when it pauses, and the sentences the Sync log
 * and the refusal show. The imports that use it are in removal-check.test.ts.
 */
import { nodeTransport } from '../../../dev/http/node-transport';
import { ServiceClient } from '../../../src/api/client';
import { completionKey } from '../../../src/api/completion-key';
import type { Completion } from '../../../src/api/schemas';
import type { TabContent, TabRecord } from '../../../src/sheets/tab-content';
import {
  confirmRemovals,
  type HeldRow,
  heldRowsOf,
  stillListedRefusal,
} from '../../../src/trainings/completions/removal-check';
import { COMPLETION_COLUMN, COMPLETION_COLUMNS } from '../../../src/trainings/completions/table';
import { SampleDataset, sampleServiceUrl } from '../../support/sample-service';

const BATCH_SIZE = 4;

let dataset: SampleDataset;
let client: ServiceClient;
let served: Completion[];

beforeAll(async () => {
  dataset = await SampleDataset.create({ seed: 281, completions: 60, users: 6, trainings: 4 });
  // The newest record is listed twice (twins).
  await dataset.mutate({ duplicateCompletionsAt: [0] });
  served = (await dataset.data()).completions as unknown as Completion[];
  client = new ServiceClient({
    baseUrl: sampleServiceUrl(),
    token: dataset.tokens.valid,
    transport: nodeTransport,
    sleep: () => {},
  });
});
afterAll(() => dataset.delete());
beforeEach(() => dataset.clearRequestLog());

/** The row of `record` in the tab: its `occurrence`-th twin, with a note beside it unless said otherwise. */
function rowOf(record: Completion, occurrence = 1, hasUserContent = true): HeldRow {
  const key = completionKey(record);
  return {
    key: occurrence === 1 ? key : `${key}~${occurrence}`,
    userId: record.user_id,
    trainingId: record.training_id,
    hasUserContent,
    completionDate: record.dateNumber,
  };
}

/** A record of the same user and training as `record` that the service does not list. */
function unlistedLike(record: Completion): Completion {
  return { ...record, created: 978_307_200 };
}

async function listReads() {
  const { requests } = await dataset.requestLog();
  return requests
    .filter((request) => request.method === 'completedtrainings.list')
    .map(({ params }) => ({ user_id: params['user_id'], training_id: params['training_id'] }));
}

test('of twins, as many rows stay as the service lists; a row beyond them, and a record it no longer lists, are gone', async () => {
  const twin = served[0]!;
  expect(served[1]).toEqual(twin);
  const gone = unlistedLike(twin);
  const rows = [rowOf(twin), rowOf(twin, 2), rowOf(twin, 3), rowOf(gone)];

  const check = confirmRemovals(client, BATCH_SIZE, rows, {}, new Set());

  const named = rows.map(() => `user ${twin.user_id}, training ${twin.training_id}`).join('; ');
  expect(check).toEqual({
    stillListed: [rows[0], rows[1]],
    confirmedGone: [rows[2]!.key, rows[3]!.key],
    note: `4 rows with your own notes removed, because their records are gone (the service no longer lists them for their user and training): ${named}.`,
  });
  // One read for the user and training of all four.
  expect(await listReads()).toEqual([{ user_id: twin.user_id, training_id: twin.training_id }]);
});

test('a twin listed once is still listed for its first row and gone for its second', async () => {
  const record = served[5]!;
  const check = confirmRemovals(client, BATCH_SIZE, [rowOf(record, 2), rowOf(record)], {}, new Set());
  expect(check).toMatchObject({ stillListed: [rowOf(record)], confirmedGone: [rowOf(record, 2).key] });
});

test("a check reads its user's completions of the training in one pass", async () => {
  const record = served[0]!;
  const pages = served.filter(
    (other) => other.user_id === record.user_id && other.training_id === record.training_id,
  ).length;
  expect(pages).toBeGreaterThan(1);
  // One record a page: every listed completion of that user and training is a page of its own.
  await dataset.setQuirks({ pageSizeCap: 1 });
  try {
    confirmRemovals(client, BATCH_SIZE, [rowOf(unlistedLike(record))], {}, new Set());
  } finally {
    await dataset.setQuirks({});
  }
  // Page 1, then the other pages in one round with page 1 before them (which anchors it); a
  // second pass, confirming the first, would read them all again.
  expect(pages).toBeLessThanOrEqual(BATCH_SIZE + 1);
  expect(await listReads()).toHaveLength(pages + 1);
});

test('rows without notes are neither read nor named: they go without a check', async () => {
  const check = confirmRemovals(
    client,
    BATCH_SIZE,
    [rowOf(unlistedLike(served[3]!), 1, false)],
    {},
    new Set(),
  );
  expect(check).toEqual({ note: null, confirmedGone: [], stillListed: [] });
  expect(await listReads()).toEqual([]);
});

test('one row gone is said in the singular', async () => {
  const gone = unlistedLike(served[7]!);
  const check = confirmRemovals(client, BATCH_SIZE, [rowOf(gone)], {}, new Set());
  expect(check).toEqual({
    stillListed: [],
    confirmedGone: [rowOf(gone).key],
    note: `1 row with your own notes removed, because its record is gone (the service no longer lists it for its user and training): user ${gone.user_id}, training ${gone.training_id}.`,
  });
});

test('an empty user or training id is left out of the read; a row with neither is not read and not taken for gone', async () => {
  const record = served[10]!;
  const noUser = { ...unlistedLike(record), user_id: '' };
  const noTraining = { ...unlistedLike(record), training_id: '' };
  const neither = { ...unlistedLike(record), user_id: '', training_id: '' };
  const rows = [rowOf(noUser), rowOf(noTraining), rowOf(neither)];

  const check = confirmRemovals(client, BATCH_SIZE, rows, {}, new Set());

  expect(check).toMatchObject({ stillListed: [], confirmedGone: [rows[0]!.key, rows[1]!.key] });
  expect(await listReads()).toEqual([
    { user_id: undefined, training_id: record.training_id },
    { user_id: record.user_id, training_id: undefined },
  ]);
});

test('rows confirmed gone by an earlier execution are not read again, and still named', async () => {
  const earlier = rowOf(unlistedLike(served[12]!));
  const check = confirmRemovals(client, BATCH_SIZE, [earlier], {}, new Set([earlier.key]));
  expect(check).toMatchObject({
    stillListed: [],
    confirmedGone: [earlier.key],
    note: expect.stringMatching(/^1 row with your own notes removed/),
  });
  expect(await listReads()).toEqual([]);
});

describe('pausing between checks', () => {
  /** Rows of three users' records, one check each, the first confirmed by an earlier execution. */
  function threeChecks() {
    const byUser = new Map(served.map((record) => [record.user_id, record]));
    const [earlier, ...rows] = [...byUser.values()].slice(0, 3).map((record) => rowOf(unlistedLike(record)));
    return { earlier: earlier!, rows: [earlier!, ...rows] };
  }

  test('a run told to pause begins no check and keeps what earlier executions confirmed', async () => {
    const { earlier, rows } = threeChecks();
    const check = confirmRemovals(
      client,
      BATCH_SIZE,
      rows,
      { shouldPause: () => true },
      new Set([earlier.key]),
      true,
    );
    expect(check).toEqual({ paused: true, confirmedGone: [earlier.key] });
    expect(await listReads()).toEqual([]);
  });

  test('a check begins only while a read of three rounds fits', async () => {
    const { earlier, rows } = threeChecks();
    const fits = (rounds: number) => ({ canAfford: (asked: number) => asked <= rounds });
    expect(confirmRemovals(client, BATCH_SIZE, rows, fits(2), new Set([earlier.key]))).toEqual({
      paused: true,
      confirmedGone: [earlier.key],
    });
    expect(await listReads()).toEqual([]);
    const check = confirmRemovals(client, BATCH_SIZE, rows, fits(3), new Set([earlier.key]));
    expect(check).toMatchObject({ confirmedGone: rows.map((row) => row.key) });
    expect(await listReads()).toHaveLength(2);
  });

  test('first thing in an execution, one check begins even when none fits; the next waits', async () => {
    const { earlier, rows } = threeChecks();
    const check = confirmRemovals(
      client,
      BATCH_SIZE,
      rows,
      { canAfford: () => false },
      new Set([earlier.key]),
      true,
    );
    expect(check).toEqual({ paused: true, confirmedGone: [earlier.key, rows[1]!.key] });
    expect(await listReads()).toEqual([{ user_id: rows[1]!.userId, training_id: rows[1]!.trainingId }]);
  });

  test('the reads run in the rounds of the run, which times them', () => {
    const { rows } = threeChecks();
    let rounds = 0;
    const round = <T>(read: () => T): T => {
      rounds++;
      return read();
    };
    confirmRemovals(client, BATCH_SIZE, rows, { round }, new Set());
    expect(rounds).toBe(3);
  });
});

test('the refusal names the rows still listed, in the singular or the plural', () => {
  const [first, second] = [rowOf(served[2]!), rowOf(served[4]!)];
  const describe = (row: HeldRow) => `user ${row.userId}, training ${row.trainingId}`;
  expect(stillListedRefusal([first!]).message).toBe(
    `Nothing was changed: 1 row with your own notes was missing from the full read, but the service still lists its record: ${describe(first!)}. Run the import again; if this repeats, send the request IDs in the Sync log to the service's support.`,
  );
  expect(stillListedRefusal([first!, second!]).message).toBe(
    `Nothing was changed: 2 rows with your own notes were missing from the full read, but the service still lists their records: ${describe(first!)}; ${describe(second!)}. Run the import again; if this repeats, send the request IDs in the Sync log to the service's support.`,
  );
});

describe('the rows of the tab', () => {
  function tabRecord(
    key: string,
    cells: Partial<Record<keyof typeof COMPLETION_COLUMN, unknown>>,
    hasUserContent: boolean,
  ): TabRecord {
    const table = COMPLETION_COLUMNS.map(() => null as TabRecord['table'][number]);
    for (const [field, value] of Object.entries(cells)) {
      table[COMPLETION_COLUMN[field as keyof typeof COMPLETION_COLUMN]] = value as TabRecord['table'][number];
    }
    return { key, table, hasUserContent };
  }

  test('each keyed row with its user, training, notes and completion date; rows without a key are not records', () => {
    const content = {
      records: [
        tabRecord('k1', { userId: 'u1', trainingId: 't1', completionDate: 45_000 }, true),
        tabRecord('', { userId: 'u2', trainingId: 't2', completionDate: 45_001 }, true),
        tabRecord('k3', { userId: 42, trainingId: '', completionDate: '' }, false),
      ],
    } as unknown as TabContent;
    expect(heldRowsOf(content)).toEqual([
      { key: 'k1', userId: 'u1', trainingId: 't1', hasUserContent: true, completionDate: 45_000 },
      { key: 'k3', userId: '42', trainingId: '', hasUserContent: false, completionDate: 0 },
    ]);
  });

  test('a tab not there yet has none', () => {
    expect(heldRowsOf(null)).toEqual([]);
  });
});
