/**
 * The sentence a filtered import that found nothing ends with when the spaces around an id are the
 * likely reason: asked of the sample service with the add-on's own client, one request at most.
 */
import { nodeTransport } from '../../../dev/http/node-transport';
import { ServiceClient } from '../../../src/api/client';
import type { CompletionsFilter } from '../../../src/api/completions-contract';
import { filterSpacesHint } from '../../../src/trainings/completions/filter-hint';
import { type RequestLogEntry, SampleDataset, sampleServiceUrl } from '../../support/sample-service';

let dataset: SampleDataset;
let trainingOfPadded: string;

beforeAll(async () => {
  dataset = await SampleDataset.create({ seed: 7, completions: 30, users: 6 });
  trainingOfPadded = (await dataset.data()).completions[0]!.training_id;
  // "padded" has 7 completions, 2 of them of one training; nobody's id has spaces.
  const fields = Array.from({ length: 7 }, (_, index) => ({
    user_id: 'padded',
    ...(index < 2 ? { training_id: trainingOfPadded } : { training_id: 'another' }),
  }));
  await dataset.mutate({
    insertCompletionsAt: fields.map((each, index) => ({ position: 2 * index, fields: each })),
  });
});
afterAll(() => dataset.delete());

beforeEach(() => dataset.clearRequestLog());

function client(): ServiceClient {
  return new ServiceClient({
    baseUrl: sampleServiceUrl(),
    token: dataset.tokens.valid,
    transport: nodeTransport,
    sleep: () => {},
    maxAttempts: 1,
  });
}

async function requests(): Promise<RequestLogEntry['params'][]> {
  return (await dataset.requestLog()).requests.map((request) => request.params);
}

test('a padded user id that matched nothing: how many the id without its spaces has, from one request', async () => {
  expect(filterSpacesHint(client(), { user_id: '  padded  ' }, 0)).toBe(
    'No completions matched user "  padded  " as typed (with its spaces); user "padded" has 7 — ' +
      'check the filter in Import completed trainings….',
  );
  expect(await requests()).toEqual([{ user_id: 'padded', page: 1, limit: 1 }]);
});

test('both ids of the filter are named, each quoted so that its spaces show', async () => {
  const filter = { user_id: '\tpadded', training_id: ` ${trainingOfPadded} ` };
  expect(filterSpacesHint(client(), filter, 0)).toBe(
    `No completions matched user "\\tpadded" and training " ${trainingOfPadded} " as typed (with their spaces); ` +
      `user "padded" and training "${trainingOfPadded}" have 2 — check the filter in Import completed trainings….`,
  );
  expect(filterSpacesHint(client(), { user_id: 'padded ', training_id: trainingOfPadded }, 0)).toMatch(
    /^No completions matched user "padded " and training "[^"]+" as typed \(with its spaces\); .* have 2 — /,
  );
});

test.each<[string, CompletionsFilter, number]>([
  ['records were imported', { user_id: '  padded  ' }, 3],
  ['no id has spaces around it', { user_id: 'nobody' }, 0],
  ['no filter', {}, 0],
  ['spaces inside an id only', { user_id: 'pad ded' }, 0],
])('nothing to say, and nothing asked, when %s', async (_, filter, recordsImported) => {
  expect(filterSpacesHint(client(), filter, recordsImported)).toBeNull();
  expect(await requests()).toEqual([]);
});

test('nothing to say when the id without its spaces matches nothing either', async () => {
  expect(filterSpacesHint(client(), { user_id: ' nobody ' }, 0)).toBeNull();
  expect(await requests()).toEqual([{ user_id: 'nobody', page: 1, limit: 1 }]);
});

test('a service that fails the look-up leaves the hint out, not the run', async () => {
  await dataset.setFaults({ queue: [{ fault: 'server_error', method: 'completedtrainings.list' }] });
  try {
    expect(filterSpacesHint(client(), { user_id: '  padded  ' }, 0)).toBeNull();
    expect((await dataset.requestLog()).requests.map((request) => request.fault)).toEqual(['server_error']);
  } finally {
    await dataset.setFaults({});
  }
});
