import { describe, expect, it } from 'vitest';
import { signIn, userRow } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_NOTE = '<script>alert(2)</script>';

describe('safe rendering and the content security policy', () => {
  const panel = usePanel(stack, 'file');

  it('shows a user named like markup as text, and no script runs', async () => {
    await stack().api.createUser({
      name: HOSTILE_NAME,
      email: 'xss@example.com',
      password: 'long enough',
      metadata: { note: HOSTILE_NOTE },
    });
    const { page, watch } = panel;
    await signIn(page, stack().server, '/admin/users?search=xss');

    const row = userRow(page, 'xss@example.com');
    await row.waitFor();
    expect(await row.locator('td.cell-name').textContent()).toBe(HOSTILE_NAME);
    expect(await page.locator('tbody img, tbody script').count()).toBe(0);

    await page.getByRole('button', { name: 'Edit xss@example.com' }).click();
    const form = page.getByRole('dialog', { name: 'Edit user' });
    await expect.poll(() => form.getByLabel('Name', { exact: true }).inputValue()).toBe(HOSTILE_NAME);
    expect(await form.getByLabel('Metadata', { exact: true }).inputValue()).toContain(HOSTILE_NOTE);
    await page.keyboard.press('Escape');

    await page.waitForTimeout(300);
    expect(watch.dialogs).toEqual([]);
  });

  it.each([
    '/admin/',
    '/admin/login',
    '/admin/users',
    '/admin/users/0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f',
    '/admin/audit',
    '/admin/invitations',
    '/admin/admins',
    '/admin/webhooks',
    '/admin/webhooks/0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f',
    '/admin/some/deep/link',
  ])('serves %s with a strict CSP and no inline script', async (path) => {
    const response = await fetch(`${stack().server.baseUrl}${path}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('keeps 404s outside /admin/ as JSON: the panel fallback is scoped', async () => {
    const response = await fetch(`${stack().server.baseUrl}/no-such-page`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
