/**
 * The HTML snapshot as a person sees it in Chromium: it opens on the tab that was active, draws each
 * column as wide as the sheet set it, and keeps frozen rows and columns in view while the grid
 * scrolls, as Sheets does.
 */
import type { Browser, Page } from 'playwright-core';
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import { launchChromium } from '../support/ui-bridge';

const ROWS = 120;
const COLUMNS = 14;
/** Column C, a long note; column D, a narrow flag. */
const WIDTHS = { 3: 320, 4: 60 } as const;

function snapshotHtml(): string {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'Layout', sheetNames: ['Overview', 'Inspection schedules'] });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  spreadsheet.getSheetByName('Overview')!.getRange('A1').setValue('Key figures');
  const schedules = spreadsheet.getSheetByName('Inspection schedules')!;
  schedules
    .getRange(1, 1, ROWS, COLUMNS)
    .setValues(
      Array.from({ length: ROWS }, (_, row) =>
        Array.from({ length: COLUMNS }, (__, column) =>
          row === 0 ? `Title ${column + 1}` : `r${row + 1}c${column + 1}`,
        ),
      ),
    );
  for (const [column, width] of Object.entries(WIDTHS)) schedules.setColumnWidth(Number(column), width);
  schedules.setFrozenRows(1);
  schedules.setFrozenColumns(2);
  // The tab the user was on last, not the first one.
  schedules.activate();
  return renderWorkbookHtml(service.workbooks, id);
}

/** The on-screen box of the cell that shows `text`. */
async function boxOf(page: Page, text: string) {
  const box = await page.locator('td', { hasText: new RegExp(`^${text}$`) }).boundingBox();
  if (!box) throw new Error(`The cell "${text}" is not on screen.`);
  return box;
}

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.setContent(snapshotHtml());
});

afterAll(async () => {
  await browser?.close();
});

test('opens on the tab that was active in the spreadsheet, marked in the tab bar', async () => {
  await expect(page.locator('section.sheet:visible h2').allTextContents()).resolves.toEqual([
    'Inspection schedules',
  ]);
  await expect(page.locator('nav a.current').textContent()).resolves.toBe('Inspection schedules');
});

test('draws each column as wide as the sheet set it', async () => {
  expect(Math.round((await boxOf(page, 'r2c3')).width)).toBe(WIDTHS[3]);
  expect(Math.round((await boxOf(page, 'r2c4')).width)).toBe(WIDTHS[4]);
  // A column whose width was never set has Sheets' default, 100 pixels.
  expect(Math.round((await boxOf(page, 'r2c5')).width)).toBe(100);
});

test('keeps the frozen row at the top and the frozen columns at the left while the grid scrolls', async () => {
  const grid = page.locator('section.sheet:visible .grid');
  const gridBox = (await grid.boundingBox())!;
  const titleBefore = await boxOf(page, 'Title 2');
  const frozenCellBefore = await boxOf(page, 'r60c2');
  await grid.evaluate((element) => element.scrollTo(800, 1200));

  // Row 1 (frozen) is where it was; row 2 has scrolled out of view.
  // Within a pixel: the collapsed borders of a sticky row may shift it by half of one.
  expect(Math.abs((await boxOf(page, 'Title 2')).y - titleBefore.y)).toBeLessThanOrEqual(1);
  const row2 = await boxOf(page, 'r2c5');
  expect(row2.y + row2.height).toBeLessThanOrEqual(gridBox.y);
  // Column B (frozen) stays at the left edge, beside the row numbers, on the rows now in view.
  const frozenCellAfter = await boxOf(page, 'r60c2');
  expect(Math.abs(frozenCellAfter.x - frozenCellBefore.x)).toBeLessThanOrEqual(1);
  const unfrozen = await boxOf(page, 'r60c5');
  expect(unfrozen.x).toBeLessThan(frozenCellBefore.x);
});
