/**
 * Safety Sync → Settings… in headless Chromium: the HTML HtmlService served, its google.script.run
 * calling the real server functions in the emulator, which talk to the sample service. A user fills
 * it in, tests the connection, saves, and reads every problem next to the field it concerns.
 */
import type { Browser } from 'playwright-core';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';
import {
  controls,
  type DialogPage,
  launchChromium,
  openMenuDialog,
  overflow,
  tabOrder,
  until,
  waitForText,
} from '../support/ui-bridge';

const SCREENSHOTS = process.env['SAFETY_SYNC_SCREENSHOTS'];

let browser: Browser;
let harness: AddonHarness;
let dialog: DialogPage;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser.close());

beforeEach(async () => {
  harness = await createAddonHarness({ dataset: { seed: 91, completions: 40 } });
  dialog = await openSettings();
});
afterEach(async () => {
  await dialog.close();
  await harness.done();
});

async function openSettings(): Promise<DialogPage> {
  const opened = await openMenuDialog(browser, harness, 'Settings…');
  await waitForText(opened.page, '#token-status', /Token:/);
  return opened;
}

function savedConnection(): Record<string, string> {
  return harness.emulator.properties.user(harness.emulator.users.owner).all();
}

async function fillConnection(baseUrl: string, token: string): Promise<void> {
  await dialog.page.getByLabel('Service address').fill(baseUrl);
  await dialog.page.getByLabel('API token').fill(token);
}

async function testConnection(): Promise<void> {
  await dialog.page.getByRole('button', { name: 'Test connection' }).click();
  await waitForText(dialog.page, '#status', /Connected|connection test failed/);
}

async function fieldError(field: string): Promise<string> {
  return (await dialog.page.locator(`#${field}-error`).textContent()) ?? '';
}

test('testing the connection reports each outcome in words next to its field, and saves nothing', async () => {
  const { page } = dialog;
  await fillConnection('http://safety.example.com', harness.dataset.tokens.valid);
  await testConnection();
  expect(await fieldError('baseUrl')).toMatch(/^Enter the service address starting with https:\/\//);
  expect(await page.getByLabel('Service address').getAttribute('aria-invalid')).toBe('true');
  expect(await page.evaluate('document.activeElement.id')).toBe('baseUrl');

  const refusals: [string, RegExp][] = [
    ['NotARealToken00000000000000000', /does not recognise this token \(token_invalid\)/],
    [harness.dataset.tokens.inactive, /has been deactivated \(token_inactive\)/],
    [harness.dataset.tokens.accountInactive, /account behind this token is not active \(account_inactive\)/],
  ];
  for (const [token, words] of refusals) {
    await fillConnection(sampleServiceUrl(), token);
    await testConnection();
    expect(await fieldError('token')).toMatch(words);
    expect(await fieldError('baseUrl')).toBe('');
  }

  await fillConnection('http://127.0.0.1:9', harness.dataset.tokens.valid);
  await testConnection();
  expect(await fieldError('baseUrl')).toMatch(/could not reach 127\.0\.0\.1:9 \(unreachable host\)/);

  await harness.dataset.setFaults({ queue: [{ fault: 'html502', times: 1 }] });
  await fillConnection(sampleServiceUrl(), harness.dataset.tokens.valid);
  await testConnection();
  expect(await fieldError('baseUrl')).toMatch(/an intermediary error page, HTTP 502/);

  expect(savedConnection()).toEqual({});
  await testConnection();
  expect(await page.locator('#status').textContent()).toBe(
    'Connected: the service accepted this token. Save to keep it.',
  );
  expect(savedConnection()).toEqual({});
});

test('a service error that quotes the token again and again is shown next to its field without any copy', async () => {
  const { page } = dialog;
  const token = harness.dataset.tokens.valid;
  await harness.dataset.setQuirks({ quoteTokenInErrors: true });
  await harness.dataset.setFaults({ queue: [{ fault: 'server_error', times: 1 }] });
  await fillConnection(sampleServiceUrl(), token);
  await testConnection();
  const shown = await fieldError('baseUrl');
  expect(shown).toMatch(
    /^Not connected: .*server_error.*Token "\[redacted\]" \(sent as token=\[redacted\]; again:\[redacted\]\)/,
  );
  expect(shown).not.toContain(token);
  expect(await page.content()).not.toContain(token);
  expect(savedConnection()).toEqual({});
});

test('saving keeps the token out of sight: only its last four characters come back', async () => {
  const { page } = dialog;
  const token = harness.dataset.tokens.valid;
  await fillConnection(sampleServiceUrl(), token);
  await page.getByLabel('Upcoming within (days)').fill('45');
  await page.getByLabel('Trainings expiring within (days)').fill('60');
  await page.getByLabel('Upcoming within (days)').press('Enter');
  await waitForText(page, '#status', /^Saved\.$/);
  expect(await page.locator('#token-status').textContent()).toBe(
    `Token: set, ending in …${token.slice(-4)}. Leave empty to keep it.`,
  );
  expect(await page.getByLabel('API token').inputValue()).toBe('');
  expect(await page.content()).not.toContain(token);
  expect(Object.values(savedConnection())).toContain(token);

  // Reopened, the dialog shows what was saved, and still not the token.
  await dialog.close();
  dialog = await openSettings();
  expect(await dialog.page.getByLabel('Service address').inputValue()).toBe(sampleServiceUrl());
  expect(await dialog.page.getByLabel('Upcoming within (days)').inputValue()).toBe('45');
  expect(await dialog.page.getByLabel('Trainings expiring within (days)').inputValue()).toBe('60');
  expect(await dialog.page.content()).not.toContain(token);
  // With the token field left empty, the test uses the saved token.
  await testConnection();
  expect(await dialog.page.locator('#status').textContent()).toBe(
    'Connected: the service accepted your saved token.',
  );
  if (SCREENSHOTS) await dialog.page.screenshot({ path: `${SCREENSHOTS}/settings-dialog.png` });

  await dialog.page.getByRole('button', { name: 'Remove token' }).click();
  await waitForText(dialog.page, '#status', /Token removed/);
  expect(await dialog.page.locator('#token-status').textContent()).toBe(
    'Token: not set. Leave empty to keep it.',
  );
  expect(Object.values(savedConnection())).not.toContain(token);
});

test('a wrong import option is shown next to its field, and nothing is saved', async () => {
  const { page } = dialog;
  await fillConnection(sampleServiceUrl(), harness.dataset.tokens.valid);
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByLabel('Pages at once').fill('0');
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForText(page, '#status', /Nothing was saved/);
  expect(await fieldError('batchSize')).toBe('Enter a whole number from 1 to 100.');
  expect(await page.evaluate('document.activeElement.id')).toBe('batchSize');
  expect(savedConnection()).toEqual({});
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/settings-dialog-error.png` });
});

test('it fits the size it opens at, every control has a label, and Tab reaches each one in order', async () => {
  const { page } = dialog;
  expect(await overflow(page)).toEqual({ right: 0, bottom: 0 });
  const visible = await controls(page);
  for (const control of visible) expect(control.label).not.toBe('');
  expect(visible.map((control) => control.label)).toEqual(
    expect.arrayContaining([
      'Service address',
      'API token',
      'Formulas in this spreadsheet may use my token',
      'Send to',
      'Send a digest',
      'Expired inspections',
      'Refresh failures',
    ]),
  );
  // Tab also stops on the Advanced heading (a <summary>, which is no form control), before Save.
  const ids = visible.map((control) => control.id);
  ids.splice(ids.indexOf('save'), 0, 'advanced-summary');
  expect(await tabOrder(page)).toEqual(ids);

  // Opened by keyboard, Advanced's fields join the order where they stand, each labelled.
  await page.locator('#advanced-summary').focus();
  await page.keyboard.press('Enter');
  const opened = await controls(page);
  for (const control of opened) expect(control.label).not.toBe('');
  const openedIds = opened.map((control) => control.id);
  expect(openedIds.slice(openedIds.indexOf('batchSize'), openedIds.indexOf('save'))).toEqual([
    'batchSize',
    'overlapDays',
    'formulaCacheSeconds',
    'notifyMaxPerRun',
    'notifySharePercent',
  ]);
  openedIds.splice(openedIds.indexOf('batchSize'), 0, 'advanced-summary');
  expect(await tabOrder(page)).toEqual(openedIds);
  expect(await overflow(page)).toEqual({ right: 0, bottom: 0 });
});

test('the schedule is one click away, and the formula opt-in answers with what changed', async () => {
  const { page } = dialog;
  harness.connect();
  await page.getByLabel('Formulas in this spreadsheet may use my token').check();
  await waitForText(page, '#status', /now use your token/);
  expect(harness.callServer('getSettings')).toMatchObject({ formulaAccess: true });

  expect(await page.locator('#refresh-state').textContent()).toBe('Not refreshed yet.');
  await page.getByRole('button', { name: 'Schedule refresh…' }).click();
  await waitForText(page, '#status', /Opening the schedule/);
  await until(() => dialog.calls.includes('showScheduleDialog'));
  const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
  expect(ui.dialogs.map((shown) => shown.title)).toEqual(['Safety Sync settings', 'Schedule refresh']);
});

test('Notifications: off by default, each field labelled, a wrong address refused next to it, then saved', async () => {
  const { page } = dialog;
  expect(await page.getByLabel('Send a digest').inputValue()).toBe('off');
  for (const topic of [
    'Expired inspections',
    'Expiring inspections',
    'Never inspected',
    'Expired trainings',
    'Expiring trainings',
    'Refresh failures',
  ]) {
    expect(await page.getByLabel(topic).isChecked()).toBe(true);
  }
  await fillConnection(sampleServiceUrl(), harness.dataset.tokens.valid);
  await page.getByLabel('Send to').fill('safety@example.com, safety.example.com');
  await page.getByLabel('Send a digest').selectOption('daily');
  // By keyboard: Enter in a field saves.
  await page.getByLabel('Send to').press('Enter');
  await waitForText(page, '#status', /Nothing was saved/);
  expect(await fieldError('notifyRecipients')).toMatch(/^"safety\.example\.com" is not an e-mail address\./);
  expect(await page.getByLabel('Send to').getAttribute('aria-invalid')).toBe('true');
  expect(await page.evaluate('document.activeElement.id')).toBe('notifyRecipients');
  expect(savedConnection()).toEqual({});

  await page.getByLabel('Send to').fill('safety@example.com, Manager@Example.org');
  // Space on a focused box unticks it, as a keyboard user would.
  await page.getByLabel('Expiring trainings').focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Save' }).click();
  // No refresh is scheduled here: the digest is saved, and the dialog says it will not go out.
  await waitForText(page, '#status', /^Saved\. Nothing will be sent until a refresh is scheduled/);
  expect(await fieldError('notifyRecipients')).toBe('');
  expect(harness.callServer('getSettings').notifications).toEqual({
    recipients: ['safety@example.com', 'manager@example.org'],
    frequency: 'daily',
    topics: [
      'expiredInspections',
      'expiringInspections',
      'neverInspected',
      'expiredTrainings',
      'refreshFailures',
    ],
    // The topics this dialog offered: one added later is on for settings saved before it.
    topicsOffered: [
      'expiredInspections',
      'expiringInspections',
      'neverInspected',
      'expiredTrainings',
      'expiringTrainings',
      'refreshFailures',
    ],
    // What leaves the spreadsheet and what it spends, as the dialog shows them untouched: the defaults.
    personalData: 'counts',
    allowOutsideDomain: false,
    mailShare: { maxRecipientsPerRun: 20, percentOfRemaining: 50 },
    // No team digests, no escalation (the escalation field left empty).
    teamDigests: false,
    escalationDays: 0,
  });
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/settings-notifications.png` });

  await dialog.close();
  dialog = await openSettings();
  expect(await dialog.page.getByLabel('Send to').inputValue()).toBe(
    'safety@example.com, manager@example.org',
  );
  expect(await dialog.page.getByLabel('Send a digest').inputValue()).toBe('daily');
  expect(await dialog.page.getByLabel('Expiring trainings').isChecked()).toBe(false);
  expect(await dialog.page.content()).not.toContain(harness.dataset.tokens.valid);
});

describe('a digest with no refresh scheduled', () => {
  const HOUR = 60 * 60 * 1000;
  const NOTHING_SENT =
    'Nothing will be sent until a refresh is scheduled for this spreadsheet: choose Schedule refresh… to schedule one.';

  async function saveDailyDigest(page: DialogPage['page']): Promise<string> {
    await page.getByLabel('Send to').fill('safety@example.com');
    await page.getByLabel('Send a digest').selectOption('daily');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForText(page, '#status', /^Saved/);
    return (await page.locator('#status').textContent()) ?? '';
  }

  function warning(page: DialogPage['page']) {
    return page.locator('#digest-warning');
  }

  test('says nothing will be sent, where the digest is chosen and when it is saved, and offers the schedule', async () => {
    harness.connect();
    await dialog.close();
    dialog = await openSettings();
    const { page } = dialog;
    // Off: nothing to warn about.
    expect(await warning(page).isVisible()).toBe(false);

    expect(await saveDailyDigest(page)).toBe(`Saved. ${NOTHING_SENT}`);
    expect(await page.locator('#status').getAttribute('class')).toBe('status warning');
    expect(await warning(page).isVisible()).toBe(true);
    expect(await page.locator('#digest-warning-text').textContent()).toBe(NOTHING_SENT);
    expect(harness.callServer('getSettings').notifications.frequency).toBe('daily');
    expect(await overflow(page)).toEqual({ right: 0, bottom: 0 });
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/settings-digest-no-schedule.png` });

    // Reopened, the warning is there from the start.
    await dialog.close();
    dialog = await openSettings();
    expect(await dialog.page.locator('#digest-warning-text').textContent()).toBe(NOTHING_SENT);

    await warning(dialog.page).getByRole('button', { name: 'Schedule refresh…' }).click();
    await until(() => dialog.calls.includes('showScheduleDialog'));
    const ui = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui;
    expect(ui.dialogs.map((shown) => shown.title)).toEqual([
      'Safety Sync settings',
      'Safety Sync settings',
      'Safety Sync settings',
      'Schedule refresh',
    ]);
  });

  test('says nothing while a schedule runs, and says how to resume one that paused itself', async () => {
    harness.connect();
    expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
    await dialog.close();
    dialog = await openSettings();
    expect(await saveDailyDigest(dialog.page)).toBe('Saved.');
    expect(await dialog.page.locator('#status').getAttribute('class')).toBe('status ok');
    expect(await warning(dialog.page).isVisible()).toBe(false);

    // Refused tokens pause the schedule: its trigger is gone, so the digest is not sent either.
    const trigger = harness.emulator.triggers()[0]!;
    harness.connect('NotARealToken00000000000000000');
    for (let run = 0; run < 3; run++) {
      harness.emulator.clock.advance(HOUR);
      harness.emulator.fireTrigger(trigger.uid);
    }
    expect(harness.emulator.triggers()).toEqual([]);
    await dialog.close();
    dialog = await openSettings();
    expect(await dialog.page.locator('#digest-warning-text').textContent()).toBe(
      'Nothing will be sent while the scheduled refresh is paused: choose Schedule refresh… and save the schedule again to resume it.',
    );
  });
});

test('Advanced is collapsed at first, its values still save, and a refusal there opens it', async () => {
  const { page } = dialog;
  harness.connect();
  const advanced = page.locator('#advanced');
  expect(await advanced.getAttribute('open')).toBeNull();
  for (const label of ['Pages at once', 'Refresh overlap (days)', 'Reuse formula results for (seconds)'])
    expect(await page.getByLabel(label).isVisible()).toBe(false);
  // The manager's settings are in sight before it.
  for (const label of ['Send a digest', 'Upcoming within (days)', 'Trainings expiring within (days)'])
    expect(await page.getByLabel(label).isVisible()).toBe(true);

  await page.getByText('Advanced', { exact: true }).click();
  await page.getByLabel('Service address').fill(sampleServiceUrl());
  await page.getByLabel('Pages at once').fill('25');
  await page.getByLabel('Refresh overlap (days)').fill('400');
  await page.getByLabel('Reuse formula results for (seconds)').fill('900');
  await page.getByLabel('At most recipients a run').fill('5');
  await page.getByLabel("At most % of the owner's daily quota left").fill('30');
  // Folded away again before saving: what it holds is saved all the same, and checked all the same.
  await page.getByText('Advanced', { exact: true }).click();
  expect(await page.getByLabel('Pages at once').isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForText(page, '#status', /Nothing was saved/);
  expect(await advanced.getAttribute('open')).toBe('');
  expect(await fieldError('overlapDays')).toBe('Enter a whole number from 0 to 365.');
  expect(await page.evaluate('document.activeElement.id')).toBe('overlapDays');

  await page.getByLabel('Refresh overlap (days)').fill('3');
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForText(page, '#status', /^Saved\.$/);
  const saved = harness.callServer('getSettings');
  expect(saved.importOptions).toMatchObject({ batchSize: 25, overlapDays: 3, formulaCacheSeconds: 900 });
  expect(saved.notifications.mailShare).toEqual({ maxRecipientsPerRun: 5, percentOfRemaining: 30 });

  await dialog.close();
  dialog = await openSettings();
  expect(await dialog.page.locator('#advanced').getAttribute('open')).toBeNull();
  expect(await dialog.page.getByLabel('Pages at once').inputValue()).toBe('25');
  expect(await dialog.page.getByLabel('Reuse formula results for (seconds)').inputValue()).toBe('900');
});

test('Remove token is a secondary action beside the token, not a button like Save', async () => {
  const { page } = dialog;
  const style = async (id: string) =>
    (await page.evaluate(`(() => {
      const computed = getComputedStyle(document.getElementById(${JSON.stringify(id)}));
      return {
        fontWeight: computed.fontWeight,
        background: computed.backgroundColor,
        border: computed.borderTopColor,
      };
    })()`)) as { fontWeight: string; background: string; border: string };
  expect(await style('save')).toEqual({
    fontWeight: '700',
    background: 'rgb(26, 115, 232)',
    border: 'rgb(26, 115, 232)',
  });
  expect(await style('remove-token')).toEqual({
    fontWeight: '400',
    background: 'rgba(0, 0, 0, 0)',
    border: 'rgba(0, 0, 0, 0)',
  });
  // Not among Save, Test connection and Close, but on the token's line.
  expect(await page.locator('.buttons #remove-token').count()).toBe(0);
  const token = (await page.locator('#token-status').boundingBox())!;
  const remove = (await page.getByRole('button', { name: 'Remove token' }).boundingBox())!;
  expect(remove.y).toBeLessThan(token.y + token.height);
  expect(remove.y + remove.height).toBeGreaterThan(token.y);
});
