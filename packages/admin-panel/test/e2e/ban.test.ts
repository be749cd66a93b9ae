import type { UserResource } from '@uas/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { responseTo, saveScreenshot, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

// IMPERSONATION is off, as by default.
const stack = useStack();
const PASSWORD = 'correct horse battery';
const UNTIL = '2031-03-04T05:06';

describe("a user's ban, from the user's page", () => {
  const panel = usePanel(stack, 'file');
  let user: UserResource;
  beforeAll(async () => {
    user = await stack().api.createUser({ email: 'mallory@example.com', password: PASSWORD });
  });
  /** The value the user's attribute list shows for `term`. */
  const attribute = (term: string) =>
    panel.page.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

  it('bans with a reason and an end after asking for the reason; the page shows the ban and the user cannot sign in', async () => {
    const { page } = panel;
    await signIn(page, stack().server);
    await page.goto(`/admin/users/${user.id}`);
    await page.getByRole('heading', { name: 'mallory@example.com', level: 1 }).waitFor();
    expect(await attribute('Banned').textContent()).toBe('No');

    await page.getByRole('button', { name: 'Ban…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban the user' });
    await dialog.waitFor();
    const reason = dialog.getByLabel('Reason');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('reason');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect.poll(() => reason.getAttribute('aria-invalid')).toBe('true');

    await reason.fill('Sends spam to other users');
    await dialog.getByLabel('Banned until').fill(UNTIL);
    const banned = responseTo(page, 'POST', `/v1/admin/users/${user.id}/ban`);
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    expect((await banned).status()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Unban' }).waitFor();
    await expect.poll(() => attribute('Banned').textContent()).toBe('Banned');
    expect(await attribute('Banned until').locator('time').getAttribute('datetime')).toBe(
      new Date(UNTIL).toISOString(),
    );
    expect(await attribute('Banned until').textContent()).toBe('2031-03-04 05:06');
    expect(await attribute('Ban reason').textContent()).toBe('Sends spam to other users');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Unban');
    expect(await stack().api.user(user.id)).toMatchObject({ banned: true, ban_reason: 'Sends spam to other users' });
    expect(await stack().api.userLogin('mallory@example.com', PASSWORD, 'Firefox')).toBe(403);
    await saveScreenshot(page, 'banned-user.png');
  });

  it('lifts the ban after a confirmation: the user signs in again', async () => {
    const { page } = panel;
    await page.getByRole('button', { name: 'Unban' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lift the ban?' });
    const lifted = responseTo(page, 'DELETE', `/v1/admin/users/${user.id}/ban`);
    await dialog.getByRole('button', { name: 'Unban' }).click();
    expect((await lifted).status()).toBe(200);
    await page.getByRole('button', { name: 'Ban…' }).waitFor();
    await expect.poll(() => attribute('Banned').textContent()).toBe('No');
    expect(await page.locator('dt', { hasText: 'Ban reason' }).count()).toBe(0);
    expect(await stack().api.user(user.id)).toMatchObject({ banned: false, banned_until: null });
    expect(await stack().api.userLogin('mallory@example.com', PASSWORD, 'Firefox')).toBe(200);
  });

  it('a ban without an end shows so', async () => {
    const { page } = panel;
    await page.getByRole('button', { name: 'Ban…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban the user' });
    await dialog.getByLabel('Reason').fill('Asked to be locked out');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByRole('button', { name: 'Unban' }).waitFor();
    expect(await attribute('Banned until').textContent()).toBe('Until unbanned');
    expect(await stack().api.user(user.id)).toMatchObject({ banned: true, banned_until: null });
  });

  it('says in words that impersonation is off, and gives no token', async () => {
    const { page } = panel;
    await page.getByRole('button', { name: 'Impersonate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Impersonate the user' });
    await dialog.getByLabel('Reason').fill('Checking what the user sees');
    const refused = responseTo(page, 'POST', `/v1/admin/users/${user.id}/impersonation`);
    await dialog.getByRole('button', { name: 'Get a token' }).click();
    expect((await refused).status()).toBe(403);
    expect(await dialog.getByRole('alert').textContent()).toContain('Impersonation is turned off');
    expect(await dialog.getByLabel('Access token').count()).toBe(0);
    await page.keyboard.press('Escape');
  });
});
