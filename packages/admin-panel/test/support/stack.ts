import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { AdminClient } from './admin-client';
import { launchChromium } from './browser';
import { buildPanelIfStale } from './panel-build';
import { startServer, type RunningServer } from './server';

export interface Stack {
  server: RunningServer;
  browser: Browser;
  /** An admin session of its own, for set-up and for checking what the panel did. */
  api: AdminClient;
}

/**
 * Builds the panel if its sources changed, starts the real server and Chromium before the
 * file's tests, and stops them after. Returns an accessor for use inside tests.
 */
export function useStack(env: Record<string, string> = {}): () => Stack {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let stack: Stack | undefined;
  beforeAll(async () => {
    await buildPanelIfStale();
    server = await startServer(env);
    browser = await launchChromium();
    stack = { server, browser, api: await AdminClient.signIn(server) };
  });
  // Runs after a failed beforeAll too, so whatever did start is stopped.
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return () => {
    if (!stack) throw new Error('The test stack did not start.');
    return stack;
  };
}
