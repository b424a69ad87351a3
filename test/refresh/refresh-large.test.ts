/**
 * Refresh all over a large "Completed trainings" tab: finding the newest completion held must not
 * depend on how many rows there are (spreading 125,000 values into Math.max overflows the stack).
 */
import type { Completion } from '../../src/api/schemas';
import { completionKey } from '../../src/api/completion-key';
import { createAddonHarness } from '../support/addon-harness';

test('Refresh all over 130,000 rows adds the new records on top', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 91, completions: 130_000, users: 50 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  expect(harness.displayed('Completed trainings')).toHaveLength(130_001);

  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Refresh all');

  const [line] = harness.displayed('Sync log').slice(1);
  expect(line!.slice(7, 8)).toEqual(['Success']);
  expect(line![10]).toMatch(/^Added 3 new completed trainings\./);
  const served = (await harness.dataset.data()).completions as unknown as Completion[];
  const shown = harness.displayed('Completed trainings').slice(1);
  expect(shown.slice(0, 3).map((row) => row[9])).toEqual(served.slice(0, 3).map(completionKey));
  expect(shown).toHaveLength(130_003);
  await harness.done();
}, 180_000);
