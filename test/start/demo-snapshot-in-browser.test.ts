/**
 * The snapshot `npm start` writes, as a newcomer sees it in Chromium: it opens on the Overview, the
 * first tab; its Expired and Expiring figures are coloured like the Status columns; each count's
 * label is a link that takes them to the tab listing its items.
 */
import type { Browser, Page } from 'playwright-core';
import { createDemoDataset, dayIn, runDemo } from '../../dev/start';
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import { sampleServiceUrl } from '../support/sample-service';
import { launchChromium } from '../support/ui-bridge';

const TIME_ZONE = 'Europe/London';
const START_TIME = Date.UTC(2026, 10, 27, 8, 0);
/** SAFETY_SYNC_SCREENSHOTS=<folder> saves what the test sees (docs/img/overview.png). */
const SCREENSHOTS = process.env['SAFETY_SYNC_SCREENSHOTS'];

let browser: Browser;
let page: Page;

/** The section shown, by its heading. */
function visibleSheet(): Promise<string[]> {
  return page.locator('section.sheet:visible h2').allTextContents();
}

/** Waits until the page shows the tab whose heading starts with `name`: a link's jump is a page event. */
async function shownTab(name: string): Promise<string[]> {
  await page.locator('section.sheet h2', { hasText: new RegExp(`^${name}`) }).waitFor({ timeout: 5_000 });
  return visibleSheet();
}

/** The figure cell beside the label cell that starts with `label`, in the visible section. */
function figureBeside(label: string) {
  return page
    .locator('section.sheet:visible td', { has: page.locator('a', { hasText: new RegExp(`^${label}`) }) })
    .locator('xpath=following-sibling::td[1]');
}

/** Runs in the page: the cell's background as drawn (the tests' TypeScript has no DOM types). */
function backgroundOf(cell: unknown): string {
  const page = globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string } };
  return page.getComputedStyle(cell).backgroundColor;
}

beforeAll(async () => {
  const today = dayIn(TIME_ZONE, START_TIME);
  const { connection, demo } = await createDemoDataset(sampleServiceUrl(), today);
  const run = await runDemo({ connection, demo, startTime: START_TIME, timeZone: TIME_ZONE });
  const html = renderWorkbookHtml(run.emulator.workbooks, run.spreadsheetId);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent(html);
});

afterAll(async () => {
  await browser?.close();
});

test('opens on the Overview, the first tab', async () => {
  await expect(visibleSheet()).resolves.toEqual([expect.stringMatching(/^Overview/)]);
  await expect(page.locator('nav a').first().textContent()).resolves.toMatch(/^Overview/);
  await expect(page.locator('nav a.current').textContent()).resolves.toMatch(/^Overview/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/overview.png` });
});

test('the Expired and Expiring figures are coloured like the Status columns', async () => {
  for (const [label, background] of [
    ['Expired \\(of', 'rgb(244, 204, 204)'],
    ['Expiring \\(of', 'rgb(252, 232, 178)'],
  ] as const) {
    const figures = figureBeside(label);
    // One in each section: trainings and inspections; the demo has some of each.
    await expect(figures.count()).resolves.toBe(2);
    for (const figure of await figures.all()) {
      expect(Number(await figure.textContent())).toBeGreaterThan(0);
      await expect(figure.evaluate(backgroundOf)).resolves.toBe(background);
    }
  }
});

test('a count’s label takes the reader to the tab that lists its items', async () => {
  const trainingsExpired = page.locator('section.sheet:visible a', { hasText: /^Expired \(of .* pairs\)$/ });
  await trainingsExpired.click();
  await expect(shownTab('Expiring trainings')).resolves.toEqual([
    expect.stringMatching(/^Expiring trainings/),
  ]);
  await page.locator('nav a', { hasText: /^Overview/ }).click();
  await shownTab('Overview');
  await page.locator('section.sheet:visible a', { hasText: /^Never inspected/ }).click();
  await expect(shownTab('Upcoming inspections')).resolves.toEqual([
    expect.stringMatching(/^Upcoming inspections/),
  ]);
});
