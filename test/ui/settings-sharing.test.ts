/**
 * Settings… in headless Chromium for two people sharing a spreadsheet: an editor, whose changes to
 * what the owner's scheduled refresh does are proposals, and the schedule's owner, who sees who
 * changed what and confirms (address by address) or discards. The dialog's google.script.run calls
 * the real server functions in the emulator as the user who opened it.
 */
import type { Browser } from 'playwright-core';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';
import { type DialogPage, launchChromium, openMenuDialog, waitForText } from '../support/ui-bridge';

const SCREENSHOTS = process.env['SAFETY_SYNC_SCREENSHOTS'];
const EDITOR = 'editor@example.com';

let browser: Browser;
let harness: AddonHarness;
let dialog: DialogPage | null = null;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser.close());

beforeEach(async () => {
  harness = await createAddonHarness({ dataset: { seed: 92, completions: 30 } });
  harness.connect();
  const { baseUrl } = harness.callServer('getSettings');
  harness.callServer('saveSettings', {
    baseUrl,
    token: '',
    notifyRecipients: 'safety@example.com',
    notifyFrequency: 'daily',
  });
  expect(harness.callServer('saveSchedule', { every: '4' })).toMatchObject({ ok: true });
});
afterEach(async () => {
  await dialog?.close();
  dialog = null;
  await harness.done();
});

async function openSettings(user?: string): Promise<DialogPage> {
  await dialog?.close();
  dialog = await openMenuDialog(browser, harness, 'Settings…', user);
  await waitForText(dialog.page, '#token-status', /Token:/);
  return dialog;
}

test('an editor saves a proposal; the owner sees who changed what and confirms the new address', async () => {
  const { page } = await openSettings(EDITOR);
  await expect(page.locator('#sharing-notes').textContent()).resolves.toMatch(
    /runs as owner@example\.com.*is a proposal/,
  );
  expect(await page.locator('#proposal').isVisible()).toBe(false);
  await page.getByLabel('Service address').fill(sampleServiceUrl());
  await page.getByLabel('API token').fill('editor-own-token');
  await page.getByLabel('Send to').fill('safety@example.com, supervisor@example.com');
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForText(page, '#status', /Saved as a proposal: owner@example\.com's scheduled refresh uses it/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/settings-editor-proposal.png` });

  const owner = (await openSettings()).page;
  await waitForText(owner, '#proposal-changes', /changed by editor@example\.com/);
  expect(await owner.locator('#proposal-changes').textContent()).toMatch(
    /supervisor@example\.com.*your runs use: E-mail: daily to safety@example\.com;/,
  );
  const box = owner.getByLabel('supervisor@example.com');
  expect(await box.isChecked()).toBe(false);
  if (SCREENSHOTS) await owner.screenshot({ path: `${SCREENSHOTS}/settings-owner-proposal.png` });
  await box.check();
  await owner.getByRole('button', { name: 'Confirm' }).click();
  await waitForText(owner, '#status', /^Confirmed/);
  expect(await owner.locator('#proposal').isVisible()).toBe(false);
  expect(harness.callServer('getSettings').sharing.proposal).toBeNull();
  expect(harness.callServer('getSettings').notifications.recipients).toEqual([
    'safety@example.com',
    'supervisor@example.com',
  ]);
});

test("Discard puts back the filter the owner confirmed, which the editor's dialog then shows", async () => {
  const editor = (await openSettings(EDITOR)).page;
  await editor.getByLabel('Service address').fill(sampleServiceUrl());
  await editor.getByLabel('API token').fill('editor-own-token');
  await editor.getByLabel('User ID').fill('u 42');
  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForText(editor, '#status', /Saved as a proposal/);

  const owner = (await openSettings()).page;
  await waitForText(
    owner,
    '#proposal-changes',
    /Completions filter: user u 42 \(changed by editor@example\.com/,
  );
  await owner.getByRole('button', { name: 'Discard' }).click();
  await waitForText(owner, '#status', /^Discarded/);
  expect(await owner.getByLabel('User ID').inputValue()).toBe('');

  const again = (await openSettings(EDITOR)).page;
  expect(await again.getByLabel('User ID').inputValue()).toBe('');
});

test('team digests: the owner sees the manager addresses People gives waiting, and confirms them all at once', async () => {
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu('Show training status');
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const [header] = harness.displayed('People');
  const column = String.fromCharCode(65 + header!.indexOf('Manager e-mail'));
  workbook.typeValues(`People!${column}2:${column}4`, [
    ['Lead.A@example.com'],
    ['lead.b@example.com'],
    ['lead.a@example.com '],
  ]);

  const { page } = await openSettings();
  expect(await page.locator('#managers').isVisible()).toBe(false);
  await page.getByLabel("Send each manager their team's items (the People tab's Manager e-mail)").check();
  await page.getByLabel("To a manager's manager after (days)").fill('7');
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForText(page, '#status', /^Saved\./);
  expect(await page.locator('#managers-text').textContent()).toBe(
    '2 of 2 manager addresses on the People tab wait for you to confirm them, and receive nothing until you do: lead.a@example.com, lead.b@example.com.',
  );
  await page.getByRole('button', { name: 'Confirm all' }).click();
  await waitForText(page, '#status', /^Confirmed: each of these managers/);
  expect(await page.locator('#managers-text').textContent()).toBe(
    'All 2 manager addresses on the People tab are confirmed.',
  );
  expect(await page.getByRole('button', { name: 'Confirm all' }).isVisible()).toBe(false);
  expect(harness.callServer('getSettings').notifications).toMatchObject({
    teamDigests: true,
    escalationDays: 7,
  });

  // An editor sees how many there are and who confirms them, not which the owner confirmed.
  const editor = (await openSettings(EDITOR)).page;
  expect(await editor.locator('#managers-text').textContent()).toBe(
    "The People tab gives 2 manager addresses; each receives its team's items once owner@example.com confirms it.",
  );
  expect(await editor.getByRole('button', { name: 'Confirm all' }).isVisible()).toBe(false);
});
