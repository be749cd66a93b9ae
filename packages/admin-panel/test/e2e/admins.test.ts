import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../support/admin-client';
import { openPanel, type PageWatch, responseTo, saveScreenshot, signIn } from '../support/browser';
import { MailedLinks } from '../support/mailed-links';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const INVITEE = { email: 'audrey@example.com', password: 'correct horse battery staple' };

/** The role the header shows beside the signed-in admin's email. */
const headerRole = (page: Page) => page.getByRole('banner').getByTitle('Your role');
const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
const adminRow = (page: Page, email: string) => page.locator('tbody tr', { hasText: email });

describe('administrators and their roles in the panel', () => {
  const owner = usePanel(stack, 'file');
  /** The invitee's own browser, once they have joined. */
  const invitee = {} as { context: BrowserContext; page: Page; watch: PageWatch };
  let mail: MailedLinks;
  let user: { id: string };
  beforeAll(async () => {
    mail = await MailedLinks.open(stack().server);
    user = await stack().api.createUser({ email: 'bob@example.com', password: 'correct horse battery' });
  });
  afterAll(async () => {
    await invitee.context?.close();
  });

  it("shows the owner's role in the header, and the Admins section to owners only", async () => {
    const { page } = owner;
    await signIn(page, stack().server);
    expect(await headerRole(page).textContent()).toBe('owner');
    await section(page, 'Admins').click();
    await page.getByRole('heading', { name: 'Admins', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/admins');
    const row = adminRow(page, stack().server.admin.email);
    await row.waitFor();
    expect(await row.getByLabel(`Role of ${stack().server.admin.email}`, { exact: true }).inputValue()).toBe('owner');
  });

  it('invites an admin with a role, refusing a missing role at its field; the invitee joins through the mailed link', async () => {
    const { page } = owner;
    await page.getByLabel('Email', { exact: true }).fill(INVITEE.email);
    await page.getByLabel('Name', { exact: true }).fill('Audrey Auditor');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const role = page.getByLabel('Role', { exact: true });
    await expect.poll(() => role.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('role');

    await role.selectOption('auditor');
    const invited = responseTo(page, 'POST', '/v1/admin/admins');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    expect((await invited).status()).toBe(201);
    await page.getByText(`Invitation sent to ${INVITEE.email}.`).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('');

    const link = await mail.link(INVITEE.email, 'admin_invitation');
    expect(new URL(link).pathname).toBe('/account/admin-invitation');
    Object.assign(invitee, await openPanel(stack().browser, stack().server));
    await invitee.page.goto(link);
    const passwords = invitee.page.locator('input[type="password"]');
    for (let i = 0; i < (await passwords.count()); i += 1) await passwords.nth(i).fill(INVITEE.password);
    const accepted = invitee.page.waitForResponse((r) => r.request().method() === 'POST');
    await invitee.page.locator('form button[type="submit"]').click();
    expect((await accepted).status()).toBeLessThan(400);
    await expect
      .poll(async () => (await stack().api.admins()).find((a) => a.email === INVITEE.email)?.role)
      .toBe('auditor');

    await section(page, 'Admins').click();
    const row = adminRow(page, INVITEE.email);
    await row.waitFor();
    expect(await row.getByLabel(`Role of ${INVITEE.email}`, { exact: true }).inputValue()).toBe('auditor');
    await saveScreenshot(page, 'admins.png');
  });

  it('lists a pending invitation with its role, and withdraws it after a confirmation', async () => {
    const { page } = owner;
    await page.getByLabel('Email', { exact: true }).fill('pat@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const pending = page.locator('.pending-admins li', { hasText: 'pat@example.com' });
    await pending.waitFor();
    expect(await pending.textContent()).toContain('pat@example.com · support · link expires');

    await pending.getByRole('button', { name: 'Withdraw the invitation of pat@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw the invitation?' });
    const withdrawn = responseTo(page, 'DELETE', /^\/v1\/admin\/admins\/invitations\/[^/]+$/);
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    expect((await withdrawn).status()).toBe(204);
    await page.getByText('The invitation of pat@example.com is withdrawn.').waitFor();
    await pending.waitFor({ state: 'detached' });
  });

  it('shows an auditor their role and no control that writes', async () => {
    const { page } = invitee;
    await signIn(page, { ...stack().server, admin: INVITEE });
    expect(await headerRole(page).textContent()).toBe('auditor');
    expect(await section(page, 'Admins').count()).toBe(0);
    await page.locator('tbody tr', { hasText: 'bob@example.com' }).waitFor();
    for (const name of ['New user', 'Import…', 'Export', 'Edit bob@example.com', 'Delete bob@example.com'])
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);

    await page.goto(`/admin/users/${user.id}`);
    await page.getByRole('heading', { name: 'bob@example.com', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    for (const name of ['Edit', 'Ban…', 'Unban', 'Impersonate…', 'Send recovery link', 'Resend verification'])
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);

    await section(page, 'Invitations').click();
    await page.getByRole('heading', { name: 'Invitations', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);

    // The Admins page by its address says who may use it, and asks the API nothing.
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto('/admin/admins');
    await page.getByText('Only owners manage administrators.').waitFor();
    expect(asked).not.toContain('/v1/admin/admins');
    expect(await page.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);
    expect(invitee.watch.errors).toEqual([]);
  });

  it("changes a role: the admin's next page shows the new role and its controls", async () => {
    const { page } = owner;
    const row = adminRow(page, INVITEE.email);
    await row.getByLabel(`Role of ${INVITEE.email}`, { exact: true }).selectOption('support');
    const changed = responseTo(page, 'PATCH', /^\/v1\/admin\/admins\/[^/]+$/);
    await row.getByRole('button', { name: `Save the role of ${INVITEE.email}` }).click();
    expect((await changed).status()).toBe(200);
    await page.getByText(`${INVITEE.email} is now support.`).waitFor();
    expect((await stack().api.admins()).find((a) => a.email === INVITEE.email)?.role).toBe('support');

    const other = invitee.page;
    await section(other, 'Users').click();
    await other.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await expect.poll(() => headerRole(other).textContent()).toBe('support');
    await other.goto(`/admin/users/${user.id}`);
    await other.getByRole('button', { name: 'Ban…' }).waitFor();
    await other.getByRole('button', { name: 'Send recovery link' }).waitFor();
    expect(await other.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    // Support does not read the audit log: the page shows no trail rather than a refusal.
    expect(await other.getByRole('heading', { name: 'Audit trail' }).count()).toBe(0);
    const sent = responseTo(other, 'POST', `/v1/admin/users/${user.id}/recovery`);
    await other.getByRole('button', { name: 'Send recovery link' }).click();
    expect((await sent).status()).toBe(202);
    expect(invitee.watch.errors).toEqual([]);
  });

  it("offers an admin no administrator's invitation to open in the outbox, which an owner opens", async () => {
    const { page } = owner;
    const row = adminRow(page, INVITEE.email);
    await row.getByLabel(`Role of ${INVITEE.email}`, { exact: true }).selectOption('admin');
    const changed = responseTo(page, 'PATCH', /^\/v1\/admin\/admins\/[^/]+$/);
    await row.getByRole('button', { name: `Save the role of ${INVITEE.email}` }).click();
    expect((await changed).status()).toBe(200);
    await page.getByLabel('Email', { exact: true }).fill('olive@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('owner');
    const invited = responseTo(page, 'POST', '/v1/admin/admins');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    expect((await invited).status()).toBe(201);

    // Its link would make the admin an owner; the recovery message to Bob is theirs to open.
    const other = invitee.page;
    await other.goto('/admin/mail');
    await other
      .locator('tbody tr', { hasText: 'bob@example.com' })
      .first()
      .getByRole('button', { name: 'Show' })
      .waitFor();
    const invitation = other.locator('tbody tr', { hasText: 'olive@example.com' });
    await invitation.waitFor();
    expect(await invitation.getByRole('button', { name: 'Show' }).count()).toBe(0);
    expect(invitee.watch.errors).toEqual([]);

    await section(page, 'Mail').click();
    await page.locator('tbody tr', { hasText: 'olive@example.com' }).getByRole('button', { name: 'Show' }).click();
    await page.locator('pre.mail-text', { hasText: '/account/admin-invitation?token=' }).waitFor();
  });

  it('filters the audit log by an admin, picked by email or from an event they made', async () => {
    const { page } = owner;
    const audrey = (await stack().api.admins()).find((a) => a.email === INVITEE.email)!;
    await section(page, 'Audit log').click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    // What Audrey did is shown under her email, a link to everything she did.
    const hers = page.getByRole('link', { name: INVITEE.email }).first();
    await hers.waitFor();
    await hers.click();
    await page.waitForURL(`**/admin/audit?actor=${audrey.id}`);
    const actors = page.locator('tbody td[data-label="Actor"]');
    await expect.poll(async () => new Set(await actors.allTextContents())).toEqual(new Set([INVITEE.email]));

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL('**/admin/audit');
    await page.getByLabel('Actor').fill(INVITEE.email.toUpperCase());
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(`**/admin/audit?actor=${audrey.id}`);
    await expect.poll(async () => new Set(await actors.allTextContents())).toEqual(new Set([INVITEE.email]));
    expect(await page.getByLabel('Actor').inputValue()).toBe(INVITEE.email.toUpperCase());
    await section(page, 'Admins').click();
    await page.getByRole('heading', { name: 'Admins', level: 1 }).waitFor();
  });

  it("refuses to demote the last owner and to remove the key file's admin, and says why where it was asked", async () => {
    const { page } = owner;
    const self = stack().server.admin.email;
    const row = adminRow(page, self);
    await row.getByLabel(`Role of ${self}`, { exact: true }).selectOption('admin');
    const demoted = responseTo(page, 'PATCH', /^\/v1\/admin\/admins\/[^/]+$/);
    await row.getByRole('button', { name: `Save the role of ${self}` }).click();
    expect((await demoted).status()).toBe(409);
    const select = row.getByLabel(`Role of ${self}`, { exact: true });
    await expect.poll(() => select.getAttribute('aria-invalid')).toBe('true');
    expect(await row.locator('.field-error').textContent()).toContain('last owner');
    expect((await stack().api.admins()).find((a) => a.email === self)?.role).toBe('owner');

    await row.getByRole('button', { name: `Remove ${self}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the admin?' });
    const removed = responseTo(page, 'DELETE', /^\/v1\/admin\/admins\/[^/]+$/);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    expect((await removed).status()).toBe(403);
    expect(await dialog.getByRole('alert').textContent()).toContain('key file');
    await page.keyboard.press('Escape');
    expect(await stack().api.meStatus()).toBe(200);
  });

  it('keeps the Admins page within a phone screen', async () => {
    const { page } = owner;
    await page.setViewportSize({ width: 390, height: 844 });
    await adminRow(page, INVITEE.email).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('removes an admin after a confirmation: their sessions end with it', async () => {
    const { page } = owner;
    const removedAdmin = await AdminClient.signIn(stack().server, INVITEE);
    expect(await removedAdmin.meStatus()).toBe(200);
    await adminRow(page, INVITEE.email)
      .getByRole('button', { name: `Remove ${INVITEE.email}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove the admin?' });
    const removed = responseTo(page, 'DELETE', /^\/v1\/admin\/admins\/[^/]+$/);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    expect((await removed).status()).toBe(204);
    await page.getByText(`${INVITEE.email} is no longer an admin.`).waitFor();
    await adminRow(page, INVITEE.email).waitFor({ state: 'detached' });
    expect(await removedAdmin.meStatus()).toBe(401);
  });
});
