import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel, type PageWatch, responseTo, saveScreenshot, signIn } from '../support/browser';
import { MailedLinks } from '../support/mailed-links';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';
import { WebhookReceiver } from '../support/webhook-receiver';

// The receivers listen on loopback over http: only the operator may allow both.
const stack = useStack({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
});
const OTHER_ADMIN = { email: 'ada@example.com', password: 'correct horse battery staple' };

const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
const deliveryRows = (page: Page, event: string) => page.locator('.deliveries-table tbody tr', { hasText: event });
const cell = (row: ReturnType<typeof deliveryRows>, label: string) => row.locator(`td[data-label="${label}"]`);

describe('webhook endpoints in the panel', () => {
  const owner = usePanel(stack, 'file');
  let receiver: WebhookReceiver;
  let gone: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    gone = await WebhookReceiver.start();
    gone.status = 410;
  });
  afterAll(async () => {
    await receiver?.close();
    await gone?.close();
  });

  /** Creates an endpoint through the dialog and answers the secret it showed, once. */
  async function createEndpoint(page: Page, url: string, events: string[] | 'all', description = ''): Promise<string> {
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook endpoint' });
    await form.getByLabel('URL', { exact: true }).fill(url);
    if (description) await form.getByLabel('Description', { exact: true }).fill(description);
    const all = form.getByLabel('All events, including those added later');
    if (events === 'all') await all.check();
    else {
      await all.uncheck();
      for (const event of events) await form.getByLabel(event, { exact: true }).check();
    }
    const created = responseTo(page, 'POST', '/v1/admin/webhooks');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    expect((await created).status()).toBe(201);
    const shown = page.getByRole('dialog', { name: 'Save the signing secret' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByText('Shown only now').waitFor();
    return secret;
  }

  it('creates an endpoint: its secret is shown once with a copy button, and never again', async () => {
    const { page, context } = owner;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, stack().server);
    await section(page, 'Webhooks').click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoint yet').waitFor();

    // A URL the API refuses is said at its field.
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook endpoint' });
    await form.getByLabel('URL', { exact: true }).fill('ftp://example.com/hook');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const url = form.getByLabel('URL', { exact: true });
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');

    const secret = await createEndpoint(page, `${receiver.url}/billing`, ['user.created', 'webhook.test'], 'Billing');
    receiver.secret = secret;
    const shown = page.getByRole('dialog', { name: 'Save the signing secret' });
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByText('The secret is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await saveScreenshot(page, 'webhook-secret.png');
    await shown.getByRole('button', { name: 'I have saved it' }).click();

    const row = page.locator('tbody tr', { hasText: `${receiver.url}/billing` });
    await row.waitFor();
    expect(await row.locator('td[data-label="Events"]').textContent()).toBe('user.created, webhook.test');
    expect(await row.locator('td[data-label="Status"]').textContent()).toBe('Enabled');
    const again = responseTo(page, 'GET', /^\/v1\/admin\/webhooks\/[^/]+$/);
    await row.getByRole('link', { name: `${receiver.url}/billing` }).click();
    expect(await (await again).text()).not.toContain(secret);
    await page.getByRole('heading', { name: `${receiver.url}/billing`, level: 1 }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test event the receiver verifies with the secret; the log shows it succeeded, and replays it', async () => {
    const { page } = owner;
    const queued = responseTo(page, 'POST', /^\/v1\/admin\/webhooks\/[^/]+\/test$/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    expect((await queued).status()).toBe(202);
    await expect.poll(() => receiver.of('webhook.test').length, { timeout: 15_000 }).toBe(1);
    expect(receiver.of('webhook.test')[0]?.verified).toBe(true);

    // The log looks again by itself while a delivery is pending.
    const row = deliveryRows(page, 'webhook.test');
    await expect.poll(() => cell(row.first(), 'Status').textContent(), { timeout: 15_000 }).toBe('succeeded');
    expect(await cell(row.first(), 'Attempts').textContent()).toBe('1');
    expect(await cell(row.first(), 'Response').textContent()).toBe('204');
    expect(await cell(row.first(), 'Duration').textContent()).toMatch(/^\d+ ms$/);
    await saveScreenshot(page, 'webhook-deliveries.png');

    const replayed = responseTo(page, 'POST', /^\/v1\/admin\/webhooks\/[^/]+\/deliveries\/[^/]+\/replay$/);
    await row
      .first()
      .getByRole('button', { name: /^Replay webhook\.test/ })
      .click();
    expect((await replayed).status()).toBe(202);
    await expect.poll(() => receiver.of('webhook.test').length, { timeout: 15_000 }).toBe(2);
    expect(receiver.of('webhook.test').every((delivery) => delivery.verified)).toBe(true);
  });

  it('replays every event since a number: a user created is delivered again', async () => {
    const { page } = owner;
    await stack().api.createUser({ email: 'carol@example.com', password: 'correct horse battery' });
    await expect.poll(() => receiver.of('user.created').length, { timeout: 15_000 }).toBe(1);
    const sequence = Number(receiver.of('user.created')[0]?.data.sequence);
    expect(sequence).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await deliveryRows(page, 'user.created').first().waitFor();

    await page.getByLabel('Replay events since number').fill(String(sequence));
    const replayed = responseTo(page, 'POST', /^\/v1\/admin\/webhooks\/[^/]+\/replay$/);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    expect((await replayed).status()).toBe(202);
    await page.getByText('1 event queued again.').waitFor();
    await expect.poll(() => receiver.of('user.created').length, { timeout: 15_000 }).toBe(2);
    const [first, second] = receiver.of('user.created');
    expect(second?.data.sequence).toBe(first?.data.sequence);
    expect(second?.verified).toBe(true);
  });

  it('edits, disables and enables an endpoint, and rotates its secret: the new one is shown once and signs', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Edit endpoint' });
    expect(await form.getByLabel('URL', { exact: true }).inputValue()).toBe(`${receiver.url}/billing`);
    await form.getByLabel('Description', { exact: true }).fill('Billing and CRM');
    const saved = responseTo(page, 'PATCH', /^\/v1\/admin\/webhooks\/[^/]+$/);
    await form.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    await page.locator('dd', { hasText: 'Billing and CRM' }).waitFor();

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.locator('dd', { hasText: 'Disabled by an admin' }).waitFor();
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.locator('dd', { hasText: 'Enabled' }).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = responseTo(page, 'POST', /^\/v1\/admin\/webhooks\/[^/]+\/secret$/);
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    expect((await rotated).status()).toBe(200);
    const shown = page.getByRole('dialog', { name: 'Save the signing secret' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(receiver.secret);
    receiver.secret = secret;
    await shown.getByRole('button', { name: 'I have saved it' }).click();

    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.of('webhook.test').length, { timeout: 15_000 }).toBe(3);
    expect(receiver.of('webhook.test')[2]?.verified).toBe(true);
  });

  it('tells an owner, where they land, that an endpoint answering 410 Gone was disabled', async () => {
    const { page } = owner;
    await section(page, 'Webhooks').click();
    gone.secret = await createEndpoint(page, `${gone.url}/crm`, 'all');
    await page
      .getByRole('dialog', { name: 'Save the signing secret' })
      .getByRole('button', { name: 'I have saved it' })
      .click();
    await page.getByRole('link', { name: `${gone.url}/crm` }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => gone.received.length, { timeout: 15_000 }).toBe(1);

    await expect
      .poll(async () => (await stack().api.webhooks()).find((w) => w.url === `${gone.url}/crm`)?.disabled_reason, {
        timeout: 15_000,
      })
      .toBe('gone');

    await section(page, 'Overview').click();
    const notice = page.getByRole('alert').filter({ hasText: 'webhook endpoint was disabled' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`${gone.url}/crm — Disabled: the receiver answered 410 Gone.`);
    await notice.getByRole('link', { name: `${gone.url}/crm` }).click();
    await page.getByRole('heading', { name: `${gone.url}/crm`, level: 1 }).waitFor();
  });

  it('deletes an endpoint after a confirmation', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const removed = responseTo(page, 'DELETE', /^\/v1\/admin\/webhooks\/[^/]+$/);
    await page.getByRole('dialog', { name: 'Delete the endpoint?' }).getByRole('button', { name: 'Delete' }).click();
    expect((await removed).status()).toBe(204);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.locator('tbody tr', { hasText: `${receiver.url}/billing` }).waitFor();
    expect(await page.locator('tbody tr', { hasText: `${gone.url}/crm` }).count()).toBe(0);
  });

  it('keeps the Webhooks pages within a phone screen', async () => {
    const { page } = owner;
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    await page.locator('tbody tr', { hasText: `${receiver.url}/billing` }).waitFor();
    expect(await sideways()).toBe(false);
    await page.getByRole('link', { name: `${receiver.url}/billing` }).click();
    await deliveryRows(page, 'webhook.test').first().waitFor();
    expect(await sideways()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  describe('for an admin who is not an owner', () => {
    const other = {} as { context: BrowserContext; page: Page; watch: PageWatch };
    afterAll(async () => {
      await other.context?.close();
    });

    it('offers no Webhooks page, and the page by its address asks the API nothing', async () => {
      await stack().api.inviteAdmin(OTHER_ADMIN.email, 'admin');
      const link = await (await MailedLinks.open(stack().server)).link(OTHER_ADMIN.email, 'admin_invitation');
      Object.assign(other, await openPanel(stack().browser, stack().server));
      const { page } = other;
      await page.goto(link);
      const passwords = page.locator('input[type="password"]');
      for (let i = 0; i < (await passwords.count()); i += 1) await passwords.nth(i).fill(OTHER_ADMIN.password);
      const accepted = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.locator('form button[type="submit"]').click();
      expect((await accepted).status()).toBeLessThan(400);

      await signIn(page, { ...stack().server, admin: OTHER_ADMIN });
      expect(await section(page, 'Webhooks').count()).toBe(0);
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.goto('/admin/webhooks');
      await page.getByText('Only owners manage webhooks.').waitFor();
      await section(page, 'Overview').click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      expect(asked.filter((path) => path.startsWith('/v1/admin/webhooks'))).toEqual([]);
      expect(await page.getByRole('button', { name: 'New endpoint' }).count()).toBe(0);
      expect(other.watch.errors).toEqual([]);
    });
  });
});
