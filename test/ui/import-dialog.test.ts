/**
 * Safety Sync → Import completed trainings… in headless Chromium: the user chooses what to import,
 * sees the import under way, then what it did; the real import runs in the emulator against the
 * sample service.
 */
import type { Browser } from 'playwright-core';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  controls,
  type DialogPage,
  launchChromium,
  openMenuDialog,
  overflow,
  tabOrder,
  waitForText,
} from '../support/ui-bridge';

const SCREENSHOTS = process.env['SAFETY_SYNC_SCREENSHOTS'];

let browser: Browser;
let harness: AddonHarness;
let dialog: DialogPage;

beforeAll(async () => {
  browser = await launchChromium();
  harness = await createAddonHarness({ dataset: { seed: 95, completions: 250 } });
  harness.connect();
  dialog = await openMenuDialog(browser, harness, 'Import completed trainings…');
});
afterAll(async () => {
  await dialog.close();
  await browser.close();
  await harness.done();
});

test('it fits its size, labels every control, and Tab reaches each one in order', async () => {
  expect(await overflow(dialog.page)).toEqual({ right: 0, bottom: 0 });
  const visible = await controls(dialog.page);
  expect(visible.map((control) => control.label)).toEqual(['User ID', 'Training ID', 'Import', 'Close']);
  expect(await tabOrder(dialog.page)).toEqual(visible.map((control) => control.id));
});

test('the import shows that it is under way, then what it did', async () => {
  const { page } = dialog;
  // The server answers at once here: hold the answer to see what the user sees meanwhile.
  await page.evaluate(`(() => {
    const answer = window.__safetySyncServer;
    window.__safetySyncServer = (name, args) =>
      new Promise((resolve) => { window.releaseAnswer = () => resolve(answer(name, args)); });
  })()`);
  await page.getByRole('button', { name: 'Import' }).click();
  await waitForText(page, '#status', /^Importing…/);
  expect(await page.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
  await page.evaluate('window.releaseAnswer()');
  await waitForText(page, '#status', /^Imported 250 completed trainings/);
  expect(await page.getByRole('button', { name: 'Import' }).isDisabled()).toBe(false);
  expect(harness.displayed('Completed trainings')).toHaveLength(251);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/import-dialog.png` });
});
