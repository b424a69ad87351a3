/**
 * Quirks (PUT /_admin/datasets/ID/quirks) as the API serves them: the page size cap, alone and with
 * the quirks that edit or leave out records of the unfiltered list; and errors that quote the token.
 */
import { SampleDataset, callApiJson, sampleServiceUrl, type Completion } from '../support/sample-service';

interface CompletionPage {
  ok: true;
  completedtrainings: Completion[];
  paging: { page: number; limit: number; total: number; last_page: number };
}

let dataset: SampleDataset;
let all: Completion[];

beforeAll(async () => {
  dataset = await SampleDataset.create({ completions: 40, users: 6, trainings: 3 });
  all = (await dataset.data()).completions;
});

afterAll(() => dataset.delete());

beforeEach(() => dataset.setQuirks({}));

function list(parameters: Record<string, unknown>): Promise<CompletionPage> {
  return callApiJson<CompletionPage>('completedtrainings.list', {
    token: dataset.tokens.valid,
    ...parameters,
  });
}

describe('pageSizeCap', () => {
  test('pages hold at most the cap whatever the limit asks, and last_page counts pages of the cap', async () => {
    await dataset.setQuirks({ pageSizeCap: 5 });
    const served: Completion[] = [];
    for (let page = 1; page <= 8; page++) {
      const answer = await list({ limit: 1000, page });
      expect(answer.paging).toEqual({ page, limit: 5, total: 40, last_page: 8 });
      expect(answer.completedtrainings).toEqual(all.slice((page - 1) * 5, page * 5));
      served.push(...answer.completedtrainings);
    }
    expect(served).toEqual(all);
    expect((await list({ limit: 1000, page: 9 })).completedtrainings).toEqual([]);
  });

  test('a last page holds the remainder', async () => {
    await dataset.setQuirks({ pageSizeCap: 7 });
    const last = await list({ limit: 1000, page: 6 });
    expect(last.paging).toEqual({ page: 6, limit: 7, total: 40, last_page: 6 });
    expect(last.completedtrainings).toEqual(all.slice(35));
  });

  test('a limit below the cap wins, and so does the default limit', async () => {
    await dataset.setQuirks({ pageSizeCap: 5 });
    const small = await list({ limit: 3, page: 2 });
    expect(small.paging).toEqual({ page: 2, limit: 3, total: 40, last_page: 14 });
    expect(small.completedtrainings).toEqual(all.slice(3, 6));
    expect((await list({})).paging).toEqual({ page: 1, limit: 5, total: 40, last_page: 8 });
    await dataset.setQuirks({ pageSizeCap: 1000 });
    expect((await list({})).paging).toEqual({ page: 1, limit: 100, total: 40, last_page: 1 });
  });

  test('filtered lists are capped too', async () => {
    await dataset.setQuirks({ pageSizeCap: 2 });
    const userId = all[0]!.user_id;
    const matching = all.filter((completion) => completion.user_id === userId);
    expect(matching.length).toBeGreaterThan(2);
    const lastPage = Math.ceil(matching.length / 2);
    const served: Completion[] = [];
    for (let page = 1; page <= lastPage; page++) {
      const answer = await list({ user_id: userId, limit: 1000, page });
      expect(answer.paging).toEqual({ page, limit: 2, total: matching.length, last_page: lastPage });
      served.push(...answer.completedtrainings);
    }
    expect(served).toEqual(matching);
  });

  test('an empty list still has last_page 1', async () => {
    const empty = await SampleDataset.create({ completions: 0 });
    try {
      await empty.setQuirks({ pageSizeCap: 5 });
      const answer = await callApiJson<CompletionPage>('completedtrainings.list', {
        token: empty.tokens.valid,
        limit: 1000,
      });
      expect(answer.paging).toEqual({ page: 1, limit: 5, total: 0, last_page: 1 });
    } finally {
      await empty.delete();
    }
  });

  test('changing or removing the cap changes the pages served at once (no stale cached page)', async () => {
    await dataset.setQuirks({ pageSizeCap: 5 });
    expect((await list({ limit: 1000, page: 2 })).completedtrainings).toEqual(all.slice(5, 10));
    await dataset.setQuirks({ pageSizeCap: 4 });
    expect((await list({ limit: 1000, page: 2 })).completedtrainings).toEqual(all.slice(4, 8));
    await dataset.setQuirks({});
    const uncapped = await list({ limit: 1000, page: 1 });
    expect(uncapped.completedtrainings).toEqual(all);
    expect(uncapped.paging.last_page).toBe(1);
  });

  test('missingFromFullList and completionFields name positions of the whole list across capped pages', async () => {
    await dataset.setQuirks({
      pageSizeCap: 5,
      missingFromFullList: [7],
      completionFields: [{ position: 8, fields: { user_id: '  edited ' } }],
    });
    const page2 = await list({ limit: 1000, page: 2 });
    expect(page2.completedtrainings).toEqual([all[5], all[6], { ...all[8], user_id: '  edited ' }, all[9]]);
    expect(page2.paging).toEqual({ page: 2, limit: 5, total: 40, last_page: 8 });
    // Neither quirk leaks onto a neighbouring page of the same records.
    expect((await list({ limit: 1000, page: 1 })).completedtrainings).toEqual(all.slice(0, 5));
    expect((await list({ limit: 1000, page: 3 })).completedtrainings).toEqual(all.slice(10, 15));
    // Filtered lists keep the record missing from the full list.
    const userId = all[7]!.user_id;
    const filtered: Completion[] = [];
    for (let page = 1; ; page++) {
      const answer = await list({ user_id: userId, limit: 1000, page });
      filtered.push(...answer.completedtrainings);
      if (page >= answer.paging.last_page) break;
    }
    expect(filtered).toContainEqual(all[7]);
  });

  test.each([0, 1001, 2.5, '5', null])('a cap of %p is rejected with 400', async (cap) => {
    const response = await fetch(`${sampleServiceUrl()}/_admin/datasets/${dataset.id}/quirks`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pageSizeCap: cap }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('pageSizeCap') });
  });
});

describe('quoteTokenInErrors', () => {
  test("every error the dataset's tokens get quotes the token three times; answers and other datasets' errors do not", async () => {
    await dataset.setQuirks({ quoteTokenInErrors: true });
    const inactive = await callApiJson<{ ok: false; error: string; description: string }>(
      'completedtrainings.list',
      { token: dataset.tokens.inactive },
    );
    expect(inactive.error).toBe('token_inactive');
    expect(inactive.description.split(dataset.tokens.inactive)).toHaveLength(4);
    const refused = await callApiJson<{ description: string }>('completedtrainings.list', {
      token: dataset.tokens.valid,
      limit: 0,
    });
    expect(refused.description).toContain(`"${dataset.tokens.valid}"`);
    expect(refused.description).toContain(`token=${dataset.tokens.valid};`);
    expect(refused.description).toContain(`again:${dataset.tokens.valid})`);
    await dataset.setFaults({ queue: [{ fault: 'server_error', times: 1 }] });
    expect(
      (await callApiJson<{ description: string }>('equipmenttypes.list', { token: dataset.tokens.valid }))
        .description,
    ).toContain(dataset.tokens.valid);
    await dataset.setFaults({});
    expect((await list({ limit: 3 })).completedtrainings).toHaveLength(3);
    const unknown = await callApiJson<{ description: string }>('completedtrainings.list', {
      token: 'NotARealToken00000000000000000',
    });
    expect(unknown.description).not.toContain('NotARealToken');

    await dataset.setQuirks({});
    const plain = await callApiJson<{ description: string }>('completedtrainings.list', {
      token: dataset.tokens.inactive,
    });
    expect(plain.description).not.toContain(dataset.tokens.inactive);
  });
});
