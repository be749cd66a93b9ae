import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { openPanel, type PageWatch } from './browser';
import type { Stack } from './stack';

export interface Panel {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}

export interface PanelOptions {
  /** The origin to open the panel on, when not the server's own address (`localhost` for WebAuthn, say). */
  origin?: () => string;
  /** Runs once the page is open, before the test (a virtual authenticator, say). */
  prepare?: (panel: Panel) => Promise<void>;
}

/**
 * A browser context on the panel, fresh for each test or shared by the file's tests. After
 * every test it closes a dialog a failed test may have left open, and fails the test if a
 * script error or a CSP violation was logged. The returned object is filled in by the hooks.
 */
export function usePanel(stack: () => Stack, scope: 'each' | 'file', options: PanelOptions = {}): Panel {
  const panel = {} as Panel;
  const open = async () => {
    const { server, browser } = stack();
    Object.assign(panel, await openPanel(browser, { ...server, baseUrl: options.origin?.() ?? server.baseUrl }));
    await options.prepare?.(panel);
  };
  const close = async () => {
    await panel.context?.close();
  };
  (scope === 'each' ? beforeEach : beforeAll)(open);
  (scope === 'each' ? afterEach : afterAll)(close);
  afterEach(async () => {
    if (scope === 'file' && (await panel.page.locator('dialog[open]').count()))
      await panel.page.keyboard.press('Escape');
    expect(panel.watch.errors).toEqual([]);
  });
  return panel;
}
