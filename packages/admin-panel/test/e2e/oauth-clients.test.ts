import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { responseTo, saveScreenshot, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
/** A name that would run if the page made markup of it. */
const HOSTILE_NAME = '<img src=x onerror="window.__xss=1">CRM';

const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
const clientRow = (page: Page) => page.locator('.oauth-clients-table tbody tr');

describe('applications in the panel', () => {
  const owner = usePanel(stack, 'file');

  it('registers a client showing its secret once, edits, rotates and deletes it; its name stays text', async () => {
    const { page, context } = owner;
    const { server, api } = stack();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, server);
    await section(page, 'Applications').click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.getByText('No application yet.').waitFor();

    // What the API refuses is said at its field: a web client may not redirect to loopback.
    await page.getByRole('button', { name: 'New application' }).click();
    const form = page.getByRole('dialog', { name: 'Register an application' });
    await form.getByLabel('Name', { exact: true }).fill(HOSTILE_NAME);
    expect(await form.getByLabel('Type', { exact: true }).inputValue()).toBe('confidential');
    const uris = form.getByLabel('Redirect URIs', { exact: true });
    await uris.fill('http://localhost:3000/callback');
    await form.getByRole('button', { name: 'Register application' }).click();
    await expect.poll(() => uris.getAttribute('aria-invalid')).toBe('true');

    await uris.fill('https://crm.example.com/callback');
    const created = responseTo(page, 'POST', '/v1/admin/oauth-clients');
    await form.getByRole('button', { name: 'Register application' }).click();
    expect((await created).status()).toBe(201);
    const secretDialog = page.getByRole('dialog', { name: 'Save the client secret' });
    const secret = await secretDialog.getByLabel('Client secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await secretDialog.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await secretDialog.getByRole('button', { name: 'I have saved it' }).click();

    const row = clientRow(page);
    await row.getByText(HOSTILE_NAME, { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('.oauth-clients-table img').count()).toBe(0);
    await saveScreenshot(page, 'oauth-clients.png');
    // Shown once: neither the page nor the API has it any more.
    expect(await page.content()).not.toContain(secret);
    expect(await api.oauthClientsText()).not.toContain(secret);

    await row.getByRole('button', { name: `Edit ${HOSTILE_NAME}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${HOSTILE_NAME}` });
    await edit.getByLabel('Name', { exact: true }).fill('Acme CRM');
    await edit.getByLabel('Redirect URIs', { exact: true }).fill('https://crm.example.com/v2/callback');
    await edit.getByLabel('First party: users are not asked to consent').check();
    const saved = responseTo(page, 'PATCH', /^\/v1\/admin\/oauth-clients\//);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    await row.getByText('https://crm.example.com/v2/callback').waitFor();
    await row.getByText('First party: no consent asked').waitFor();

    await row.getByRole('button', { name: 'Rotate the secret of Acme CRM' }).click();
    const rotated = responseTo(page, 'POST', /\/rotate-secret$/);
    await page
      .getByRole('dialog', { name: 'Rotate the secret of Acme CRM?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    expect((await rotated).status()).toBe(200);
    const next = await page
      .getByRole('dialog', { name: 'Save the client secret' })
      .getByLabel('Client secret', { exact: true })
      .inputValue();
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next).not.toBe(secret);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await api.oauthClientsText()).not.toContain(next);

    await row.getByRole('button', { name: 'Delete Acme CRM' }).click();
    const deleted = responseTo(page, 'DELETE', /^\/v1\/admin\/oauth-clients\//);
    await page
      .getByRole('dialog', { name: 'Delete Acme CRM?' })
      .getByRole('button', { name: 'Delete application' })
      .click();
    expect((await deleted).status()).toBe(204);
    await page.getByText('No application yet.').waitFor();
  });
});
