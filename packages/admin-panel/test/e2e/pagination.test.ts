import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const TOTAL = 45;
const emailOf = (n: number) => `pager${String(n).padStart(2, '0')}@example.com`;

describe('paging through users', () => {
  const panel = usePanel(stack, 'file');
  let page: Page;

  const emails = () => page.locator('tbody td.cell-email').allTextContents();
  const range = () => page.locator('.range').textContent();
  const pageButton = (name: string) => page.getByRole('button', { name, exact: true });

  beforeAll(async () => {
    for (let n = 1; n <= TOTAL; n += 1) {
      await stack().api.createUser({ name: `Pager ${n}`, email: emailOf(n), password: 'long enough' });
    }
    page = panel.page;
    await signIn(page, stack().server, '/admin/users?search=pager');
  });

  it('shows the first page of 20 with the total from meta.total, the heading focused after sign-in', async () => {
    expect(new URL(page.url()).search).toBe('?search=pager');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Users');
    await expect.poll(range).toBe(`Showing 1–20 of ${TOTAL}`);
    expect(await emails()).toEqual(Array.from({ length: 20 }, (_, i) => emailOf(i + 1)));
    expect(await page.locator('.position').textContent()).toBe('Page 1 of 3');
    expect(await pageButton('Previous page').isDisabled()).toBe(true);
    expect(await pageButton('First page').isDisabled()).toBe(true);
  });

  it('follows the next and last links, keeping the page in the URL', async () => {
    await pageButton('Next page').click();
    await page.waitForURL('**/admin/users?search=pager&page=2');
    await expect.poll(range).toBe(`Showing 21–40 of ${TOTAL}`);
    expect((await emails())[0]).toBe(emailOf(21));

    await pageButton('Last page').click();
    await page.waitForURL('**/admin/users?search=pager&page=3');
    await expect.poll(range).toBe(`Showing 41–45 of ${TOTAL}`);
    expect(await emails()).toEqual([41, 42, 43, 44, 45].map(emailOf));
    expect(await pageButton('Next page').isDisabled()).toBe(true);
    expect(await pageButton('Last page').isDisabled()).toBe(true);
  });

  it('changes the page size and starts again from page 1', async () => {
    await page.getByLabel('Per page').selectOption('50');
    await page.waitForURL('**/admin/users?search=pager&size=50');
    await expect.poll(range).toBe(`Showing 1–45 of ${TOTAL}`);
    expect(await page.locator('tbody tr').count()).toBe(TOTAL);
    expect(await page.locator('.position').textContent()).toBe('Page 1 of 1');
  });

  it('goes back and forward through the history, and a reload keeps the place', async () => {
    await page.goBack();
    await page.waitForURL('**/admin/users?search=pager&page=3');
    await expect.poll(range).toBe(`Showing 41–45 of ${TOTAL}`);
    expect(await page.getByLabel('Per page').inputValue()).toBe('20');

    await page.goBack();
    await page.waitForURL('**/admin/users?search=pager&page=2');
    await expect.poll(range).toBe(`Showing 21–40 of ${TOTAL}`);

    await page.goForward();
    await page.waitForURL('**/admin/users?search=pager&page=3');
    await expect.poll(range).toBe(`Showing 41–45 of ${TOTAL}`);

    await page.reload();
    await expect.poll(range).toBe(`Showing 41–45 of ${TOTAL}`);
    expect(await page.getByLabel('Search by email').inputValue()).toBe('pager');
  });

  it('shows a clear empty state when nothing matches', async () => {
    await page.getByLabel('Search by email').fill('nobody-matches-this');
    await page.getByText('No users match “nobody-matches-this”.').waitFor();
    expect(await page.locator('table').isVisible()).toBe(false);
  });

  it('shows a newly created user where it lands: the last page of the unfiltered list', async () => {
    await page.goto('/admin/users?search=pager&page=1');
    await expect.poll(range).toBe(`Showing 1–20 of ${TOTAL}`);
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('dialog', { name: 'New user' });
    await form.getByLabel('Email', { exact: true }).fill('newest@example.com');
    await form.getByLabel('Password', { exact: true }).fill('long enough');
    await form.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL('**/admin/users?page=3');
    await expect.poll(emails).toContain('newest@example.com');
  });
});
