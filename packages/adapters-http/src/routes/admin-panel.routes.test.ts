import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing';
import { PANEL_CONTENT_SECURITY_POLICY } from './admin-panel.routes';

const INDEX = '<!doctype html><title>panel</title><script type="module" src="/admin/assets/app-1.js"></script>';
let root: string;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'panel-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'app-1.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'outside-panel.txt'), 'secret');
  t = await createTestApp({ panelRoot: root });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the admin panel at /admin/', () => {
  it('redirects /admin to /admin/', async () => {
    const response = await t.app.request('/admin');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/admin/');
  });

  it.each(['/admin/', '/admin/login', '/admin/users/00000000-0000-4000-8000-000000000001/edit'])(
    'serves index.html at %s with a strict CSP, nosniff, no referrer',
    async (path) => {
      const response = await t.app.request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe(INDEX);
      expect(response.headers.get('content-security-policy')).toBe(PANEL_CONTENT_SECURITY_POLICY);
      expect(PANEL_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
      expect(PANEL_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    },
  );

  it('serves hashed assets with their type and a long cache', async () => {
    const response = await t.app.request('/admin/assets/app-1.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.text()).toBe('console.log(1)');
  });

  it.each(['/admin/assets/missing.js', '/admin/favicon.ico'])(
    'answers a missing file %s with a JSON 404, not the app',
    async (path) => {
      const response = await t.app.request(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    },
  );

  it.each(['/admin/../outside-panel.txt', '/admin/%2e%2e/outside-panel.txt', '/admin/..%2foutside-panel.txt'])(
    'never serves files outside the panel: %s',
    async (path) => {
      const response = await t.app.request(path);
      expect(await response.text()).not.toContain('secret');
    },
  );

  it('leaves API 404s as JSON', async () => {
    for (const path of ['/v1/nowhere', '/v1/admin/nowhere', '/administrator', '/index.html', '/docs/nowhere']) {
      const response = await t.app.request(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await response.json()).errors[0].code).toBe('route_not_found');
    }
  });

  it('is absent when there is no panel to serve, and the landing page does not link to it', async () => {
    const bare = await createTestApp({ panelRoot: null });
    const response = await bare.app.request('/admin/');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await (await bare.app.request('/')).text()).not.toContain('/admin/');
  });
});

describe('the landing page at / and the way to the reference', () => {
  it('links / to the panel, the API reference and the OpenAPI document, under the panel CSP', async () => {
    const response = await t.app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(PANEL_CONTENT_SECURITY_POLICY);
    const html = await response.text();
    for (const href of ['/admin/', '/docs', '/v1/openapi.json']) expect(html).toContain(`href="${href}"`);
  });

  it('redirects /docs/ to /docs, where the reference is served', async () => {
    const response = await t.app.request('/docs/');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/docs');
    expect((await t.app.request('/docs')).status).toBe(200);
  });
});
