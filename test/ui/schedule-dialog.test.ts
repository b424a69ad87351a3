/**
 * Safety Sync → Schedule refresh… in headless Chromium, its google.script.run reaching the real
 * server functions in the emulator: a user schedules, sees whose schedule it is and how its runs
 * went, reads problems next to the field, and works it with the keyboard.
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
const HOUR = 3_600_000;

let browser: Browser;
let harness: AddonHarness;
let dialog: DialogPage;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser.close());

beforeEach(async () => {
  harness = await createAddonHarness({ dataset: { seed: 93, completions: 60 }, timeZone: 'Europe/Berlin' });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  dialog = await openSchedule();
});
afterEach(async () => {
  await dialog.close();
  await harness.done();
});

async function openSchedule(user?: string): Promise<DialogPage> {
  const opened = await openMenuDialog(browser, harness, 'Schedule refresh…', user);
  await waitForText(opened.page, '#owner-line', /schedul/i);
  return opened;
}

async function save(): Promise<void> {
  await dialog.page.getByRole('button', { name: 'Save schedule' }).click();
  await waitForText(dialog.page, '#progress', /Saved|Nothing was changed/);
}

function text(selector: string): Promise<string> {
  return dialog.page.locator(selector).innerText();
}

test('scheduling every 4 hours, then daily at 07:00 in the spreadsheet’s time zone', async () => {
  const { page } = dialog;
  expect(await text('#owner-line')).toBe('No scheduled refresh.');
  expect(await page.getByLabel('How often').inputValue()).toBe('off');
  expect(await page.getByLabel(/^At /).isDisabled()).toBe(true);

  await page.getByLabel('How often').selectOption({ label: 'Every 4 hours' });
  await save();
  expect(await text('#progress')).toBe('Saved: the schedule is on.');
  expect(await text('#owner-line')).toBe(`Scheduled by you (${harness.emulator.users.owner}).`);
  expect(await text('#status-lines')).toContain('Scheduled refresh: every 4 hours.');
  expect(harness.emulator.triggers().map((trigger) => trigger.schedule)).toMatchObject([
    { every: 'hours', interval: 4 },
  ]);

  await page.getByLabel('How often').selectOption({ label: 'Every day' });
  expect(await page.getByLabel('At (Europe/Berlin)').isDisabled()).toBe(false);
  await page.getByLabel('At (Europe/Berlin)').selectOption({ label: '07:00' });
  await save();
  expect(await text('#status-lines')).toContain(
    'Scheduled refresh: daily between 07:00 and 08:00 (Europe/Berlin).',
  );
  expect(harness.emulator.triggers().map((trigger) => trigger.schedule)).toMatchObject([
    { every: 'days', interval: 1, atHour: 7, timeZone: 'Europe/Berlin' },
  ]);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/schedule-dialog.png` });

  await page.getByRole('button', { name: 'Remove schedule' }).click();
  await waitForText(page, '#progress', /removed/);
  expect(await text('#owner-line')).toBe('No scheduled refresh.');
  expect(harness.emulator.triggers()).toEqual([]);
});

test('monthly on the last day: chosen from the lists the server sends, described as it runs', async () => {
  const { page } = dialog;
  const everyOptions = await page.getByLabel('How often').locator('option').allTextContents();
  expect(everyOptions).toEqual([
    'Off',
    'Every hour',
    'Every 2 hours',
    'Every 4 hours',
    'Every 6 hours',
    'Every 8 hours',
    'Every 12 hours',
    'Every day',
    'Every month',
  ]);
  expect(await page.getByLabel('Day of the month').isDisabled()).toBe(true);
  await page.getByLabel('How often').selectOption({ label: 'Every month' });
  await page.getByLabel('Day of the month').selectOption({ label: 'Last day' });
  await page.getByLabel('At (Europe/Berlin)').selectOption({ label: '07:00' });
  await save();
  expect(await text('#status-lines')).toContain(
    'Scheduled refresh: monthly on the last day between 07:00 and 08:00 (Europe/Berlin).',
  );
  // Apps Script has no trigger for the last day: a daily one whose other runs stop at once.
  expect(harness.emulator.triggers().map((trigger) => trigger.schedule)).toMatchObject([
    { every: 'days', interval: 1, atHour: 7, timeZone: 'Europe/Berlin' },
  ]);

  await dialog.close();
  dialog = await openSchedule();
  expect(await dialog.page.getByLabel('How often').inputValue()).toBe('monthly');
  expect(await dialog.page.getByLabel('Day of the month').inputValue()).toBe('last');
  expect(await dialog.page.getByLabel('At (Europe/Berlin)').inputValue()).toBe('7');
});

test('a user without a token reads why next to the choice, and nothing is scheduled', async () => {
  await dialog.close();
  dialog = await openSchedule('editor@example.com');
  await dialog.page.getByLabel('How often').selectOption({ label: 'Every hour' });
  await save();
  expect(await text('#every-error')).toMatch(/^The schedule runs with your own connection\. .*Settings/);
  expect(await dialog.page.getByLabel('How often').getAttribute('aria-invalid')).toBe('true');
  expect(await dialog.page.evaluate('document.activeElement.id')).toBe('every');
  expect(harness.emulator.triggers()).toEqual([]);
});

test('a paused schedule says so, with the stale-data warning, until it is saved again', async () => {
  harness.callServer('saveSchedule', { every: '1' });
  const trigger = harness.emulator.triggers()[0]!;
  harness.emulator.clock.advance(HOUR);
  harness.emulator.fireTrigger(trigger.uid);
  harness.connect('NotARealToken00000000000000000');
  for (let run = 0; run < 3; run++) {
    harness.emulator.clock.advance(HOUR);
    harness.emulator.fireTrigger(trigger.uid);
  }
  await dialog.close();
  dialog = await openSchedule();
  expect(await text('#owner-line')).toBe(
    `Paused: the schedule set up by you (${harness.emulator.users.owner}) stopped itself.`,
  );
  expect(await text('#status-lines')).toMatch(/paused itself on .* after repeated token_invalid errors/);
  expect(await dialog.page.locator('#state').getAttribute('class')).toBe('stale');
  expect(await text('#last-run')).toMatch(
    /^Last scheduled run: 1 Mar 2024, \d\d:\d\d\. Failed with token_invalid \(request ID \w+\); see the Sync log tab\.$/,
  );
  expect(await overflow(dialog.page)).toEqual({ right: 0, bottom: 0 });
  if (SCREENSHOTS) await dialog.page.screenshot({ path: `${SCREENSHOTS}/schedule-dialog-paused.png` });

  harness.connect();
  await save();
  expect(await text('#owner-line')).toBe(`Scheduled by you (${harness.emulator.users.owner}).`);
  expect(harness.emulator.triggers()).toHaveLength(1);
});

test('it fits its size, labels every control, and works with the keyboard alone', async () => {
  const { page } = dialog;
  expect(await overflow(page)).toEqual({ right: 0, bottom: 0 });
  await page.getByLabel('How often').focus();
  await page.keyboard.press('End');
  expect(await page.getByLabel('How often').inputValue()).toBe('monthly');
  const visible = await controls(page);
  for (const control of visible) expect(control.label).not.toBe('');
  expect(await tabOrder(page)).toEqual(visible.map((control) => control.id));
  expect(visible.map((control) => control.id)).toEqual(['every', 'monthDay', 'atHour', 'save', 'close']);

  // From "How often": Tab to the day, two days after the 1st offered, Tab to the hour, two hours
  // later than the 06:00 offered, Tab to Save, Enter.
  await page.getByLabel('How often').focus();
  for (const key of ['Tab', 'ArrowDown', 'ArrowDown', 'Tab', 'ArrowDown', 'ArrowDown', 'Tab', 'Enter'])
    await page.keyboard.press(key);
  await waitForText(page, '#progress', /Saved/);
  expect(harness.emulator.triggers().map((trigger) => trigger.schedule)).toMatchObject([
    { every: 'months', monthDay: 3, atHour: 8 },
  ]);

  await page.getByRole('button', { name: 'Close' }).press('Enter');
  expect(dialog.closed).toBe(true);
});

test('google.script.run in the dialog keeps Google’s rules: asynchronous, user objects, no Dates', async () => {
  const answers = await dialog.page.evaluate(`new Promise((resolve) => {
    const seen = [];
    const run = google.script.run.withUserObject('the user object');
    run
      .withSuccessHandler((view, userObject) => seen.push(['success', view.every, userObject]))
      .getSchedule();
    seen.push(['sent']);
    run
      .withFailureHandler((error, userObject) => {
        seen.push(['failure', error.message, userObject]);
        resolve(seen);
      })
      .saveSchedule({ every: new Date() });
  })`);
  expect(answers).toEqual([
    ['sent'],
    ['success', 'off', 'the user object'],
    ['failure', 'Failed due to illegal value in property: every', 'the user object'],
  ]);
  expect(typeof (await dialog.page.evaluate('google.script.run.getSettingsX'))).toBe('undefined');
  expect(harness.emulator.triggers()).toEqual([]);
});
