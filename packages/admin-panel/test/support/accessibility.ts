import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What every server-rendered page gives a keyboard and a screen reader: the language, one level-1
 * heading (`heading`), a label bound to every field and a name on every button.
 */
export async function expectAccessible(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('input:not([type="hidden"]), button')]
      .filter((element) =>
        element instanceof HTMLInputElement ? element.labels?.length !== 1 : !element.textContent?.trim(),
      )
      .map((element) => element.outerHTML),
  );
  expect(unnamed).toEqual([]);
}
