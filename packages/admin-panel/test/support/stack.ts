import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { AdminClient } from './admin-client';
import { launchChromium } from './browser';
import { startServer, type RunningServer } from './server';

export interface Stack {
  server: RunningServer;
  browser: Browser;
  /** An admin session of its own, for set-up and for checking what the panel did. */
  api: AdminClient;
}

const PANEL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds the panel from the current sources, starts the real server and Chromium before the
 * file's tests, and stops them after. Returns an accessor for use inside tests.
 */
export function useStack(env: Record<string, string> = {}): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    await build({ root: PANEL_ROOT, logLevel: 'warn' });
    const server = await startServer(env);
    try {
      stack = { server, browser: await launchChromium(), api: await AdminClient.signIn(server) };
    } catch (error) {
      await server.stop();
      throw error;
    }
  });
  afterAll(async () => {
    await stack?.browser.close();
    await stack?.server.stop();
  });
  return () => {
    if (!stack) throw new Error('The test stack did not start.');
    return stack;
  };
}
