import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCrossOriginApp } from '../support/cross-origin-app';

const USER = { email: 'cross-origin@example.com', password: 'cross-origin-password-1', name: 'Ada' };

/**
 * A web app on another origin: one page, served by a plain HTTP server on 127.0.0.1, whose script
 * calls the service with fetch. The same server reached as `localhost` is another origin (the
 * host differs), one that CORS_ORIGINS does not list.
 */
const APP_PAGE = `<!doctype html><html><head><title>app</title><script>
async function call(api, method, path, { token, body, headers = {}, credentials } = {}) {
  try {
    const response = await fetch(api + path, {
      method,
      credentials,
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: 'Bearer ' + token } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const read = (name) => response.headers.get(name);
    return { status: response.status, etag: read('ETag'), requestId: read('X-Request-Id'), body: await response.json() };
  } catch (error) {
    return { blocked: String(error) };
  }
}
</script></head><body>app</body></html>`;

interface Outcome {
  status?: number;
  etag?: string | null;
  requestId?: string | null;
  body?: { data?: { id: string; attributes: Record<string, unknown> }; errors?: { code: string }[] };
  blocked?: string;
}
interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  credentials?: RequestCredentials;
}

const app = useCrossOriginApp(() => ({ '/': { type: 'text/html; charset=utf-8', body: APP_PAGE } }), USER);

let context: BrowserContext;
let page: Page;
/** What Chromium itself said about the page's requests (a CORS refusal is reported here). */
let consoleLines: string[];
beforeEach(async () => {
  context = await app().browser.newContext();
  page = await context.newPage();
  consoleLines = [];
  page.on('console', (message) => consoleLines.push(message.text()));
});
afterEach(async () => {
  await context.close();
});

/** Opens the app on `host` and makes one call from it to the service. */
async function openApp(host: '127.0.0.1' | 'localhost') {
  await page.goto(`http://${host}:${app().appPort}/`);
  return (method: string, path: string, options: CallOptions = {}): Promise<Outcome> =>
    page.evaluate(([api, method, path, options]) => (window as unknown as AppWindow).call(api, method, path, options), [
      app().server.baseUrl,
      method,
      path,
      options,
    ] as const);
}
interface AppWindow {
  call(api: string, method: string, path: string, options: CallOptions): Promise<Outcome>;
}

const loginBody = { data: { type: 'users', attributes: { email: USER.email, password: USER.password } } };

describe('a browser app on an origin listed in CORS_ORIGINS', () => {
  it('logs the user in, reads and changes their account with If-Match, and reads the headers and errors it needs', async () => {
    const call = await openApp('127.0.0.1');

    const login = await call('POST', '/v1/login', { body: loginBody });
    expect(login.status).toBe(200);
    const token = String(login.body?.data?.attributes.access_token);

    const me = await call('GET', '/v1/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body?.data?.attributes).toMatchObject({ email: USER.email, name: USER.name });
    expect(me.etag).toMatch(/^"/);
    expect(me.requestId).toBeTruthy();

    // A PATCH with Authorization and If-Match is preflighted; the preflight lets it through.
    const patch = { data: { type: 'users', attributes: { metadata: { theme: 'dark' } } } };
    const changed = await call('PATCH', '/v1/users/me', { token, body: patch, headers: { 'If-Match': me.etag ?? '' } });
    expect(changed.status).toBe(200);
    expect(changed.body?.data?.attributes.metadata).toEqual({ theme: 'dark' });
    const stale = await call('PATCH', '/v1/users/me', { token, body: patch, headers: { 'If-Match': me.etag ?? '' } });
    expect([stale.status, stale.body?.errors?.[0]?.code]).toEqual([412, 'precondition_failed']);

    const refused = await call('GET', '/v1/users/me');
    expect([refused.status, refused.body?.errors?.[0]?.code]).toEqual([401, 'missing_token']);
  });

  it('cannot send or use cookies (credentials: include is refused), and cannot call the admin API', async () => {
    const call = await openApp('127.0.0.1');
    expect((await call('POST', '/v1/login', { body: loginBody, credentials: 'include' })).blocked).toMatch(
      /Failed to fetch/,
    );
    expect((await call('GET', '/v1/admin/users')).blocked).toMatch(/Failed to fetch/);
    expect(consoleLines.join('\n')).toMatch(/blocked by CORS policy/);
  });
});

describe('a browser app on an origin not listed (localhost is not 127.0.0.1)', () => {
  it('is blocked by the browser: neither the login (preflighted) nor the JWKS (a simple GET) can be read', async () => {
    const call = await openApp('localhost');
    expect((await call('POST', '/v1/login', { body: loginBody })).blocked).toMatch(/Failed to fetch/);
    expect((await call('GET', '/.well-known/jwks.json')).blocked).toMatch(/Failed to fetch/);
    expect(consoleLines.filter((line) => line.includes('blocked by CORS policy'))).toHaveLength(2);
  });
});
