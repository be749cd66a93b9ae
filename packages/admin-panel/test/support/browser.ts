import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { PanelServer } from './panel-server';

/** Debian's chromium, as CI installs it; never a browser downloaded by playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** What a page did that a test may want to forbid: dialogs, script errors, CSP violations. */
export interface PageWatch {
  dialogs: string[];
  errors: string[];
}

export async function openPanel(
  browser: Browser,
  server: PanelServer,
): Promise<{
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const watch: PageWatch = { dialogs: [], errors: [] };
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('console', (message) => {
    // A failed API call is logged by Chromium itself; the tests check those through the UI.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      watch.errors.push(message.text());
  });
  return { context, page, watch };
}

/** Signs in through the login form (from `path`, the users page unless told) and waits for the users page. */
export async function signIn(page: Page, server: PanelServer, path = '/admin/users'): Promise<void> {
  await page.goto(path);
  await page.waitForURL('**/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(server.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
}

/** The table row that shows a user, found by email. */
export function userRow(page: Page, email: string) {
  return page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}

/** Waits for the API response to a request the next action makes. */
export function responseTo(page: Page, method: string, path: string | RegExp) {
  return page.waitForResponse((r) => {
    const { pathname } = new URL(r.url());
    return r.request().method() === method && (typeof path === 'string' ? pathname === path : path.test(pathname));
  });
}

const DOCS_SCREENSHOTS = new URL('../../../../docs/screenshots/', import.meta.url);
const RUN_SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

/**
 * Saves a screenshot for the docs into docs/screenshots (committed) when it is missing there
 * or UPDATE_SCREENSHOTS=1 is set; otherwise into test-results/ (ignored), so that a test run
 * does not leave the committed images changed by nothing but their timestamps.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const committed = new URL(name, DOCS_SCREENSHOTS);
  const folder = process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(committed) ? DOCS_SCREENSHOTS : RUN_SCREENSHOTS;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL(name, folder)) });
}
