/**
 * User names are decoration: the contract shows users.info only as an example, so a service that
 * refuses it must not stop an import. The records come in with empty name columns, the run says
 * once why, and users.info is not asked again for every id.
 */
import type { Completion } from '../../../src/api/schemas';
import { completionKey } from '../../../src/api/completion-key';
import { createAddonHarness } from '../../support/addon-harness';

const TAB = 'Completed trainings';

function usersInfoRequests(requests: readonly { url: string }[]): number {
  return requests.filter((request) => request.url.endsWith('/v1/users.info')).length;
}

describe.each(['api_method_not_found', 'parameter_invalid', 'token_permission'] as const)(
  'users.info answering %s',
  (refusal) => {
    test('the import completes without names, says so once, and stops asking', async () => {
      const harness = await createAddonHarness({ dataset: { seed: 71, completions: 2_500, users: 60 } });
      harness.connect();
      // Rounds of ten ids, so that the 60 users' and instructors' ids need several.
      harness.useBatchSize(10);
      await harness.dataset.setQuirks({ refusedMethods: { 'users.info': refusal } });
      harness.emulator.urlFetch.requests.length = 0;

      harness.clickMenu('Reconcile completed trainings');

      const shown = harness.displayed(TAB).slice(1);
      const served = (await harness.dataset.data()).completions as unknown as Completion[];
      expect(shown.map((row) => row[9])).toEqual(served.map(completionKey));
      expect(shown.every((row) => row[1] === '' && row[6] === '')).toBe(true);
      // One round of ten told that the method is refused; no id after it.
      expect(usersInfoRequests(harness.emulator.urlFetch.requests)).toBeLessThanOrEqual(10);

      const [line] = harness.displayed('Sync log').slice(1);
      expect(line![7]).toBe('Success');
      const namesNote = new RegExp(
        `User and instructor names are left empty: the service refused users\\.info \\(${refusal}\\)`,
        'g',
      );
      expect(line![10]!.match(namesNote)).toHaveLength(1);
      const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
      expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(namesNote);

      // A later Refresh all brings new records in the same way.
      await harness.dataset.mutate({ addCompletions: 5 });
      harness.clickMenu('Refresh all');
      expect(harness.displayed(TAB)).toHaveLength(2_506);
      expect(harness.displayed('Sync log')[1]![7]).toBe('Success');
      await harness.done();
    });
  },
);

test("users' names ride with the pages' rounds: a three-page import takes three rounds, each name asked once", async () => {
  const harness = await createAddonHarness({ dataset: { seed: 72, completions: 2_500, users: 40 } });
  harness.connect();
  harness.emulator.urlFetch.requests.length = 0;

  harness.clickMenu('Reconcile completed trainings');

  // A fetchAll's requests all come back at the moment its slowest does.
  const rounds = new Map<number, string[]>();
  for (const { answeredAtRealMs, url, payload } of harness.emulator.urlFetch.requests) {
    const asked = url.endsWith('/v1/users.info') ? `user ${JSON.parse(payload!).user}` : 'page';
    rounds.set(answeredAtRealMs!, [...(rounds.get(answeredAtRealMs!) ?? []), asked]);
  }
  const served = await harness.dataset.data();
  const ids = new Set(
    (served.completions as unknown as Completion[]).flatMap((record) => [
      record.user_id,
      record.instructor_id,
    ]),
  );
  // Page 1 alone (it tells how many pages there are), then the rest of the pages with the names
  // page 1 showed, then the pages again to confirm them (with any name first seen after page 1).
  expect([...rounds.values()].map((round) => round.filter((asked) => asked === 'page').length)).toEqual([
    1, 3, 3,
  ]);
  const names = [...rounds.values()].flat().filter((asked) => asked !== 'page');
  expect(names.sort()).toEqual([...ids].map((id) => `user ${id}`).sort());
  expect(rounds.size).toBe(3);

  const nameOf = new Map(served.users.map((user) => [user.id, user.name]));
  const shown = harness.displayed(TAB).slice(1);
  expect(shown.map((row) => [row[1], row[6]])).toEqual(
    (served.completions as unknown as Completion[]).map((record) => [
      nameOf.get(record.user_id) ?? '',
      nameOf.get(record.instructor_id) ?? '',
    ]),
  );
  await harness.done();
});
