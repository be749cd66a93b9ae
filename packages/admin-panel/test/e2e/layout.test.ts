import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const LONG_NAME = `${'W'.repeat(100)} ${'long name '.repeat(9)}`.trim();
const LONG_EMAIL = `${'a'.repeat(60)}@${'b'.repeat(60)}.example.com`;

/** Whether the page scrolls sideways: content wider than the window. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('layout with the longest names and emails the API accepts', () => {
  const panel = usePanel(stack, 'each');
  beforeAll(async () => {
    await stack().api.createUser({ name: LONG_NAME, email: LONG_EMAIL, password: 'long enough' });
  });

  it.each([
    ['a laptop', 1280, 800],
    ['a phone', 390, 844],
  ])('keeps the table, its buttons and the delete dialog within %s screen', async (_, width, height) => {
    const { page } = panel;
    await page.setViewportSize({ width, height });
    await signIn(page, stack().server, '/admin/users?search=bbbb');

    // On a phone the rows are cards, no longer table cells: find the row by its text.
    await page.locator('tbody tr', { hasText: LONG_EMAIL }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    const remove = page.getByRole('button', { name: `Delete ${LONG_EMAIL}` });
    const box = await remove.boundingBox();
    expect(box && box.x + box.width <= width).toBe(true);

    await remove.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const overflow = await dialog.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(overflow).toBe(false);
    await page.keyboard.press('Escape');
  });
});
