import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserResource } from '@uas/client';
import { signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of the filter form's controls (inputs, selects, buttons) and of the form itself. */
const filterBoxes = (page: Page) =>
  page.getByRole('form', { name: 'Filters' }).evaluate((form) => {
    const box = (element: Element, name: string) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { name, x, y, width, height };
    };
    const controls = [...form.querySelectorAll('input, select, button')].map((control) =>
      box(control, control.getAttribute('name') ?? control.textContent ?? ''),
    );
    return { form: box(form, 'form'), controls };
  });

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

describe('the audit page', () => {
  const panel = usePanel(stack, 'file');
  let ada: UserResource;

  beforeAll(async () => {
    ada = await stack().api.createUser({ email: 'ada@example.com', password: 'correct horse battery' });
    await stack().api.createUser({ email: 'bob@example.com', password: 'correct horse battery' });
    await signIn(panel.page, stack().server);
  });

  it.each([1024, 1280, 1440, 390])('lays out its filters at %i px wide with no control over another', async (width) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();

    const { form, controls } = await filterBoxes(page);
    expect(controls.map((control) => control.name)).toEqual(
      expect.arrayContaining(['target', 'actor', 'action', 'since', 'until']),
    );
    for (const control of controls) expect(inside(control, form), `${control.name} leaves the form`).toBe(true);
    const overlapping = controls.flatMap((a, i) =>
      controls.slice(i + 1).flatMap((b) => (overlap(a, b) ? [`${a.name} over ${b.name}`] : [])),
    );
    expect(overlapping).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });

  it('picks the actor and the target by email, keeps their ids in the URL and shows their events', async () => {
    const { page } = panel;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();

    await page.getByLabel('Actor').fill(stack().server.admin.email.toUpperCase());
    await page.getByLabel('Target').fill('ada@example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/admin\/audit\?target=/);
    const url = new URL(page.url());
    expect(url.searchParams.get('target')).toBe(ada.id);
    expect(url.searchParams.get('actor')).toMatch(/^[0-9a-f-]{36}$/);
    // The unfiltered table may still be on screen until the filtered page arrives.
    const rows = page.locator('.audit-table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().textContent()).toContain('user.created');
    // The fields still show what was typed, not the ids it stood for.
    expect(await page.getByLabel('Target').inputValue()).toBe('ada@example.com');

    await page.getByLabel('Target').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No admin or user has this email.').waitFor();
    expect(new URL(page.url()).searchParams.get('target')).toBe(ada.id);
  });

  it('suggests emails as the actor is typed', async () => {
    const { page } = panel;
    await page.getByLabel('Actor').fill('bo');
    const list = page.locator(`datalist#${await page.getByLabel('Actor').getAttribute('list')}`);
    await expect
      .poll(() => list.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
      .toEqual(['bob@example.com']);
  });
});
