/**
 * The import filter is kept exactly as typed, by the import dialog and by Settings alike: ids are
 * opaque, so "  padded  " is a user with those spaces, not "padded". When such a filter matches
 * nothing and the id without its spaces would, the run's message and its Sync log line say so.
 * dist/Code.js in the emulator, the sample service over loopback.
 */
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import type { RequestLogEntry } from '../../support/sample-service';

const TAB = 'Completed trainings';
const USER_ID_COLUMN = 0;
const DETAILS_COLUMN = 10;
const HINT =
  'No completions matched user "  padded  " as typed (with its spaces); user "padded" has 7 — ' +
  'check the filter in Import completed trainings….';

/** Runs the import the way the dialog does: start, then continue until done. */
function importViaDialog(harness: AddonHarness, filter: { user_id?: string; training_id?: string }) {
  let step = harness.callServer('startCompletionsImport', filter);
  while (!step.done) step = harness.callServer('continueCompletionsImport');
  return step;
}

/** A small dataset with `count` completions of each user id given, spread over the list. */
async function harnessWithUsers(counts: Record<string, number>): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { seed: 25, completions: 40, users: 8 } });
  const inserted = Object.entries(counts).flatMap(([userId, count]) =>
    Array.from({ length: count }, () => ({ user_id: userId })),
  );
  await harness.dataset.mutate({
    insertCompletionsAt: inserted.map((fields, index) => ({ position: 3 * index, fields })),
  });
  harness.connect();
  await harness.dataset.clearRequestLog();
  return harness;
}

async function completionRequests(harness: AddonHarness): Promise<RequestLogEntry[]> {
  const { requests } = await harness.dataset.requestLog();
  return requests.filter((request) => request.method === 'completedtrainings.list');
}

test('a padded user id typed in the dialog is remembered as typed and imports exactly that user', async () => {
  const harness = await harnessWithUsers({ '  padded  ': 7, padded: 3 });
  const step = importViaDialog(harness, { user_id: '  padded  ' });

  expect(step.summary).toMatch(/^Imported 7 completed trainings/);
  expect(harness.callServer('getCompletionsFilter')).toEqual({ user_id: '  padded  ' });
  expect(harness.callServer('getSettings').importOptions.completionsFilter).toEqual({
    user_id: '  padded  ',
  });
  const userIds = harness
    .displayed(TAB)
    .slice(1)
    .map((row) => row[USER_ID_COLUMN]);
  expect(userIds).toEqual(Array(7).fill('  padded  '));
  // Something matched: no request for the id without its spaces.
  const asked = (await completionRequests(harness)).map((request) => request.params.user_id);
  expect(new Set(asked)).toEqual(new Set(['  padded  ']));
  await harness.done();
});

test('a padded user id that matches nothing, while the id without its spaces does, says so in the message and the Sync log', async () => {
  const harness = await harnessWithUsers({ padded: 7 });
  const step = importViaDialog(harness, { user_id: '  padded  ' });

  expect(step.summary).toMatch(/^Imported 0 completed trainings/);
  expect(step.summary).toContain(HINT);
  const [line] = harness.displayed('Sync log').slice(1);
  expect(line![DETAILS_COLUMN]).toContain(HINT);
  expect(harness.displayed(TAB).slice(1)).toEqual([]);
  // One request more than the import's: the trimmed id, one record a page (its last page counts them).
  const lookups = (await completionRequests(harness)).filter(
    (request) => request.params.user_id === 'padded',
  );
  expect(lookups.map((request) => request.params)).toEqual([{ user_id: 'padded', page: 1, limit: 1 }]);
  await harness.done();
});

describe('Settings and the import dialog keep the filter by one rule', () => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await harnessWithUsers({});
  });
  afterAll(() => harness.done());

  const settingsFilter = () => harness.callServer('getSettings').importOptions.completionsFilter;

  function saveInSettings(userId: string, trainingId: string) {
    const { baseUrl } = harness.callServer('getSettings');
    return harness.callServer('saveSettings', { baseUrl, token: '', userId, trainingId });
  }

  test('ids with spaces, leading zeros or "=" stay exactly as typed, whichever dialog saves them', () => {
    for (const typed of [
      { user_id: '  u 7 ', training_id: ' T-1' },
      { user_id: '007', training_id: 'a=b' },
    ]) {
      saveInSettings('', '');
      importViaDialog(harness, typed);
      expect(settingsFilter()).toEqual(typed);
      expect(harness.callServer('getCompletionsFilter')).toEqual(typed);

      saveInSettings('', '');
      expect(saveInSettings(typed.user_id, typed.training_id)).toMatchObject({ ok: true });
      expect(settingsFilter()).toEqual(typed);
      expect(harness.callServer('getCompletionsFilter')).toEqual(typed);
    }
  });

  test('an id of only spaces is refused next to its field by both, and nothing is saved or sent', async () => {
    saveInSettings('u1', 'T1');
    await harness.dataset.clearRequestLog();

    const fromSettings = saveInSettings('   ', 'T1');
    const fromDialog = harness.callServer('startCompletionsImport', { user_id: '   ', training_id: 'T1' });
    expect(fromSettings).toEqual({
      ok: false,
      field: 'userId',
      message: expect.stringMatching(/only spaces/),
    });
    expect(fromDialog).toEqual({
      done: true,
      summary: 'Nothing was imported: see the message next to the field.',
      refusal: fromSettings,
    });
    const trainingRefusal = saveInSettings('u1', ' ');
    expect(trainingRefusal).toMatchObject({ ok: false, field: 'trainingId' });
    expect(harness.callServer('startCompletionsImport', { user_id: 'u1', training_id: ' ' }).refusal).toEqual(
      trainingRefusal,
    );

    expect(settingsFilter()).toEqual({ user_id: 'u1', training_id: 'T1' });
    expect(await completionRequests(harness)).toEqual([]);

    // An empty field is no id: it still means every user (or training).
    importViaDialog(harness, { user_id: '', training_id: '' });
    expect(settingsFilter()).toEqual({});
  });
});
