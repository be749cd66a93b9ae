import { describe, expect, it } from 'vitest';
import { responseTo, saveScreenshot, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();

describe('the Invitations page', () => {
  const panel = usePanel(stack, 'file');

  it('invites from the form, lists the pending invitation, and refuses a taken address at its field', async () => {
    const { page } = panel;
    await signIn(page, stack().server);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Invitations' }).click();
    await page.getByRole('heading', { name: 'Invitations', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/invitations');
    await page.getByText('No invitation is pending.').waitFor();

    await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    const created = responseTo(page, 'POST', '/v1/admin/invitations');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    expect((await created).status()).toBe(201);
    const row = page.locator('tbody tr', { hasText: 'grace@example.com' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Grace Hopper');
    const [pending] = await stack().api.pendingInvitations();
    expect(pending).toMatchObject({ email: 'grace@example.com' });
    expect(await stack().api.user(pending!.userId)).toMatchObject({ email_verified: null });
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('');
    await saveScreenshot(page, 'invitations.png');

    await stack().api.createUser({ email: 'taken@example.com', password: 'correct horse battery' });
    await page.getByLabel('Email', { exact: true }).fill('taken@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    const email = page.getByLabel('Email', { exact: true });
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-error:not([hidden])').first().textContent()).toContain('already in use');
  });

  it('sends an invitation again, then revokes it after a confirmation: its user goes with it', async () => {
    const { page } = panel;
    const [pending] = await stack().api.pendingInvitations();
    const row = page.locator('tbody tr', { hasText: 'grace@example.com' });
    const resent = responseTo(page, 'POST', `/v1/admin/invitations/${pending!.id}/resend`);
    await row.getByRole('button', { name: 'Send the invitation to grace@example.com again' }).click();
    expect((await resent).status()).toBe(200);
    await expect.poll(() => stack().api.messagesTo('grace@example.com')).toBe(2);

    await row.getByRole('button', { name: 'Revoke the invitation of grace@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the invitation?' });
    await dialog.waitFor();
    const revoked = responseTo(page, 'DELETE', `/v1/admin/invitations/${pending!.id}`);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    expect((await revoked).status()).toBe(204);
    await page.getByText('No invitation is pending.').waitFor();
    expect(await stack().api.pendingInvitations()).toEqual([]);
    expect(await stack().api.user(pending!.userId)).toBeNull();
  });

  it("links an invitee to their user page: not verified, with 'Resend verification' and 'Send recovery link'", async () => {
    const { page } = panel;
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('link', { name: 'ada@example.com' }).click();
    await page.getByRole('heading', { name: 'ada@example.com' }).waitFor();
    const verified = page.locator('dt', { hasText: 'Email verified' }).locator('xpath=following-sibling::dd[1]');
    expect(await verified.textContent()).toBe('Not verified');

    const resend = responseTo(page, 'POST', /\/v1\/admin\/users\/[^/]+\/verification$/);
    await page.getByRole('button', { name: 'Resend verification' }).click();
    expect((await resend).status()).toBe(202);
    await page.getByText('A verification link is queued for ada@example.com.').waitFor();
    await expect.poll(() => stack().api.messagesTo('ada@example.com', 'verification')).toBe(1);

    const recover = responseTo(page, 'POST', /\/v1\/admin\/users\/[^/]+\/recovery$/);
    await page.getByRole('button', { name: 'Send recovery link' }).click();
    expect((await recover).status()).toBe(202);
    await page.getByText('A recovery link is queued for ada@example.com.').waitFor();
    await expect.poll(() => stack().api.messagesTo('ada@example.com', 'recovery')).toBe(1);
  });

  it('offers no verification to a verified user, and still the recovery link', async () => {
    const { page } = panel;
    const user = await stack().api.createUser({ email: 'verified@example.com', password: 'correct horse battery' });
    await page.goto(`/admin/users/${user.id}`);
    await page.getByRole('heading', { name: 'verified@example.com' }).waitFor();
    await page.getByRole('button', { name: 'Send recovery link' }).waitFor();
    expect(await page.getByRole('button', { name: 'Resend verification' }).count()).toBe(0);
  });
});
