/**
 * The add-on's dialogs in a real browser: headless Chromium (Debian's, driven by playwright-core;
 * nothing is ever downloaded) shows the exact HTML that HtmlService produced in the emulator, at the
 * size the script asked for, with a google.script.run whose calls reach the real server functions of
 * dist/Code.js in that emulator (see google-script-shim.js). The page can reach nothing else: every
 * other request is refused.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { ScriptError } from '../../dev/emulator';
import type { RecordedDialog } from '../../dev/emulator/spreadsheet';
import type { AddonHarness } from './addon-harness';
import { callableGlobalNames } from './entry-points';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where the dialog seems to come from; the page's requests never leave the test process. */
const DIALOG_URL = 'https://n-safety-sync-script.googleusercontent.test/userCodeAppPanel';
const SHIM = fs.readFileSync(path.join(__dirname, 'google-script-shim.js'), 'utf8');

/** One browser per test file; Playwright gives each launch a fresh, temporary profile. */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium; .ci/run does).`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A server function as google.script.run reaches it: the emulator's callServer for one user and spreadsheet. */
export type ServerCall = (functionName: string, args: unknown[]) => unknown;

export interface DialogPage {
  page: Page;
  title: string | null;
  /** Set once the dialog called google.script.host.close(). */
  readonly closed: boolean;
  /** Server functions called, in order. */
  readonly calls: string[];
  close(): Promise<void>;
}

interface HtmlOutputView {
  getContent(): string;
  getWidth(): number | null;
  getHeight(): number | null;
}

type ServerAnswer = { ok: true; value: unknown } | { ok: false; name: string; message: string };

/**
 * What a user does to open one of the add-on's dialogs: clicks its Safety Sync menu item (as `user`,
 * by default the spreadsheet's owner); the dialog it showed opens in a new page, its google.script.run
 * reaching the server functions as that same user.
 */
export async function openMenuDialog(
  browser: Browser,
  harness: AddonHarness,
  caption: string,
  user?: string,
): Promise<DialogPage> {
  const entryPoints = user ? harness.emulator.asUser(user) : harness.emulator;
  entryPoints.clickMenu(harness.spreadsheetId, 'Safety Sync', caption);
  const dialogs = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.dialogs;
  return openDialog(browser, dialogs[dialogs.length - 1]!, (name, args) =>
    entryPoints.callServer(harness.spreadsheetId, name, ...args),
  );
}

/** Opens a dialog the script showed (from the emulator's UI record) in a new browser page. */
export async function openDialog(
  browser: Browser,
  dialog: RecordedDialog,
  server: ServerCall,
): Promise<DialogPage> {
  const output = dialog.output as HtmlOutputView;
  const html = output.getContent();
  const context = await browser.newContext({
    viewport: { width: output.getWidth() ?? 600, height: output.getHeight() ?? 400 },
  });
  const page = await context.newPage();
  const state = { closed: false, calls: [] as string[] };
  await page.route('**/*', (route) =>
    route.request().url() === DIALOG_URL
      ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
      : route.abort('blockedbyclient'),
  );
  await page.exposeFunction('__safetySyncServer', (name: string, args: unknown[]): ServerAnswer => {
    state.calls.push(name);
    try {
      return { ok: true, value: server(name, args) };
    } catch (error) {
      // What the script threw reaches the failure handler; anything else is a bug in the test.
      if (!(error instanceof ScriptError)) throw error;
      return { ok: false, name: error.errorName, message: error.message };
    }
  });
  await page.exposeFunction('__safetySyncHost', (action: string) => {
    if (action === 'close') state.closed = true;
  });
  await page.addInitScript(`window.__safetySyncServerFunctions = ${JSON.stringify(callableGlobalNames())};`);
  await page.addInitScript(SHIM);
  await page.goto(DIALOG_URL);
  return {
    page,
    title: dialog.title,
    get closed() {
      return state.closed;
    },
    calls: state.calls,
    close: () => context.close(),
  };
}

/** Waits until the element's text matches: the dialog has heard back from the server. */
export async function waitForText(page: Page, selector: string, pattern: RegExp): Promise<void> {
  await page.locator(selector).filter({ hasText: pattern }).waitFor({ timeout: 10_000 });
}

/** Waits (briefly) for something the page set off in the test process. */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error('Timed out waiting for the dialog');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The ids of the controls the Tab key visits, in order, from the top of the page. */
export async function tabOrder(page: Page): Promise<string[]> {
  // Tab continues from where focus last was: start it from a mark at the very top of the page.
  await page.evaluate(`(() => {
    const mark = document.createElement('span');
    mark.tabIndex = -1;
    document.body.prepend(mark);
    mark.focus();
    mark.addEventListener('blur', () => mark.remove());
  })()`);
  const visited: string[] = [];
  for (let press = 0; press < 40; press++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate('document.activeElement && document.activeElement.id');
    if (!id || visited.includes(id as string)) break;
    visited.push(id as string);
  }
  return visited;
}

/** How far the content reaches past the dialog's size (0 when nothing needs scrolling). */
export async function overflow(page: Page): Promise<{ right: number; bottom: number }> {
  return (await page.evaluate(`({
    right: document.documentElement.scrollWidth - window.innerWidth,
    bottom: document.documentElement.scrollHeight - window.innerHeight,
  })`)) as { right: number; bottom: number };
}

/**
 * The enabled, visible controls of the page in document order, each with its accessible label.
 * Visible as checkVisibility() tells: a closed <details> hides its content yet leaves it an
 * offsetParent.
 */
export async function controls(page: Page): Promise<{ id: string; label: string }[]> {
  return (await page.evaluate(`
    Array.from(document.querySelectorAll('input, select, textarea, button'))
      .filter((control) => !control.disabled && control.checkVisibility())
      .map((control) => {
        const labelled = control.labels && control.labels.length
          ? Array.from(control.labels).map((label) => label.textContent).join(' ')
          : control.getAttribute('aria-label') || (control.tagName === 'BUTTON' ? control.textContent : '');
        return { id: control.id, label: labelled.replace(/\\s+/g, ' ').trim() };
      })
  `)) as { id: string; label: string }[];
}
