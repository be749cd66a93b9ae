import type { UserResource } from '@uas/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { responseTo, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { pairAuthenticatorApp, totpCode } from '../support/second-factor';
import { useStack } from '../support/stack';

const stack = useStack({ IMPERSONATION: 'on' });
const REASON = 'Ticket 4711: the user cannot find the export button';

interface Started {
  data: { attributes: { access_token: string; expires: string } };
}

describe('impersonating a user for support (IMPERSONATION=on)', () => {
  const panel = usePanel(stack, 'file');
  let user: UserResource;
  beforeAll(async () => {
    user = await stack().api.createUser({ email: 'carol@example.com', password: 'correct horse battery' });
    await panel.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack().server.baseUrl });
  });

  /** Asks for a token on the user's page; answers what the API gave. */
  async function impersonate(confirm?: (code: string) => Promise<void>, code = ''): Promise<Started> {
    const { page } = panel;
    await page.goto(`/admin/users/${user.id}`);
    await page.getByRole('button', { name: 'Impersonate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Impersonate the user' });
    await dialog.getByLabel('Reason').fill(REASON);
    const started = responseTo(page, 'POST', `/v1/admin/users/${user.id}/impersonation`);
    const created = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/impersonation') && r.status() === 201,
    );
    await dialog.getByRole('button', { name: 'Get a token' }).click();
    if (confirm) {
      expect((await started).status()).toBe(403);
      await confirm(code);
    }
    return (await (await created).json()) as Started;
  }

  it('shows the token with its expiry and a copy button; the token acts as the user and its session is listed', async () => {
    const { page } = panel;
    await signIn(page, stack().server);
    const { data } = await impersonate();
    const dialog = page.getByRole('dialog', { name: 'Impersonate the user' });
    const token = dialog.getByLabel('Access token');
    expect(await token.inputValue()).toBe(data.attributes.access_token);
    expect(await dialog.locator('time.token-expiry').getAttribute('datetime')).toBe(data.attributes.expires);
    const minutes = (Date.parse(data.attributes.expires) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(0);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Copy token');

    await dialog.getByRole('button', { name: 'Copy token' }).click();
    await page.getByText('The token is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(data.attributes.access_token);

    const me = await fetch(`${stack().server.baseUrl}/v1/users/me`, {
      headers: { Authorization: `Bearer ${data.attributes.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as UserResource & { data: UserResource }).data.attributes.email).toBe(
      'carol@example.com',
    );

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.sessions-table tbody tr').count()).toBe(1);
    expect(await page.locator('.sessions-table tbody tr').textContent()).toContain('Impersonation');
    expect(await stack().api.sessionIds(user.id)).toHaveLength(1);
  });

  it('asks an admin with a second factor for a code before the token', async () => {
    const { page } = panel;
    await page.goto('/admin/security');
    const { secret } = await pairAuthenticatorApp(page);
    const { data } = await impersonate(async () => {
      const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
      await confirm.getByLabel('Authentication code').fill(totpCode(secret, 1));
      await confirm.getByRole('button', { name: 'Confirm' }).click();
    });
    const token = page.getByRole('dialog', { name: 'Impersonate the user' }).getByLabel('Access token');
    expect(await token.inputValue()).toBe(data.attributes.access_token);
    await page.keyboard.press('Escape');
  });
});
