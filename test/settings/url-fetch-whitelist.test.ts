/**
 * An administrator restricts the add-on to their service with urlFetchWhitelist: Settings refuses
 * an address outside it with a sentence saying which manifest entry allows it, and a fetch refused
 * anyway (a manifest changed after the build) fails with the same sentence, whatever the run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { build } from '../../dev/build';
import { createEmulator, loadDist } from '../../dev/emulator';
import { createAddonHarness } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';

const ALLOWED = 'https://safety.example.com';
const HOW_TO_ALLOW = new RegExp(
  `may only reach ${ALLOWED}/ \\(urlFetchWhitelist in its appsscript\\.json\\)\\. To use http://127\\.0\\.0\\.1:\\d+, ` +
    'ask whoever installs the add-on to add "http://127\\.0\\.0\\.1:\\d+/" to urlFetchWhitelist',
);

test('a build for one service writes its whitelist into the bundle, and Settings refuses another address', async () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-sync-whitelist-'));
  const previous = process.env.SAFETY_SYNC_SERVICE_URL;
  process.env.SAFETY_SYNC_SERVICE_URL = ALLOWED;
  try {
    await build(outDir);
  } finally {
    if (previous === undefined) delete process.env.SAFETY_SYNC_SERVICE_URL;
    else process.env.SAFETY_SYNC_SERVICE_URL = previous;
  }
  const pushed = loadDist(outDir);
  fs.rmSync(outDir, { recursive: true, force: true });
  expect(JSON.parse(pushed.files['appsscript.json']!).urlFetchWhitelist).toEqual([`${ALLOWED}/`]);

  const emulator = createEmulator(pushed);
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Safety' });
  emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
  const form = { baseUrl: sampleServiceUrl(), token: 'any-token-1234' };
  for (const action of ['saveSettings', 'testConnection']) {
    const outcome = emulator.callServer(spreadsheetId, action, form) as {
      ok: boolean;
      field: string;
      message: string;
    };
    expect(outcome).toMatchObject({ ok: false, field: 'baseUrl' });
    expect(outcome.message).toMatch(HOW_TO_ALLOW);
  }
  expect(emulator.urlFetch.requests).toEqual([]);
  // The allowed address is accepted (nothing is fetched by saving).
  expect(
    emulator.callServer(spreadsheetId, 'saveSettings', { ...form, baseUrl: `${ALLOWED}/` }),
  ).toMatchObject({
    ok: true,
  });
});

test('a fetch the manifest refuses (changed after the build) fails with the same sentence, and changes nothing', async () => {
  const harness = await createAddonHarness({
    editManifest: (manifest) => ({ ...manifest, urlFetchWhitelist: [`${ALLOWED}/`] }),
  });
  try {
    harness.connect();
    const tested = harness.callServer('testConnection', { baseUrl: sampleServiceUrl(), token: '' });
    expect(tested).toMatchObject({ ok: false, field: 'baseUrl' });
    expect(!tested.ok && tested.message).toMatch(
      /urlFetchWhitelist in its appsscript\.json\)\. To use http:\/\/127/,
    );

    harness.clickMenu('Import equipment types');
    const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
    expect(alerts[alerts.length - 1]!.message).toMatch(/urlFetchWhitelist/);
    expect(harness.emulator.workbooks.get(harness.spreadsheetId)!.sheetNames).not.toContain(
      'Equipment types',
    );
    expect(harness.emulator.urlFetch.requests).toEqual([]);
  } finally {
    await harness.done();
  }
});
