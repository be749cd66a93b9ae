import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserResource } from '@uas/client';
import { responseTo, saveScreenshot, userRow } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const PASSWORD = 'correct horse battery';
const BROWSERS = [
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
];
/** A bcrypt hash of nobody's password: the imported month of sign-ups never logs in. */
const IMPORTED_HASH = '$2y$04$xVFWQ0oA6sigoj8A4s1b0OZOf/1zWEntqxyBjFGIuejjXTgThwCuK';
const FIRST = ['Ada', 'Alan', 'Grace', 'Katherine', 'Linus', 'Margaret', 'Tim', 'Barbara', 'Edsger', 'Frances'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Johnson', 'Torvalds', 'Hamilton', 'Liskov', 'Dijkstra', 'Allen'];

describe('the overview and the user page', () => {
  const panel = usePanel(stack, 'file');
  let page: Page;
  let ada: UserResource;
  let total = 0;
  let deactivated = 0;

  beforeAll(async () => {
    const { api } = stack();
    // A month of sign-ups, a few a day, some deactivated: the overview's counters count them on
    // the day of their `created`.
    const now = Date.now();
    const records = Array.from({ length: 30 }, (_, daysAgo) => daysAgo)
      .flatMap((daysAgo) =>
        // Between 2 and 10 a day, more on some days than others, as sign-ups come.
        Array.from({ length: 2 + ((daysAgo * 37) % 9) }, (_, hour) => ({
          created: new Date(now - daysAgo * 86_400_000 - hour * 1_800_000).toISOString(),
        })),
      )
      .map(({ created }, index) => {
        const name = `${FIRST[index % FIRST.length]} ${LAST[index % LAST.length]}`;
        return {
          name,
          email: `${name.toLowerCase().replace(' ', '.')}.${index}@example.com`,
          password_hash: IMPORTED_HASH,
          active: index % 11 === 0 ? 0 : 1,
          created,
        };
      });
    deactivated = records.filter((record) => record.active === 0).length;
    total = records.length + 1;
    await api.importUsers(records);
    ada = await api.createUser({
      name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      password: PASSWORD,
      metadata: { locale: 'en-GB', theme: 'dark' },
      app: { plan: 'pro', seats: 5 },
    });
    for (const browser of BROWSERS) expect(await api.userLogin(ada.attributes.email, PASSWORD, browser)).toBe(200);
    for (let i = 0; i < 2; i++)
      expect(await api.userLogin(ada.attributes.email, 'wrong password', BROWSERS[0]!)).toBe(401);
    expect(await api.userLogin('nobody@example.com', 'wrong password', BROWSERS[1]!)).toBe(401);
    await api.updateUser(ada.id, { name: 'Ada King, Countess of Lovelace' });
    page = panel.page;
    await page.setViewportSize({ width: 1280, height: 1000 });
  });

  it('lands on the overview: users by state and 30 days of activity drawn under the strict CSP', async () => {
    await page.goto('/admin/');
    await page.waitForURL('**/admin/login');
    await page.getByLabel('Email', { exact: true }).fill(stack().server.admin.email);
    await page.getByLabel('Password', { exact: true }).fill(stack().server.admin.password);
    const stats = responseTo(page, 'GET', '/v1/admin/stats');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect((await stats).status()).toBe(200);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/');
    const cards = page.getByRole('region', { name: 'Users' });
    await expect.poll(() => cards.textContent()).toContain(`Users${total}`);
    expect(await cards.textContent()).toContain(`Deactivated${deactivated}`);
    // Three charts, each a canvas uPlot drew, each with its numbers in a table for screen readers.
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(3);
    expect(await page.getByRole('table', { name: 'Successful logins per day' }).count()).toBe(1);
    const failedToday = page.getByRole('table', { name: 'Failed logins per day' }).locator('tbody tr').last();
    expect(await failedToday.locator('td').textContent()).toBe('3');
    await page.waitForTimeout(300); // a CSP refusal would be logged by now; usePanel fails the test on one
    await saveScreenshot(page, 'overview.png');
  });

  it('opens a user from the list, and shows their attributes, sessions and recent failures', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByLabel('Search by email').fill('ada@analytical');
    await userRow(page, 'ada@analytical.example').waitFor();
    expect(await userRow(page, 'ada@analytical.example').locator('td[data-label="Failed logins"]').textContent()).toBe(
      '2',
    );
    await userRow(page, 'ada@analytical.example').getByRole('link', { name: 'ada@analytical.example' }).click();
    await page.waitForURL(`**/admin/users/${ada.id}`);
    await page.getByRole('heading', { name: 'ada@analytical.example', level: 1 }).waitFor();
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Ada King, Countess of Lovelace').waitFor();
    expect(await details.textContent()).toContain('Failed logins (recent)2');
    // Created by an admin: verified, so the page shows when rather than "Not verified".
    expect(await details.textContent()).toContain('Email verified');
    expect(await details.textContent()).not.toContain('Not verified');
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(3);
    expect(await sessions.textContent()).toContain('Firefox/140.0');
  });

  it('keeps the user page on reload: a deep link loads the app', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'ada@analytical.example', level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Sessions' }).locator('tbody tr').count()).toBe(3);
    await saveScreenshot(page, 'user-page.png');
  });

  it('ends one session from the keyboard, and its access stops at once', async () => {
    const before = await stack().api.sessionIds(ada.id);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    const firefox = sessions.locator('tbody tr', { hasText: 'Firefox' });
    const ended = responseTo(page, 'DELETE', /\/v1\/admin\/users\/[^/]+\/sessions\/[^/]+$/);
    await firefox.getByRole('button', { name: /^End the session/ }).focus();
    await page.keyboard.press('Enter');
    expect((await ended).status()).toBe(204);
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(2);
    const after = await stack().api.sessionIds(ada.id);
    expect(after).toHaveLength(2);
    expect(before.filter((id) => !after.includes(id))).toHaveLength(1);
    // Focus went back to the section, not to the page's start.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sessions');
  });

  it('ends every session after confirming, and edits the user from its page', async () => {
    await page.getByRole('button', { name: 'End all sessions' }).click();
    const endedAll = responseTo(page, 'DELETE', `/v1/admin/users/${ada.id}/sessions`);
    await page
      .getByRole('dialog', { name: 'End all sessions?' })
      .getByRole('button', { name: 'End all sessions' })
      .click();
    expect((await endedAll).status()).toBe(204);
    await page.getByRole('region', { name: 'Sessions' }).getByText('Not signed in anywhere.').waitFor();
    expect(await stack().api.sessionIds(ada.id)).toEqual([]);

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Edit user' });
    await expect
      .poll(() => form.getByLabel('Name', { exact: true }).inputValue())
      .toBe('Ada King, Countess of Lovelace');
    await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    const saved = responseTo(page, 'PATCH', `/v1/admin/users/${ada.id}`);
    await form.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByRole('region', { name: 'Details' }).getByText('Ada Lovelace', { exact: true }).waitFor();
  });

  it('opens the audit log from the navigation, with filters kept in the URL', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Action').selectOption('session.revoked');
    await page.getByLabel('Target').fill(ada.id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(`**/admin/audit?target=${ada.id}&action=session.revoked`);
    await page.reload();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(await page.getByLabel('Target').inputValue()).toBe(ada.id);
    expect(await page.getByLabel('Action').inputValue()).toBe('session.revoked');
  });

  it('shows a user id that does not exist as not found', async () => {
    await page.goto('/admin/users/0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f');
    await page.getByRole('heading', { name: 'User not found' }).waitFor();
  });
});
