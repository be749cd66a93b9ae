import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ServerProcesses } from '../../../../scripts/release-process';
import { AdminClient } from './admin-client';
import { launchChromium } from './browser';
import { buildPanelIfStale } from './panel-build';
import { startPanelServer, type PanelServer } from './panel-server';

export interface Stack {
  server: PanelServer;
  browser: Browser;
  /** An admin session of its own, for set-up and for checking what the panel did. */
  api: AdminClient;
}

/**
 * Builds the panel if its sources changed, starts the real server (the release, on a fresh SQLite
 * file) and Chromium before the file's tests, and stops them after. Returns an accessor for use
 * inside tests. `env` may be made just before the start (a free port chosen for PORT and
 * PUBLIC_URL alike, say).
 */
export function useStack(env: Record<string, string> | (() => Promise<Record<string, string>>) = {}): () => Stack {
  const processes = new ServerProcesses();
  let browser: Browser | undefined;
  let stack: Stack | undefined;
  beforeAll(async () => {
    await buildPanelIfStale();
    const server = await startPanelServer(processes, typeof env === 'function' ? await env() : env);
    browser = await launchChromium();
    stack = { server, browser, api: await AdminClient.signIn(server) };
  });
  // Runs after a failed beforeAll too, so whatever did start is stopped.
  afterAll(async () => {
    await browser?.close();
    await processes.cleanup();
  });
  return () => {
    if (!stack) throw new Error('The test stack did not start.');
    return stack;
  };
}
