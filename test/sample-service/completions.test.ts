/** completedtrainings.list: paging math, filters and order. */
import { SampleDataset, callApiJson, type Completion } from '../support/sample-service';

interface CompletionPage {
  ok: true;
  completedtrainings: Completion[];
  paging: { page: number; limit: number; total: number; last_page: number };
}

const created: SampleDataset[] = [];

async function datasetWith(completions: number): Promise<SampleDataset> {
  const dataset = await SampleDataset.create({ completions, users: 40, trainings: 6 });
  created.push(dataset);
  return dataset;
}

function list(dataset: SampleDataset, parameters: Record<string, unknown> = {}): Promise<CompletionPage> {
  return callApiJson<CompletionPage>('completedtrainings.list', {
    token: dataset.tokens.valid,
    ...parameters,
  });
}

afterAll(() => Promise.all(created.map((dataset) => dataset.delete())));

describe('paging', () => {
  test.each([
    // records, limit, expected last_page
    [0, undefined, 1],
    [1, undefined, 1],
    [100, undefined, 1],
    [101, undefined, 2],
    [1000, 1000, 1],
    [1000, undefined, 10],
    [1001, 1000, 2],
    [1001, 7, 143],
  ])('%i records with limit %s have last_page %i', async (records, limit, lastPage) => {
    const dataset = await datasetWith(records);
    const response = await list(dataset, limit === undefined ? {} : { limit });
    expect(response.paging).toEqual({ page: 1, limit: limit ?? 100, total: records, last_page: lastPage });
    expect(response.completedtrainings).toHaveLength(Math.min(records, limit ?? 100));
  });

  test('the last page holds the remainder and a page beyond it is empty', async () => {
    const dataset = await datasetWith(1001);
    const last = await list(dataset, { limit: 1000, page: 2 });
    expect(last.completedtrainings).toHaveLength(1);
    expect(last.paging).toEqual({ page: 2, limit: 1000, total: 1001, last_page: 2 });
    const beyond = await list(dataset, { limit: 1000, page: 3 });
    expect(beyond).toEqual({
      ok: true,
      completedtrainings: [],
      paging: { page: 3, limit: 1000, total: 1001, last_page: 2 },
    });
  });

  test('page 1 of an empty dataset is an empty list with last_page 1', async () => {
    const dataset = await datasetWith(0);
    expect(await list(dataset)).toEqual({
      ok: true,
      completedtrainings: [],
      paging: { page: 1, limit: 100, total: 0, last_page: 1 },
    });
  });

  test('the pages, in order, are exactly the whole collection', async () => {
    const dataset = await datasetWith(257);
    const { completions } = await dataset.data();
    const pages = await Promise.all([1, 2, 3].map((page) => list(dataset, { limit: 100, page })));
    expect(pages.flatMap((page) => page.completedtrainings)).toEqual(completions);
  });
});

describe('order', () => {
  test('newest first by dateNumber, then by created', async () => {
    const dataset = await datasetWith(2000);
    const { completions } = await dataset.data();
    const outOfOrder = completions.slice(1).filter((older, index) => {
      const newer = completions[index]!;
      const byDate = Number(newer.dateNumber) - Number(older.dateNumber);
      return byDate < 0 || (byDate === 0 && newer.created < older.created);
    });
    expect(outOfOrder).toEqual([]);
    // The tie rules are exercised: some records share a date, and some share date and created.
    const sameDate = completions
      .slice(1)
      .filter((older, index) => older.dateNumber === completions[index]!.dateNumber);
    expect(sameDate.length).toBeGreaterThan(0);
    expect(
      sameDate.some((older) =>
        completions.some(
          (other) =>
            other !== older && other.dateNumber === older.dateNumber && other.created !== older.created,
        ),
      ),
    ).toBe(true);
  });
});

describe('filters', () => {
  let dataset: SampleDataset;
  let completions: Completion[];

  beforeAll(async () => {
    dataset = await datasetWith(600);
    ({ completions } = await dataset.data());
  });

  test('user_id lists only that user, in the same order', async () => {
    const userId = completions[10]!.user_id;
    const response = await list(dataset, { user_id: userId, limit: 1000 });
    const expected = completions.filter((completion) => completion.user_id === userId);
    expect(response.completedtrainings).toEqual(expected);
    expect(response.paging.total).toBe(expected.length);
  });

  test('training_id lists only that training and pages through it', async () => {
    const trainingId = completions[0]!.training_id;
    const expected = completions.filter((completion) => completion.training_id === trainingId);
    expect(expected.length).toBeGreaterThan(10);
    const first = await list(dataset, { training_id: trainingId, limit: 10 });
    expect(first.paging).toEqual({
      page: 1,
      limit: 10,
      total: expected.length,
      last_page: Math.ceil(expected.length / 10),
    });
    const second = await list(dataset, { training_id: trainingId, limit: 10, page: 2 });
    expect([...first.completedtrainings, ...second.completedtrainings]).toEqual(expected.slice(0, 20));
  });

  test('user_id and training_id combine (AND)', async () => {
    // A user with completions of more than one training, so the training filter narrows the user's list.
    const { user_id, training_id } = completions.find((candidate) =>
      completions.some(
        (other) => other.user_id === candidate.user_id && other.training_id !== candidate.training_id,
      ),
    )!;
    const response = await list(dataset, { user_id, training_id, limit: 1000 });
    const expected = completions.filter(
      (completion) => completion.user_id === user_id && completion.training_id === training_id,
    );
    expect(response.completedtrainings).toEqual(expected);
    expect(expected.length).toBeLessThan(
      completions.filter((completion) => completion.user_id === user_id).length,
    );
  });

  test('a filter nothing matches gives an empty first page with last_page 1', async () => {
    const response = await list(dataset, { user_id: 'no-such-user' });
    expect(response).toEqual({
      ok: true,
      completedtrainings: [],
      paging: { page: 1, limit: 100, total: 0, last_page: 1 },
    });
  });
});
