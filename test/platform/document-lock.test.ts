/**
 * The run lease under overlapping executions, on the real bundle. A run that starts as soon as
 * another has released the script lock it took the lease under must find the lease taken: a lease
 * kept where a write waits for a commit (the spreadsheet's own state: docs/performance.md, "One commit a full import") would not be
 * there yet, and both would run.
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

test('a lease left by a run that was stopped is free once its time is over', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 62 } });
  harness.connect();
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  const leaseKey = `safetySync.runLease.${harness.spreadsheetId}`;
  const lease = { untilMs: harness.emulator.clock.now() + 60_000 };
  harness.emulator.properties.script.set(leaseKey, JSON.stringify(lease));
  harness.clickMenu('Import equipment types');
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(
    /^An import is already running in this spreadsheet/,
  );

  harness.emulator.properties.script.set(
    leaseKey,
    JSON.stringify({ ...lease, untilMs: harness.emulator.clock.now() - 1 }),
  );
  harness.clickMenu('Import equipment types');
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
  // Released at the run's end: nothing of it stays behind.
  expect(harness.emulator.properties.script.get(leaseKey)).toBeNull();
  await harness.done();
});

test('when the script properties are full, expired leases of other spreadsheets make room', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 63 } });
  harness.connect();
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  const store = harness.emulator.properties.script;
  const stale = JSON.stringify({ untilMs: harness.emulator.clock.now() - 1 });
  const live = JSON.stringify({ untilMs: harness.emulator.clock.now() + 300_000 });
  store.set('safetySync.runLease.another-running-spreadsheet', live);
  store.set('an unrelated setting', 'kept');
  // A garbled lease holds nothing either.
  store.set('safetySync.runLease.garbled', 'not a lease');
  let used = 0;
  for (let index = 0; used < 500 * 1024 - 40; index++) {
    const key = `safetySync.runLease.stopped-${index}`;
    store.set(key, stale);
    used += key.length + stale.length;
  }
  harness.clickMenu('Import equipment types');
  expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
  expect(store.keys().sort()).toEqual([
    'an unrelated setting',
    'safetySync.runLease.another-running-spreadsheet',
  ]);
  await harness.done();
});

test('a lease where earlier versions kept it, in the spreadsheet, is dropped by the next run', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 64 },
    userScript: `
      function addLegacyLease_() {
        SpreadsheetApp.getActiveSpreadsheet().addDeveloperMetadata('safetySync.runLease',
          JSON.stringify({ id: 'an earlier version', untilMs: 0 }), SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
      }`,
  });
  harness.connect();
  harness.emulator.run('addLegacyLease_', [], { spreadsheetId: harness.spreadsheetId });
  const legacy = () =>
    harness.emulator.workbooks
      .get(harness.spreadsheetId)!
      .developerMetadata()
      .filter((item) => item.key === 'safetySync.runLease');
  expect(legacy()).toHaveLength(1);
  harness.clickMenu('Import equipment types');
  expect(legacy()).toEqual([]);
  await harness.done();
});

describe('waiting for the run that holds the lease', () => {
  const leaseKeyOf = (spreadsheetId: string) => `safetySync.runLease.${spreadsheetId}`;

  test('a run waits for a lease that ends within ten seconds, and starts within a second of its end', async () => {
    const harness = await createAddonHarness({ dataset: { seed: 65 } });
    harness.connect();
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    const { clock } = harness.emulator;
    const untilMs = clock.now() + 4_000;
    harness.emulator.properties.script.set(leaseKeyOf(harness.spreadsheetId), JSON.stringify({ untilMs }));
    let claimedAtMs = 0;
    harness.emulator.beforeNextCall('Properties.setProperty', () => {
      claimedAtMs = clock.now();
    });
    harness.clickMenu('Import equipment types');
    expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
    expect(claimedAtMs).toBeGreaterThanOrEqual(untilMs);
    expect(claimedAtMs).toBeLessThan(untilMs + 1_500);
    await harness.done();
  });

  test('a run gives up after ten seconds when the lease is still held', async () => {
    const harness = await createAddonHarness({ dataset: { seed: 66 } });
    harness.connect();
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    const { clock } = harness.emulator;
    const leaseKey = leaseKeyOf(harness.spreadsheetId);
    const lease = JSON.stringify({ untilMs: clock.now() + 60_000 });
    harness.emulator.properties.script.set(leaseKey, lease);
    const startedAtMs = clock.now();
    harness.clickMenu('Import equipment types');
    expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(
      /^An import is already running in this spreadsheet\. Try again when it has finished\./,
    );
    expect(clock.now() - startedAtMs).toBeGreaterThanOrEqual(10_000);
    expect(clock.now() - startedAtMs).toBeLessThan(12_000);
    // The other run's lease is left as it was.
    expect(harness.emulator.properties.script.get(leaseKey)).toBe(lease);
    await harness.done();
  });

  test('a lease is taken only under the script lock: a run waits for it, and gives up when it is not released', async () => {
    const harness = await createAddonHarness({ dataset: { seed: 67 } });
    harness.connect();
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    const briefly = harness.emulator.locks.hold('script', '', { releaseAfterMs: 3_000 });
    harness.clickMenu('Import equipment types');
    expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
    briefly.release();

    harness.emulator.locks.hold('script');
    harness.clickMenu('Import equipment types');
    expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(
      /^An import is already running in this spreadsheet\. Try again when it has finished\./,
    );
    await harness.done();
  });

  test('a lease that is not one (a garbled property) holds nothing', async () => {
    const harness = await createAddonHarness({ dataset: { seed: 68 } });
    harness.connect();
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    harness.emulator.properties.script.set(leaseKeyOf(harness.spreadsheetId), 'not a lease');
    harness.clickMenu('Import equipment types');
    expect(ui.alerts[ui.alerts.length - 1]!.message).toMatch(/^Imported/);
    await harness.done();
  });
});
