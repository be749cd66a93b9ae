import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { responseTo, saveScreenshot, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const SECRET = 'gh-secret-typed-in-the-panel-51c9';
const NEW_SECRET = 'gh-secret-replaced-in-the-panel-7e02';

const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
const providerRow = (page: Page, slug: string) =>
  page
    .locator('.identity-providers-table tbody tr')
    .filter({ has: page.getByRole('cell', { name: slug, exact: true }) });

describe('sign-in providers in the panel', () => {
  const owner = usePanel(stack, 'file');

  it('adds a provider with a write-only secret, shows the callback URL to copy, edits and deletes it', async () => {
    const { page, context } = owner;
    const { server, api } = stack();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, server);
    await section(page, 'Sign-in providers').click();
    await page.getByRole('heading', { name: 'Sign-in providers', level: 1 }).waitFor();
    await page.getByText('No provider yet').waitFor();

    // What the API refuses is said at its field: a preset needs its secret.
    await page.getByRole('button', { name: 'New provider' }).click();
    const form = page.getByRole('dialog', { name: 'New sign-in provider' });
    await form.getByLabel('Slug', { exact: true }).fill('github');
    await form.getByLabel('Kind', { exact: true }).selectOption('github');
    await form.getByLabel('Client ID', { exact: true }).fill('Iv1.8a61f9b3a7aba766');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const secretField = form.getByLabel('Client secret', { exact: true });
    await expect.poll(() => secretField.getAttribute('aria-invalid')).toBe('true');
    expect(await secretField.getAttribute('type')).toBe('password');

    await secretField.fill(SECRET);
    await form.getByLabel('Extra scopes', { exact: true }).fill('read:org');
    const created = responseTo(page, 'POST', '/v1/admin/identity-providers');
    await form.getByRole('button', { name: 'Add provider' }).click();
    expect((await created).status()).toBe(201);
    const row = providerRow(page, 'github');
    // PUBLIC_URL + v1/oauth/{slug}/callback: what to register at GitHub.
    const shownUrl = row.locator('code', { hasText: '/v1/oauth/github/callback' });
    const callbackUrl = (await shownUrl.textContent()) ?? '';
    expect(callbackUrl).toMatch(/^https?:\/\/[^/]+\/v1\/oauth\/github\/callback$/);
    await row.getByRole('button', { name: 'Copy the callback URL of github' }).click();
    await page.getByText('The callback URL of github is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(callbackUrl);
    await saveScreenshot(page, 'identity-providers.png');

    // The secret is write-only: not in the page, not in the API's answer.
    expect(await page.content()).not.toContain(SECRET);
    expect(await api.identityProvidersText()).not.toContain(SECRET);

    // Editing shows that a secret is stored, never the secret; a new one replaces it.
    await row.getByRole('button', { name: 'Edit github' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit github' });
    await edit.getByText('A secret is stored').waitFor();
    expect(await edit.getByLabel('Client secret', { exact: true }).inputValue()).toBe('');
    expect(await edit.getByLabel('Extra scopes', { exact: true }).inputValue()).toBe('read:org');
    await edit.getByLabel('Users may sign in with it').uncheck();
    await edit.getByLabel('Client secret', { exact: true }).fill(NEW_SECRET);
    const saved = responseTo(page, 'PATCH', /^\/v1\/admin\/identity-providers\//);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    await row.getByText('Disabled').waitFor();
    expect(await page.content()).not.toContain(NEW_SECRET);
    expect(await api.identityProvidersText()).not.toContain(NEW_SECRET);

    await row.getByRole('button', { name: 'Delete github' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete github?' });
    const deleted = responseTo(page, 'DELETE', /^\/v1\/admin\/identity-providers\//);
    await confirm.getByRole('button', { name: 'Delete provider' }).click();
    expect((await deleted).status()).toBe(204);
    await page.getByText('No provider yet').waitFor();
  });

  it("shows on a user's page that no sign-in provider is linked", async () => {
    const { page } = owner;
    const { api } = stack();
    const user = await api.createUser({ email: 'grace@example.com', password: 'correct horse battery' });
    await page.goto(`/admin/users/${user.id}`);
    const card = page.getByRole('region', { name: 'Sign-in providers' });
    await card.getByText('No account at a sign-in provider is linked.').waitFor();
  });
});
