/**
 * Whatever goes wrong during an import, the "Completed trainings" tab keeps exactly what it had, the
 * user is told what happened and what to do, and the Sync log has the identifier and request ID.
 */
import type { Emulator } from '../../../dev/emulator';
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { sampleServiceUrl } from '../../support/sample-service';
import { servedRowKeys, shownRowKeys } from '../../support/completion-rows';

const TAB = 'Completed trainings';

function tabState(emulator: Emulator, spreadsheetId: string, name = TAB) {
  const sheet = emulator.workbooks.get(spreadsheetId)!.sheet(name);
  return {
    values: sheet.values(),
    formulas: sheet.formulas(),
    formats: sheet.numberFormats(),
    weights: sheet.fontWeights(),
    maxRows: sheet.maxRows,
    frozenRows: sheet.frozenRows,
    filter: sheet.filter,
    hidden: sheet.hiddenColumns,
    widths: Array.from({ length: sheet.maxColumns }, (_, i) => sheet.columnWidth(i + 1)),
  };
}

let harness: AddonHarness;
let before: ReturnType<typeof tabState>;

beforeAll(async () => {
  harness = await createAddonHarness({ dataset: { seed: 41, completions: 3_500, users: 30 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  // A user-added column and note, which must survive failed runs too.
  harness.emulator.workbooks
    .get(harness.spreadsheetId)!
    .typeValues(`'${TAB}'!K1:K2`, [['Notes'], ['checked']]);
  before = tabState(harness.emulator, harness.spreadsheetId);
});
afterAll(() => harness.done());

afterEach(async () => {
  await harness.dataset.setFaults({});
  await harness.dataset.setQuirks({});
  harness.connect();
});

function lastAlert() {
  const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
  return alerts[alerts.length - 1]!;
}

function lastLogLine(): string[] {
  return harness.displayed('Sync log')[1]!;
}

type Failure = {
  name: string;
  arrange: () => Promise<void> | void;
  identifier: string;
  says: RegExp;
};

/** What a careless service's error says once the add-on has scrubbed both copies of the token it quotes. */
const QUOTED_TOKEN_SCRUBBED =
  /The service said: .*Token "\[redacted\]" \(sent as token=\[redacted\]; again:\[redacted\]\)/;

const failures: Failure[] = [
  {
    name: 'a deactivated token that the service quotes three times in its error',
    arrange: async () => {
      await harness.dataset.setQuirks({ quoteTokenInErrors: true });
      harness.connect(harness.dataset.tokens.inactive);
    },
    identifier: 'token_inactive',
    says: QUOTED_TOKEN_SCRUBBED,
  },
  {
    name: 'a server error that quotes the working token three times',
    arrange: async () => {
      await harness.dataset.setQuirks({ quoteTokenInErrors: true });
      await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 50 }] });
    },
    identifier: 'server_error',
    says: QUOTED_TOKEN_SCRUBBED,
  },
  {
    name: 'an unknown token',
    arrange: () => harness.connect('NotARealToken00000000000000000'),
    identifier: 'token_invalid',
    says: /Paste a new token/,
  },
  {
    name: 'a deactivated token',
    arrange: () => harness.connect(harness.dataset.tokens.inactive),
    identifier: 'token_inactive',
    says: /deactivated/,
  },
  {
    name: 'an inactive account',
    arrange: () => harness.connect(harness.dataset.tokens.accountInactive),
    identifier: 'account_inactive',
    says: /reactivate/,
  },
  {
    name: 'a token without permission',
    arrange: () => harness.connect(harness.dataset.tokens.noPermission),
    identifier: 'token_permission',
    says: /permission/,
  },
  {
    name: 'a base URL that is not the API',
    arrange: () => {
      harness.callServer('saveSettings', { baseUrl: `${sampleServiceUrl()}/elsewhere`, token: '' });
    },
    identifier: 'api_method_not_found',
    says: /base URL/,
  },
  {
    name: 'the rate limit, also after retries',
    arrange: () => harness.dataset.setFaults({ requestBudget: 0 }).then(() => undefined),
    identifier: 'rate_limit_exceeded',
    says: /try again in a minute/,
  },
  {
    name: 'the rate limit reached half-way through the pages',
    arrange: () => harness.dataset.setFaults({ requestBudget: 2 }).then(() => undefined),
    identifier: 'rate_limit_exceeded',
    says: /try again in a minute/,
  },
  {
    name: 'a server error that persists',
    arrange: () =>
      harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 50 }] }).then(() => undefined),
    identifier: 'server_error',
    says: /try again later/,
  },
  {
    name: "a proxy's HTML 502 page",
    arrange: () =>
      harness.dataset.setFaults({ queue: [{ fault: 'html502', times: 50 }] }).then(() => undefined),
    identifier: 'transport: http_status',
    says: /HTTP status 502/,
  },
  {
    name: 'a truncated answer',
    arrange: () =>
      harness.dataset.setFaults({ queue: [{ fault: 'truncated', times: 50 }] }).then(() => undefined),
    identifier: 'transport: not_json',
    says: /not JSON/,
  },
  {
    name: 'JSON that is not the API',
    arrange: () =>
      harness.dataset.setFaults({ queue: [{ fault: 'non_envelope', times: 50 }] }).then(() => undefined),
    identifier: 'transport: not_envelope',
    says: /base URL/,
  },
  {
    name: 'an HTTP 500',
    arrange: () =>
      harness.dataset.setFaults({ queue: [{ fault: 'status500', times: 50 }] }).then(() => undefined),
    identifier: 'transport: http_status',
    says: /HTTP status 500/,
  },
  {
    name: 'an unreachable host',
    arrange: () => {
      harness.callServer('saveSettings', { baseUrl: 'http://127.0.0.1:9', token: '' });
    },
    identifier: 'transport: unreachable',
    says: /Could not reach the service/,
  },
];

test.each(failures)(
  '$name: the tab is unchanged and the user told what to do',
  async ({ arrange, identifier, says }) => {
    await arrange();
    harness.clickMenu('Reconcile completed trainings');
    expect(tabState(harness.emulator, harness.spreadsheetId)).toEqual(before);
    const alert = lastAlert();
    expect(alert.title).toBe('Safety Sync: Reconcile completed trainings failed');
    expect(alert.message).toMatch(says);
    expect(alert.message).toMatch(/keep their previous content/);
    const line = lastLogLine();
    expect(line[7]).toBe('Failed');
    expect(line[8]).toBe(identifier);
    for (const token of Object.values(harness.dataset.tokens)) {
      expect(JSON.stringify(harness.displayed('Sync log'))).not.toContain(token);
      expect(alert.message).not.toContain(token);
    }
  },
);

test('service errors carry the request ID into the Sync log', async () => {
  harness.connect(harness.dataset.tokens.inactive);
  harness.clickMenu('Reconcile completed trainings');
  expect(lastLogLine()[9]).toMatch(/^[A-Za-z0-9]+$/);
  expect(lastAlert().message).toContain(`request ID ${lastLogLine()[9]}`);
});

test('a failed incremental refresh leaves the tab unchanged too', async () => {
  await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 50 }] });
  harness.clickMenu('Refresh all');
  expect(tabState(harness.emulator, harness.spreadsheetId)).toEqual(before);
  expect(lastAlert().title).toBe('Safety Sync: Refresh all failed');
});

test('the token never appears in a URL, a log line or a cell', () => {
  const tokens = Object.values(harness.dataset.tokens);
  for (const request of harness.emulator.urlFetch.requests) {
    for (const token of tokens) expect(request.url).not.toContain(token);
  }
  const logged = JSON.stringify(harness.emulator.logs);
  const cells = JSON.stringify(
    harness.emulator.workbooks
      .get(harness.spreadsheetId)!
      .sheets()
      .map((sheet) => sheet.values()),
  );
  for (const token of tokens) {
    expect(logged).not.toContain(token);
    expect(cells).not.toContain(token);
  }
});

test('a service that fails midway keeps what the import read: the next run goes on from there', async () => {
  const harness = await createAddonHarness({ dataset: { seed: 71, completions: 8_000, users: 20 } });
  harness.connect();
  harness.useBatchSize(2);
  // Page 1 and two rounds (pages 1–3, then 3–5: each asks again for the page before it) answer,
  // each with the two users' names that ride in it (a round's worth at two at once); every request
  // after that is refused, retries included.
  await harness.dataset.setFaults({ requestBudget: 1 + (3 + 2) + (3 + 2) });

  expect(() => harness.callServer('startCompletionsImport', {})).toThrow(
    /rate_limit_exceeded.*The 5,000 records read so far are kept: the next run of the import goes on from there\./,
  );
  await harness.dataset.setFaults({});
  await harness.dataset.clearRequestLog();

  const step = harness.callServer('startCompletionsImport', {});

  expect(step.done).toBe(true);
  expect(shownRowKeys(harness)).toEqual(await servedRowKeys(harness));
  // The read went on from page 6, asking again for page 5 to see whether anything moved and for
  // page 1 to take what arrived on top since.
  const pages = (await harness.dataset.requestLog()).requests
    .filter((request) => request.method === 'completedtrainings.list')
    .map((request) => request.params.page);
  expect(
    pages
      .slice(0, 4)
      .map(Number)
      .sort((a, b) => a - b),
  ).toEqual([1, 5, 6, 7]);
  await harness.done();
});
