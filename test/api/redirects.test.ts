/**
 * A service (or whoever answers for its name) that redirects: the built add-on in the emulator,
 * whose UrlFetchApp follows redirects as strictly as Google's may (307/308 re-send the body, token
 * inside). Whatever the add-on does (a full import, a cell, Test connection), nothing reaches the
 * other host, the tabs keep their content, and the user is told the status and that host, never
 * the token.
 */
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';
import type { ReceivedRequest } from './fixtures/recording-server';

const TABS = ['Completed trainings', 'Equipment types'];

let other: ChildProcess;
/** The other host: another port of 127.0.0.1, which the emulator reaches as it would a real host. */
let otherOrigin: string;
let otherHost: string;
let harness: AddonHarness;
let tokens: string[];
/** The tabs as the first, unredirected import left them. */
let imported: Record<string, string[][]>;

beforeAll(async () => {
  other = fork(path.join(__dirname, 'fixtures', 'recording-server.ts'), {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve) =>
    other.once('message', (message: { port: number }) => resolve(message.port)),
  );
  otherHost = `127.0.0.1:${port}`;
  otherOrigin = `http://${otherHost}`;
  harness = await createAddonHarness({
    dataset: { seed: 26, completions: 3_500, users: 20, equipmentTypes: 3 },
    // Where Google lets formulas read the token lent to them (readings.ts).
    emulator: { readings: { documentStoresInCustomFunction: true } },
  });
  tokens = Object.values(harness.dataset.tokens);
  harness.connect();
  harness.callServer('setFormulaAccess', true);
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Import equipment types');
  imported = Object.fromEntries(TABS.map((tab) => [tab, harness.displayed(tab)]));
});

afterAll(async () => {
  other.disconnect();
  await harness.done();
});

beforeEach(async () => {
  await received('DELETE');
});

async function received(method: 'GET' | 'DELETE' = 'GET'): Promise<ReceivedRequest[]> {
  return (await (await fetch(`${otherOrigin}/_received`, { method })).json()) as ReceivedRequest[];
}

function lastAlert(): { title: string | null; message: string } {
  const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
  return alerts[alerts.length - 1]!;
}

/** The Sync log's newest line, by column name. */
function lastLogLine(): Record<string, string> {
  const [header, newest] = harness.displayed('Sync log');
  return Object.fromEntries(header!.map((name, column) => [name, newest![column]!]));
}

/** What the user reads: the status and the other host, without the token. */
function expectTold(text: string, status: number): void {
  expect(text).toContain(`answered ${status} (a redirect to ${otherHost})`);
  expect(text).toContain('does not follow');
  for (const token of tokens) expect(text).not.toContain(token);
}

/** Runs `action`; every request it sent went to the service, at least one, none to the other host. */
async function expectNothingSentElsewhere(action: () => void): Promise<void> {
  const before = harness.emulator.urlFetch.requests.length;
  action();
  const sent = harness.emulator.urlFetch.requests.slice(before);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.filter(({ url }) => !url.startsWith(sampleServiceUrl()))).toEqual([]);
  expect(await received()).toEqual([]);
}

describe.each([301, 302, 303, 307, 308] as const)('the service answers %i to every request', (status) => {
  beforeAll(() => harness.dataset.setFaults({ redirect: { status, to: otherOrigin } }));
  afterAll(() => harness.dataset.setFaults({}));

  test('a full import and an equipment import fail, say why, and leave the tabs as they were', async () => {
    await expectNothingSentElsewhere(() => harness.clickMenu('Reconcile completed trainings'));
    expect(lastAlert().title).toBe('Safety Sync: Reconcile completed trainings failed');
    expectTold(lastAlert().message, status);
    expect(lastLogLine()).toMatchObject({ Outcome: 'Failed', Error: 'transport: redirect' });
    expectTold(lastLogLine()['Details']!, status);

    await expectNothingSentElsewhere(() => harness.clickMenu('Import equipment types'));
    expectTold(lastAlert().message, status);
    expect(lastLogLine()).toMatchObject({ Outcome: 'Failed', Error: 'transport: redirect' });

    for (const tab of TABS) expect([tab, harness.displayed(tab)]).toEqual([tab, imported[tab]]);
  });

  test('a custom function shows the redirect in its cell', async () => {
    let cell: { value?: unknown; error?: string } = {};
    // A filter no formula asked for before: nothing cached answers it.
    await expectNothingSentElsewhere(() => {
      cell = harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_COMPLETIONS', [
        `redirect-${status}`,
      ]);
    });
    expect(cell.value).toBeUndefined();
    expectTold(cell.error!, status);
  });

  test('Settings → Test connection is refused on the base URL, naming the redirect', async () => {
    let outcome: unknown;
    await expectNothingSentElsewhere(() => {
      outcome = harness.callServer('testConnection', { baseUrl: sampleServiceUrl(), token: '' });
    });
    expect(outcome).toMatchObject({ ok: false, field: 'baseUrl' });
    expectTold(JSON.stringify(outcome), status);
  });
});

test('a redirect in the middle of a full read: nothing sent elsewhere, the tab keeps its content', async () => {
  await harness.dataset.setFaults({ redirect: { status: 307, to: otherOrigin, fromRequest: 2 } });
  await harness.dataset.clearRequestLog();
  try {
    await expectNothingSentElsewhere(() => harness.clickMenu('Reconcile completed trainings'));
    expectTold(lastAlert().message, 307);
    expect(harness.displayed('Completed trainings')).toEqual(imported['Completed trainings']);
    // The read had begun: the service answered its first page before the redirects.
    const { requests } = await harness.dataset.requestLog();
    const [first, ...redirected] = requests.map(({ fault }) => fault);
    expect(first).toBeUndefined();
    expect(redirected.length).toBeGreaterThan(0);
    expect(redirected.every((fault) => fault === 'redirect')).toBe(true);
  } finally {
    await harness.dataset.setFaults({});
  }
});

test('once the service stops redirecting, the same import succeeds', () => {
  harness.clickMenu('Reconcile completed trainings');
  expect(lastLogLine()).toMatchObject({ Outcome: 'Success' });
  expect(harness.displayed('Completed trainings')).toEqual(imported['Completed trainings']);
});
