import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { MailedLinks } from '../support/mailed-links';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const APP_URL = 'https://app.example.com/signed-in';
const PASSWORD = 'first-password-1';
let publicUrl = '';

// Links are built on PUBLIC_URL: the server's own address here, on a port chosen before it starts.
const stack = useStack(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  return { PORT: String(port), PUBLIC_URL: publicUrl, APP_URL, EMAIL_VERIFICATION: 'required' };
});

let mail: MailedLinks;
beforeAll(async () => {
  mail = await MailedLinks.open(stack().server);
});

/**
 * What every page must give a keyboard and a screen reader: the language, one level-1 heading,
 * a label bound to every field, a name on every button, and the fields then the button in the
 * tab order. Also the headers that keep the token here.
 */
async function expectAccessiblePage(page: Page, heading: string, tabOrder: readonly string[]) {
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('input:not([type="hidden"]), button')]
      .filter((element) =>
        element instanceof HTMLInputElement ? element.labels?.length !== 1 : !element.textContent?.trim(),
      )
      .map((element) => element.outerHTML),
  );
  expect(unnamed).toEqual([]);
  const reached: string[] = [];
  for (const _stop of tabOrder) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || ''));
  }
  expect(reached).toEqual(tabOrder);
}

/** Opens a mailed link as its reader would: the page, its status and the headers that matter. */
async function open(page: Page, link: string) {
  const response = await page.goto(link);
  const headers = response?.headers() ?? {};
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  return response?.status();
}

async function expectDone(page: Page, heading: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(APP_URL);
}

describe('the account pages, opened from the mail in Chromium', () => {
  const panel = usePanel(stack, 'each');

  it('verify: a scanner opens the link first; the user still verifies with it, then logs in; the link is spent', async () => {
    const email = 'vera@example.com';
    expect(await mail.signUp(email, PASSWORD)).toBe(202);
    const link = await mail.link(email, 'verification');
    expect(link.startsWith(`${publicUrl}/account/verify?token=`)).toBe(true);
    expect([await mail.scan(link), await mail.scan(link)]).toEqual([200, 200]);
    expect((await mail.login(email, PASSWORD)).status).toBe(403);

    const { page } = panel;
    expect(await open(page, link)).toBe(200);
    await expectAccessiblePage(page, 'Verify your email address', ['Verify email address']);
    await page.keyboard.press('Enter');
    await expectDone(page, 'Email address verified');
    expect((await mail.login(email, PASSWORD)).status).toBe(200);

    expect(await open(page, link)).toBe(200);
    await page.getByRole('button', { name: 'Verify email address' }).click();
    await page.getByRole('alert').filter({ hasText: 'This link is invalid' }).waitFor();
    expect(await page.title()).toMatch(/^Error: /);
  });

  it('confirm-email: the link mailed to the new address moves the account there', async () => {
    const email = 'carl@example.com';
    const newEmail = 'carl.new@example.com';
    await stack().api.createUser({ email, password: PASSWORD });
    const { token } = await mail.login(email, PASSWORD);
    expect(await mail.changeEmail(String(token), newEmail, PASSWORD)).toBe(202);
    const link = await mail.link(newEmail, 'email_change');
    expect(link.startsWith(`${publicUrl}/account/confirm-email?token=`)).toBe(true);
    expect(await mail.scan(link)).toBe(200);

    const { page } = panel;
    expect(await open(page, link)).toBe(200);
    await expectAccessiblePage(page, 'Confirm your new email address', ['Confirm new email address']);
    await page.getByRole('button', { name: 'Confirm new email address' }).click();
    await expectDone(page, 'Email address changed');
    expect((await mail.login(newEmail, PASSWORD)).status).toBe(200);
  });

  it('a link with a mangled token says so at once, with no form', async () => {
    const { page } = panel;
    expect(await open(page, `${publicUrl}/account/verify?token=%22%3E%3Cscript%3Ealert(1)%3C/script%3E`)).toBe(400);
    await page.getByRole('alert').filter({ hasText: 'This link is invalid' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Go to the application' }).getAttribute('href')).toBe(APP_URL);
  });
});
