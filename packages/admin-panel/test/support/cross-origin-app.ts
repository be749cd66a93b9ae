import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ServerProcesses } from '../../../../scripts/release-process';
import { AdminClient } from './admin-client';
import { launchChromium } from './browser';
import { startPanelServer, type PanelServer } from './panel-server';

export interface CrossOriginApp {
  /** The app's port on 127.0.0.1 (its origin, which CORS_ORIGINS lists), also reachable as localhost (which it does not). */
  appPort: number;
  appOrigin: string;
  server: PanelServer;
  browser: Browser;
}

/** What the app serves: each path's content type and body. */
export type AppFiles = Record<string, { type: string; body: string }>;

/**
 * A web app on another origin, served by a plain HTTP server on 127.0.0.1, the service (the
 * release) started with that origin in CORS_ORIGINS (and `env`) and `user` created, and Chromium; all
 * stopped after the file's tests. Returns an accessor for use inside tests.
 */
export function useCrossOriginApp(
  files: () => AppFiles | Promise<AppFiles>,
  user: { email: string; password: string; name?: string },
  env: (appOrigin: string) => Record<string, string> | Promise<Record<string, string>> = () => ({}),
): () => CrossOriginApp {
  const processes = new ServerProcesses();
  let appServer: Server | undefined;
  let app: CrossOriginApp | undefined;
  beforeAll(async () => {
    const served = await files();
    const listening = createServer((request, response) => {
      // By path: a page is served whatever its query (a sign-in comes back with ?code=…).
      const file = served[new URL(request.url ?? '/', 'http://app').pathname];
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    });
    appServer = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const appPort = (listening.address() as AddressInfo).port;
    const appOrigin = `http://127.0.0.1:${appPort}`;
    const server = await startPanelServer(processes, { CORS_ORIGINS: appOrigin, ...(await env(appOrigin)) });
    await (await AdminClient.signIn(server)).createUser(user);
    app = { appPort, appOrigin, server, browser: await launchChromium() };
  });
  afterAll(async () => {
    await app?.browser.close();
    await processes.cleanup();
    await new Promise((resolve) => appServer?.close(resolve));
  });
  return () => {
    if (!app) throw new Error('The cross-origin app did not start.');
    return app;
  };
}
