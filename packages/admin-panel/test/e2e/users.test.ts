import type { Page } from 'playwright-core';
import type { ErrorDocument, UserDocument } from '@uas/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { responseTo, saveScreenshot, signIn, userRow } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();

const TEAM = [
  ['Ada Lovelace', 'ada@analytical.example', { plan: 'pro' }],
  ['Alan Turing', 'alan.turing@bletchley.example', { plan: 'free' }],
  ['Katherine Johnson', 'katherine@nasa.example', { plan: 'pro', seats: 4 }],
  ['Linus Torvalds', 'linus@kernel.example', {}],
  ['Margaret Hamilton', 'margaret@apollo.example', { plan: 'enterprise' }],
  ['Tim Berners-Lee', 'timbl@w3.example', { plan: 'pro' }],
] as const;

describe('managing users in the panel', () => {
  const panel = usePanel(stack, 'file');
  let page: Page;
  const email = 'grace.hopper@navy.example';
  let userId = '';

  const dialog = (name: string) => page.getByRole('dialog', { name });
  const fieldError = (scope: ReturnType<typeof dialog>, label: string) =>
    scope.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');

  beforeAll(async () => {
    for (const [name, address, metadata] of TEAM) {
      await stack().api.createUser({ name, email: address, password: 'long enough', metadata: { ...metadata } });
    }
    page = panel.page;
    await signIn(page, stack().server);
  });

  it('creates a user from the form, submitted with Enter', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const form = dialog('New user');
    await form.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await form.getByLabel('Email', { exact: true }).fill(email);
    await form.getByLabel('Metadata', { exact: true }).fill('{"plan": "pro", "team": "compilers"}');
    await form.getByLabel('App', { exact: true }).fill('{"role": "admiral"}');
    await form.getByLabel('Password', { exact: true }).fill('correct horse battery');
    const created = responseTo(page, 'POST', '/v1/admin/users');
    await form.getByLabel('Password', { exact: true }).press('Enter');

    const response = await created;
    expect(response.status()).toBe(201);
    userId = ((await response.json()) as UserDocument).data.id;
    await form.waitFor({ state: 'detached' });
    await userRow(page, email).waitFor();
    expect(await stack().api.user(userId)).toMatchObject({
      name: 'Grace Hopper',
      email,
      active: 1,
      metadata: { plan: 'pro', team: 'compilers' },
      app: { role: 'admiral' },
    });
  });

  it('shows a taken email (409) at the email field, and closes with Escape', async () => {
    const opener = page.getByRole('button', { name: 'New user' });
    await opener.click();
    const form = dialog('New user');
    await form.getByLabel('Email', { exact: true }).fill(email.toUpperCase());
    await form.getByLabel('Password', { exact: true }).fill('another password');
    const created = responseTo(page, 'POST', '/v1/admin/users');
    await form.getByRole('button', { name: 'Create user' }).click();

    const response = await created;
    expect(response.status()).toBe(409);
    const { errors } = (await response.json()) as ErrorDocument;
    await expect.poll(() => fieldError(form, 'Email').textContent()).toBe(errors[0]?.detail ?? errors[0]?.title);
    expect(await form.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows each validation error (422) next to the field its pointer names', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const form = dialog('New user');
    await form.getByLabel('Email', { exact: true }).fill('not-an-email');
    await form.getByLabel('Password', { exact: true }).fill('short');
    const created = responseTo(page, 'POST', '/v1/admin/users');
    await form.getByRole('button', { name: 'Create user' }).click();

    const response = await created;
    expect(response.status()).toBe(422);
    const { errors } = (await response.json()) as ErrorDocument;
    const detailAt = (attribute: string) =>
      errors.find(({ source }) => source && 'pointer' in source && source.pointer === `/data/attributes/${attribute}`)
        ?.detail;
    await expect.poll(() => fieldError(form, 'Email').textContent()).toBe(detailAt('email'));
    expect(await fieldError(form, 'Password').textContent()).toBe(detailAt('password'));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('refuses metadata that is not a JSON object before sending anything', async () => {
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/v1/admin/users')) posts.push(r.url());
    });
    await page.getByRole('button', { name: 'New user' }).click();
    const form = dialog('New user');
    await form.getByLabel('Email', { exact: true }).fill('json@example.com');
    await form.getByLabel('Password', { exact: true }).fill('long enough');
    await form.getByLabel('Metadata', { exact: true }).fill('["not", "an", "object"]');
    await form.getByLabel('App', { exact: true }).fill('{oops');
    await form.getByRole('button', { name: 'Create user' }).click();

    await expect.poll(() => fieldError(form, 'Metadata').textContent()).toContain('JSON object');
    expect(await fieldError(form, 'App').textContent()).toContain('Not valid JSON');
    expect(posts).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('finds the user by email as the admin types, and keeps the search in the URL', async () => {
    const lists: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && r.url().includes('/v1/admin/users?')) lists.push(decodeURIComponent(r.url()));
    });
    // The test before closed a dialog: it leaves the accessibility tree at once, but gives focus
    // back to "New user" only in its close event, a task later; keys typed before that are lost.
    await page.locator('dialog').waitFor({ state: 'detached' });
    await page.getByLabel('Search by email').pressSequentially('grace.hop', { delay: 40 });

    await page.waitForURL('**/admin/users?search=grace.hop');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await userRow(page, email).waitFor();
    expect(lists.length).toBeLessThanOrEqual(2);
    expect(lists.at(-1)).toContain('search[email]=grace.hop');

    await page.reload();
    await userRow(page, email).waitFor();
    expect(await page.getByLabel('Search by email').inputValue()).toBe('grace.hop');
  });

  it('edits the metadata, sending only what changed', async () => {
    await page.getByRole('button', { name: `Edit ${email}` }).click();
    const form = dialog('Edit user');
    await expect.poll(() => form.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await form.getByLabel('Metadata', { exact: true }).fill('{\n  "plan": "enterprise",\n  "team": "compilers"\n}');
    await saveScreenshot(page, 'edit-user.png');

    const patched = responseTo(page, 'PATCH', `/v1/admin/users/${userId}`);
    await form.getByRole('button', { name: 'Save changes' }).click();

    const response = await patched;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toEqual({
      data: { type: 'users', id: userId, attributes: { metadata: { plan: 'enterprise', team: 'compilers' } } },
    });
    await form.waitFor({ state: 'detached' });
    expect(await stack().api.user(userId)).toMatchObject({
      name: 'Grace Hopper',
      metadata: { plan: 'enterprise', team: 'compilers' },
      app: { role: 'admiral' },
    });
  });

  it('never overwrites a change made elsewhere after the form opened: it says so and offers to reload', async () => {
    await page.getByRole('button', { name: `Edit ${email}` }).click();
    const form = dialog('Edit user');
    await expect.poll(() => form.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await stack().api.updateUser(userId, { app: { role: 'admiral', rank: 'rear admiral' } });
    await form.getByLabel('Metadata', { exact: true }).fill('{"plan": "team"}');

    const stale = responseTo(page, 'PATCH', `/v1/admin/users/${userId}`);
    await form.getByRole('button', { name: 'Save changes' }).click();
    const refused = await stale;
    expect(refused.status()).toBe(412);
    expect(refused.request().headers()['if-match']).toMatch(/^"[^"]+"$/);
    await form.getByRole('alert').getByText('changed elsewhere', { exact: false }).waitFor();
    expect(await stack().api.user(userId)).toMatchObject({
      metadata: { plan: 'enterprise', team: 'compilers' },
      app: { role: 'admiral', rank: 'rear admiral' },
    });

    await form.getByRole('button', { name: 'Reload user' }).click();
    await expect.poll(() => form.getByLabel('App', { exact: true }).inputValue()).toContain('rear admiral');
    await form.getByLabel('Metadata', { exact: true }).fill('{"plan": "team"}');
    const fresh = responseTo(page, 'PATCH', `/v1/admin/users/${userId}`);
    await form.getByRole('button', { name: 'Save changes' }).click();
    expect((await fresh).status()).toBe(200);
    await form.waitFor({ state: 'detached' });
    expect(await stack().api.user(userId)).toMatchObject({
      metadata: { plan: 'team' },
      app: { role: 'admiral', rank: 'rear admiral' },
    });
  });

  it('deactivates the user, keeping keyboard focus on the row', async () => {
    const patched = responseTo(page, 'PATCH', `/v1/admin/users/${userId}`);
    await page.getByRole('button', { name: `Deactivate ${email}` }).click();

    const response = await patched;
    expect(response.request().postDataJSON()).toMatchObject({ data: { attributes: { active: 0 } } });
    await userRow(page, email).getByText('Inactive').waitFor();
    expect((await stack().api.user(userId))?.active).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Activate ${email}`);
  });

  it('lists every user with name, email, status, last login, recent failed logins and created', async () => {
    await page.getByLabel('Search by email').fill('');
    await page.waitForURL((url) => url.pathname === '/admin/users' && url.search === '');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(TEAM.length + 1);
    const headers = await page.locator('thead th').allTextContents();
    expect(headers.slice(0, 6)).toEqual(['Name', 'Email', 'Status', 'Last login', 'Failed logins', 'Created']);
    await page.reload();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(TEAM.length + 1);
    await saveScreenshot(page, 'users.png');
  });

  it('deletes the user only after confirmation', async () => {
    await page.getByRole('button', { name: `Delete ${email}` }).click();
    const confirm = dialog('Delete user?');
    await confirm.getByText(email).waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await stack().api.user(userId)).not.toBeNull();

    await page.getByRole('button', { name: `Delete ${email}` }).click();
    const deleted = responseTo(page, 'DELETE', `/v1/admin/users/${userId}`);
    await confirm.getByRole('button', { name: 'Delete user' }).click();

    expect((await deleted).status()).toBe(204);
    await confirm.waitFor({ state: 'detached' });
    await userRow(page, email).waitFor({ state: 'detached' });
    expect(await stack().api.user(userId)).toBeNull();
  });
});
