/**
 * Data changes between runs: added and removed completions (by count or at positions), inserted and
 * duplicated completions, renamed and removed equipment types.
 */
import {
  SampleDataset,
  callApi,
  callApiJson,
  type Completion,
  type EquipmentType,
  type MutationsRequest,
} from '../support/sample-service';

const created: SampleDataset[] = [];

async function create(): Promise<SampleDataset> {
  const dataset = await SampleDataset.create({ seed: 21, completions: 200, equipmentTypes: 8 });
  created.push(dataset);
  return dataset;
}

afterAll(() => Promise.all(created.map((dataset) => dataset.delete())));

const key = (completion: Completion) => JSON.stringify(completion);

test('added completions are newer than every existing one and lead the list', async () => {
  const dataset = await create();
  const before = (await dataset.data()).completions;
  const { added, removed } = await dataset.mutate({ addCompletions: 7 });
  expect(added).toHaveLength(7);
  expect(removed).toEqual([]);
  const newestBefore = Number(before[0]!.dateNumber);
  for (const completion of added) expect(Number(completion.dateNumber)).toBeGreaterThan(newestBefore);
  const page = await callApiJson<{ completedtrainings: Completion[]; paging: { total: number } }>(
    'completedtrainings.list',
    { token: dataset.tokens.valid, limit: 1000 },
  );
  expect(page.paging.total).toBe(207);
  expect(page.completedtrainings).toEqual([...added, ...before]);
});

test('backdated completions are dated the given days before the newest and sit inside the list', async () => {
  const dataset = await create();
  const before = (await dataset.data()).completions;
  const { added } = await dataset.mutate({ addBackdatedCompletions: { count: 4, daysBeforeNewest: 3 } });
  expect(added).toHaveLength(4);
  const newest = Number(before[0]!.dateNumber);
  const day = (dateNumber: number) => {
    const text = String(dateNumber);
    return (
      Date.UTC(Number(text.slice(0, 4)), Number(text.slice(4, 6)) - 1, Number(text.slice(6, 8))) / 86_400_000
    );
  };
  for (const completion of added) expect(day(newest) - day(Number(completion.dateNumber))).toBe(3);
  const after = (await dataset.data()).completions;
  expect(after).toHaveLength(before.length + 4);
  expect(after[0]).toEqual(before[0]);
  const dates = after.map((completion) => Number(completion.dateNumber));
  expect(dates).toEqual([...dates].sort((a, b) => b - a));
});

test('removed completions are existing ones, gone from the API afterwards, and picked deterministically', async () => {
  const [one, twin] = await Promise.all([create(), create()]);
  const before = (await one.data()).completions;
  const result = await one.mutate({ removeCompletions: 5 });
  expect(result.removed).toHaveLength(5);
  const beforeKeys = new Set(before.map(key));
  for (const completion of result.removed) expect(beforeKeys.has(key(completion))).toBe(true);
  const after = (await one.data()).completions;
  expect(after).toEqual(before.filter((completion) => !result.removed.map(key).includes(key(completion))));
  // Not simply the oldest: removals are spread over the list.
  expect(result.removed).not.toEqual(before.slice(-5));
  expect((await twin.mutate({ removeCompletions: 5 })).removed).toEqual(result.removed);
});

test('removing and adding in one call never removes what was just added', async () => {
  const dataset = await create();
  const before = (await dataset.data()).completions;
  const { added, removed } = await dataset.mutate({ addCompletions: 3, removeCompletions: 200 });
  expect(removed).toHaveLength(200);
  expect((await dataset.data()).completions).toEqual(added);
  expect(new Set(removed.map(key))).toEqual(new Set(before.map(key)));
});

test('equipment types can be renamed and removed', async () => {
  const dataset = await create();
  const [first, second, third] = (await dataset.data()).equipmenttypes;
  await dataset.mutate({
    renameEquipmentTypes: [{ id: first!.id, title: 'Renamed ✓' }],
    removeEquipmentTypes: [second!.id],
  });
  const listed = await callApiJson<{ equipmenttypes: EquipmentType[] }>('equipmenttypes.list', {
    token: dataset.tokens.valid,
  });
  expect(listed.equipmenttypes).toHaveLength(7);
  expect(listed.equipmenttypes[0]).toEqual({ ...first, title: 'Renamed ✓' });
  expect(listed.equipmenttypes[1]).toEqual(third);
});

test.each([
  ['an unknown equipment type to rename', { renameEquipmentTypes: [{ id: 'nope', title: 'x' }] }],
  ['an unknown equipment type to remove', { removeEquipmentTypes: ['nope'] }],
  ['more removals than completions', { removeCompletions: 201 }],
])('a mutation with %s is rejected and changes nothing', async (_, mutations) => {
  const dataset = await create();
  const before = await dataset.data();
  await expect(dataset.mutate({ addCompletions: 2, ...mutations })).rejects.toThrow(/failed with 400/);
  expect(await dataset.data()).toEqual(before);
});

/** Every page of the unfiltered list as the API serves it, `limit` at a time. */
async function servedList(dataset: SampleDataset, limit: number): Promise<Completion[]> {
  const served: Completion[] = [];
  for (let page = 1; ; page++) {
    const answer = await callApiJson<{ completedtrainings: Completion[]; paging: { last_page: number } }>(
      'completedtrainings.list',
      { token: dataset.tokens.valid, limit, page },
    );
    served.push(...answer.completedtrainings);
    if (page >= answer.paging.last_page) return served;
  }
}

const INSERTED = 'inserted';

/**
 * The list positional mutations should leave, from the list before them: at each old position the
 * records inserted there, then the old record unless removed, then its copies. New records are
 * INSERTED placeholders, since the service makes them.
 */
function positionalModel(
  before: readonly Completion[],
  {
    removeAt = [],
    insertAt = [],
    duplicateAt = [],
  }: { removeAt?: number[]; insertAt?: number[]; duplicateAt?: number[] },
): Array<Completion | typeof INSERTED> {
  const expected: Array<Completion | typeof INSERTED> = [];
  for (let position = 0; position <= before.length; position++) {
    for (const at of insertAt) if (at === position) expected.push(INSERTED);
    const completion = before[position];
    if (completion === undefined) break;
    if (removeAt.includes(position)) continue;
    expected.push(completion);
    for (const at of duplicateAt) if (at === position) expected.push({ ...completion });
  }
  return expected;
}

/** Checks `after` against the model: old records in place, new ones where the placeholders are. */
function expectModel(
  after: readonly Completion[],
  expected: Array<Completion | typeof INSERTED>,
  before: readonly Completion[],
) {
  expect(after).toHaveLength(expected.length);
  const beforeKeys = new Set(before.map(key));
  expected.forEach((wanted, index) => {
    if (wanted === INSERTED) expect(beforeKeys.has(key(after[index]!))).toBe(false);
    else expect(after[index]).toEqual(wanted);
  });
}

const isNewestFirst = (completions: readonly Completion[]) =>
  completions.every(
    (completion, index) =>
      index === 0 || Number(completions[index - 1]!.dateNumber) >= Number(completion.dateNumber),
  );

describe('positional mutations', () => {
  test('removeCompletionsAt removes exactly the records at those positions, from the data and the pages', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const { added, removed } = await dataset.mutate({ removeCompletionsAt: [199, 0, 57] });
    expect(added).toEqual([]);
    expect(removed).toEqual([before[0], before[57], before[199]]);
    const after = (await dataset.data()).completions;
    expect(after).toEqual(before.filter((_, position) => ![0, 57, 199].includes(position)));
    expect(await servedList(dataset, 30)).toEqual(after);
  });

  test('an inserted completion lands at its position, dated like the record that was there, with the fields given', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const fields = {
      user_id: '  u 7 ',
      training_id: '',
      instructor_id: '007',
      groupTraining_id: '=1+1',
      specialExpirationDateNumber: 20240230,
    };
    const { added, removed } = await dataset.mutate({ insertCompletionsAt: [{ position: 12, fields }] });
    expect(removed).toEqual([]);
    expect(added).toHaveLength(1);
    const inserted = added[0]!;
    expect(inserted).toMatchObject({ ...fields, dateNumber: before[12]!.dateNumber });
    expect(typeof inserted.created).toBe('number');
    const after = (await dataset.data()).completions;
    expect(after).toEqual([...before.slice(0, 12), inserted, ...before.slice(12)]);
    expect(isNewestFirst(after)).toBe(true);
    const page = await callApiJson<{ completedtrainings: Completion[] }>('completedtrainings.list', {
      token: dataset.tokens.valid,
      limit: 10,
      page: 2,
    });
    expect(page.completedtrainings[2]).toEqual(inserted);
    expect(await servedList(dataset, 1000)).toEqual(after);
  });

  test('inserted completions are new records, distinct from every other even without fields', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const { added } = await dataset.mutate({
      insertCompletionsAt: [{ position: 5 }, { position: 5 }, { position: 6 }],
    });
    const keys = new Set([...before, ...added].map(key));
    expect(keys.size).toBe(before.length + 3);
    for (const completion of added) {
      expect(completion).toEqual({
        user_id: expect.any(String),
        training_id: expect.any(String),
        created: expect.any(Number),
        dateNumber: expect.any(Number),
        instructor_id: expect.any(String),
        groupTraining_id: expect.any(String),
        ...(completion.specialExpirationDateNumber === undefined
          ? {}
          : { specialExpirationDateNumber: expect.any(Number) }),
      });
    }
  });

  test('inserts on top, in the middle and at the end all refer to the list before the request', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const insertAt = [200, 0, 120, 12, 12];
    const { added } = await dataset.mutate({
      insertCompletionsAt: insertAt.map((position, index) => ({
        position,
        fields: { user_id: `new-${index}` },
      })),
    });
    const after = (await dataset.data()).completions;
    expectModel(after, positionalModel(before, { insertAt }), before);
    // Several at one position land in the order given; `added` is in list order.
    expect(after.filter((completion) => completion.user_id.startsWith('new-')).map((c) => c.user_id)).toEqual(
      ['new-1', 'new-3', 'new-4', 'new-2', 'new-0'],
    );
    expect(added.map((completion) => completion.user_id)).toEqual([
      'new-1',
      'new-3',
      'new-4',
      'new-2',
      'new-0',
    ]);
    // At the end: dated like the last record.
    expect(after[after.length - 1]).toMatchObject({ user_id: 'new-0', dateNumber: before[199]!.dateNumber });
    expect(after[0]).toMatchObject({ user_id: 'new-1', dateNumber: before[0]!.dateNumber });
    expect(isNewestFirst(after)).toBe(true);
  });

  test('a record inserted among records of its own date stays where it was put when backdated ones are added later', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    // A position whose record shares its date with the one before it, so sorting could move the insert.
    const position = before.findIndex(
      (completion, index) => index > 0 && completion.dateNumber === before[index - 1]!.dateNumber,
    );
    expect(position).toBeGreaterThan(0);
    const { added } = await dataset.mutate({ insertCompletionsAt: [{ position }] });
    await dataset.mutate({ addBackdatedCompletions: { count: 3, daysBeforeNewest: 1 } });
    const after = (await dataset.data()).completions;
    const at = after.findIndex((completion) => key(completion) === key(added[0]!));
    expect(after[at - 1]).toEqual(before[position - 1]);
    expect(after[at + 1]).toEqual(before[position]);
  });

  test('an empty dataset takes an insert at position 0, and nothing further', async () => {
    const dataset = await SampleDataset.create({ completions: 0 });
    created.push(dataset);
    await expect(dataset.mutate({ insertCompletionsAt: [{ position: 1 }] })).rejects.toThrow(
      /failed with 400/,
    );
    const { added } = await dataset.mutate({
      insertCompletionsAt: [{ position: 0, fields: { user_id: 'only' } }],
    });
    expect(added).toEqual([expect.objectContaining({ user_id: 'only', dateNumber: expect.any(Number) })]);
    expect((await dataset.data()).completions).toEqual(added);
  });

  test('duplicateCompletionsAt serves identical twins, one after the other', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const { added, removed } = await dataset.mutate({ duplicateCompletionsAt: [5, 9, 9] });
    expect(removed).toEqual([]);
    expect(added).toEqual([before[5], before[9], before[9]]);
    const after = (await dataset.data()).completions;
    expectModel(after, positionalModel(before, { duplicateAt: [5, 9, 9] }), before);
    expect(after[6]).toEqual(after[5]);
    expect(after.slice(10, 13)).toEqual([before[9], before[9], before[9]]);
    // Byte for byte the same JSON in the page served.
    const response = await callApi('completedtrainings.list', { token: dataset.tokens.valid, limit: 10 });
    const json = JSON.stringify(before[5]);
    expect(response.text).toContain(`${json},${json}`);
    const page = JSON.parse(response.text) as { completedtrainings: Completion[] };
    expect(page.completedtrainings[5]).toEqual(page.completedtrainings[6]);
  });

  test('removals, inserts and duplicates in one request all name the list before it', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const { added, removed } = await dataset.mutate({
      removeCompletionsAt: [3, 12],
      insertCompletionsAt: [{ position: 12, fields: { user_id: '  u 7 ' } }],
      duplicateCompletionsAt: [5],
    });
    expect(removed).toEqual([before[3], before[12]]);
    expect(added).toEqual([before[5], expect.objectContaining({ user_id: '  u 7 ' })]);
    const after = (await dataset.data()).completions;
    expectModel(
      after,
      positionalModel(before, { removeAt: [3, 12], insertAt: [12], duplicateAt: [5] }),
      before,
    );
    // The insert took the place of the record removed there, with its date.
    expect(after[12]).toMatchObject({ user_id: '  u 7 ', dateNumber: before[12]!.dateNumber });
    expect(await servedList(dataset, 7)).toEqual(after);
  });

  test('positional mutations combine with additions on top', async () => {
    const dataset = await create();
    const before = (await dataset.data()).completions;
    const { added, removed } = await dataset.mutate({ addCompletions: 2, removeCompletionsAt: [0] });
    expect(removed).toEqual([before[0]]);
    expect(added).toHaveLength(2);
    expect((await dataset.data()).completions).toEqual([...added, ...before.slice(1)]);
  });

  test.each<[string, MutationsRequest, RegExp]>([
    ['a removal at the length', { removeCompletionsAt: [200] }, /removeCompletionsAt: no position 200/],
    ['a removal named twice', { removeCompletionsAt: [4, 4] }, /names 4 more than once/],
    [
      'an insert beyond the end',
      { insertCompletionsAt: [{ position: 201 }] },
      /insertCompletionsAt: no position 201/,
    ],
    [
      'a duplicate at the length',
      { duplicateCompletionsAt: [200] },
      /duplicateCompletionsAt: no position 200/,
    ],
    [
      'a position removed and duplicated',
      { removeCompletionsAt: [8], duplicateCompletionsAt: [8] },
      /both removed and duplicated: 8/,
    ],
    [
      'random removals with positional ones',
      { removeCompletions: 1, duplicateCompletionsAt: [1] },
      /removeCompletions picks records at random/,
    ],
    ['a negative position', { removeCompletionsAt: [-1] }, /removeCompletionsAt/],
    ['a fractional position', { duplicateCompletionsAt: [1.5] }, /duplicateCompletionsAt/],
    // dateNumber comes from the position; created from the factory.
    [
      'a field that cannot be set',
      { insertCompletionsAt: [{ position: 1, fields: { dateNumber: 1 } as never }] },
      /dateNumber/,
    ],
    [
      'a field of the wrong type',
      { insertCompletionsAt: [{ position: 1, fields: { user_id: 7 as never } }] },
      /user_id/,
    ],
  ])('a mutation with %s is rejected with a clear 400 and changes nothing', async (_, mutations, message) => {
    const dataset = await create();
    const before = await dataset.data();
    const rejection = dataset.mutate({
      addCompletions: 2,
      insertCompletionsAt: [{ position: 0 }],
      ...mutations,
    });
    await expect(rejection).rejects.toThrow(/failed with 400/);
    await expect(rejection).rejects.toThrow(message);
    expect(await dataset.data()).toEqual(before);
  });
});
