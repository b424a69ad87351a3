/**
 * The run lease under overlapping executions, on the real bundle. Apps Script commits a run's
 * Spreadsheet writes at flush(), at its next read of the spreadsheet or at its end (PLATFORM.md), so
 * a lease written under the script lock and not flushed before the lock is released is not yet there
 * for a run that starts in between: both would take it.
 */
import { createAddonHarness } from '../support/addon-harness';

test('a run starting just after another took the lease finds it taken', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 61 } });
  harness.connect();
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  let secondSaw = '';
  // The second run starts once the first has released the script lock it took the lease under, and
  // before the first reads the spreadsheet again (a read would commit the lease anyway).
  harness.emulator.beforeNextCall('Lock.releaseLock', () => {
    harness.emulator.beforeNextCall('Spreadsheet.getSpreadsheetTimeZone', () => {
      harness.clickMenu('Import equipment types');
      secondSaw = ui.alerts[ui.alerts.length - 1]!.message;
    });
  });
  harness.clickMenu('Import equipment types');
  expect(harness.emulator.pendingOverlaps()).toBe(0);
  expect(secondSaw).toMatch(/^An import is already running in this spreadsheet/);
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
  await harness.done();
});
