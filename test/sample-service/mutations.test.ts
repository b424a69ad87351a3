/** Data changes between runs: added and removed completions, renamed and removed equipment types. */
import { SampleDataset, callApiJson, type Completion, type EquipmentType } from '../support/sample-service';

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
