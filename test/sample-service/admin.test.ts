/** The admin API itself: routing, validation and defaults. */
import { SampleDataset, sampleServiceUrl } from '../support/sample-service';

async function admin(httpMethod: string, path: string, body?: string) {
  const response = await fetch(sampleServiceUrl() + path, {
    method: httpMethod,
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test('a dataset created without options has the documented defaults', async () => {
  const dataset = await SampleDataset.create();
  try {
    const data = await dataset.data();
    expect(data.users).toHaveLength(50);
    expect(data.completions).toHaveLength(500);
    expect(data.equipmenttypes).toHaveLength(30);
    expect(new Set(data.completions.map((completion) => completion.training_id)).size).toBeLessThanOrEqual(
      20,
    );
    expect(data.completions.every((completion) => completion.created < 1e11)).toBe(true);
    const seedOne = await SampleDataset.create({ seed: 1 });
    expect(await seedOne.data()).toEqual(data);
    await seedOne.delete();
  } finally {
    await dataset.delete();
  }
});

test.each([
  ['an unknown option', '{"completion": 5}'],
  ['a negative count', '{"users": -1}'],
  ['a fractional count', '{"completions": 1.5}'],
  ['an unknown unit', '{"createdUnit": "minutes"}'],
  ['zero trainings', '{"trainings": 0}'],
  ['a body that is not JSON', '{'],
])('creating a dataset with %s answers 400', async (_, body) => {
  const response = await admin('POST', '/_admin/datasets', body);
  expect(response.status).toBe(400);
  expect(response.json).toEqual({ error: expect.any(String) });
});

test('an unknown dataset answers 404 on every endpoint', async () => {
  for (const [verb, suffix] of [
    ['GET', '/data'],
    ['PUT', '/faults'],
    ['POST', '/mutations'],
    ['GET', '/requests'],
    ['DELETE', '/requests'],
    ['DELETE', ''],
  ] as const) {
    expect(
      (await admin(verb, `/_admin/datasets/ds-unknown${suffix}`, verb === 'GET' ? undefined : '{}')).status,
    ).toBe(404);
  }
});

test('a deleted dataset is gone', async () => {
  const dataset = await SampleDataset.create({ completions: 1 });
  await dataset.delete();
  expect((await admin('GET', `/_admin/datasets/${dataset.id}/data`)).status).toBe(404);
});

test('a wrong verb answers 405 and an unknown admin path 404', async () => {
  const dataset = await SampleDataset.create({ completions: 1 });
  try {
    expect((await admin('POST', `/_admin/datasets/${dataset.id}/data`, '{}')).status).toBe(405);
    expect((await admin('GET', '/_admin/datasets')).status).toBe(405);
    expect((await admin('GET', `/_admin/datasets/${dataset.id}/other`)).status).toBe(404);
  } finally {
    await dataset.delete();
  }
});
