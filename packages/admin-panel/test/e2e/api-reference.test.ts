import { describe, expect, it } from 'vitest';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();

describe('the API reference at /docs', () => {
  const panel = usePanel(stack, 'file');

  it('shows every operation of the served document, opens one, and breaks no CSP rule', async () => {
    const { page } = panel;
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(stack().server.baseUrl)) external.push(request.url());
    });
    const response = await page.goto('/docs');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['content-security-policy']).not.toContain('unsafe-inline');

    await page.getByRole('heading', { name: /User account service/ }).waitFor();
    const login = page.locator('.opblock-summary', { hasText: '/v1/admin/login' }).first();
    await login.click();
    await page.getByRole('button', { name: 'Try it out' }).first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(15);
    // usePanel fails the test on any script error or CSP violation the page logged.
    expect(external).toEqual([]);
  });
});
