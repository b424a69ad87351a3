/**
 * A workbook whose scheduled runs always have a digest to send: equipment types imported (some
 * inspections overdue, some due soon), notifications to safety@example.com at `notifyFrequency`, and
 * an hourly schedule saved by the owner.
 */
import { type AddonHarness, createAddonHarness } from './addon-harness';

export async function harnessWithDigest(notifyFrequency: string): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { seed: 27, completions: 20, equipmentTypes: 2 } });
  harness.connect();
  harness.clickMenu('Import equipment types');
  const { baseUrl } = harness.callServer('getSettings');
  harness.callServer('saveSettings', {
    baseUrl,
    token: '',
    notifyRecipients: 'safety@example.com',
    notifyFrequency,
  });
  expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
  return harness;
}
