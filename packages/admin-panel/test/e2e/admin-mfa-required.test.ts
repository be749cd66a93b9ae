import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { responseTo } from '../support/browser';
import { usePanel } from '../support/panel';
import { enterPassword, pairAuthenticatorApp } from '../support/second-factor';
import { useStack } from '../support/stack';

const stack = useStack({ ADMIN_MFA: 'required' });

describe('ADMIN_MFA=required in the panel', () => {
  const panel = usePanel(stack, 'each');
  let page: Page;
  beforeEach(() => {
    page = panel.page;
  });

  it('sends an admin without a factor to the Security page, keeps them there, and lets them on once one is active', async () => {
    await enterPassword(page, stack().server);
    await page.waitForURL('**/admin/security');
    const demand = page.getByRole('alert').filter({ hasText: 'requires a second factor' });
    await demand.waitFor();

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/security');

    await pairAuthenticatorApp(page);
    await demand.waitFor({ state: 'hidden' });
    const users = responseTo(page, 'GET', '/v1/admin/users');
    await page.getByRole('link', { name: 'Users' }).click();
    expect((await users).status()).toBe(200);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  });
});
