/**
 * A full import removes a row that carries the user's own cells only when a filtered read confirms
 * that its record is gone: a read that missed a live record refuses to finish and changes nothing.
 */
import type { Completion } from '../../../src/api/schemas';
import { completionKey } from '../../../src/api/completion-key';
import { createAddonHarness } from '../../support/addon-harness';

const TAB = 'Completed trainings';

test('a record missing from the full read but still listed keeps its row and its note; one really gone goes, and the Sync log says why', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 111, completions: 3_000, users: 30 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  // Notes beside the records at positions 10 and 20 (rows 12 and 22).
  workbook.typeValues(`'${TAB}'!K1`, [['Signed off by']]);
  workbook.typeValues(`'${TAB}'!K12`, [['Ada']]);
  workbook.typeValues(`'${TAB}'!K22`, [['Grace']]);
  const before = harness.displayed(TAB);
  const ui = workbook.ui;

  // The full list leaves out two live records (one with a note); filtered lists still have them.
  await harness.dataset.setQuirks({ missingFromFullList: [10, 30] });
  harness.clickMenu('Reconcile completed trainings');

  const [userId, , trainingId] = before[11]!;
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(
    new RegExp(
      `^Nothing was changed: 1 row with your own notes was missing from the full read, but the service still lists its record: user ${userId}, training ${trainingId}\\. Run the import again`,
    ),
  );
  expect(harness.displayed(TAB)).toEqual(before);
  expect(harness.displayed('Sync log')[1]![7]).toBe('Failed');

  // Now a record with a note really goes upstream.
  await harness.dataset.setQuirks({});
  const served = (await harness.dataset.data()).completions as unknown as Completion[];
  const { removed } = await harness.dataset.mutate({ removeCompletions: 3 });
  const gone = removed as unknown as Completion[];
  const goneRow = harness.displayed(TAB).findIndex((row) => row[9] === completionKey(gone[0]!));
  workbook.typeValues(`'${TAB}'!K${goneRow + 1}`, [['note on a record that goes']]);

  harness.clickMenu('Reconcile completed trainings');

  const after = harness.displayed(TAB);
  expect(after).toHaveLength(served.length - 3 + 1);
  expect(after.flat()).not.toContain('note on a record that goes');
  expect(after.find((row) => row[9] === before[11]![9])![10]).toBe('Ada');
  const [line] = harness.displayed('Sync log').slice(1);
  expect(line![7]).toBe('Success');
  expect(line![10]).toBe(
    `1 row with your own notes removed, because its record is gone (the service no longer lists it for its user and training): user ${gone[0]!.user_id}, training ${gone[0]!.training_id}.`,
  );
  await harness.done();
});
