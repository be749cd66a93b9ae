import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { expectAccessible } from '../support/accessibility';
import { MailedLinks } from '../support/mailed-links';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const APP_URL = 'https://app.example.com/signed-in';
const PASSWORD = 'first-password-1';
const NEW_PASSWORD = 'second-password-2';
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
 * What every page must give a keyboard and a screen reader (see `expectAccessible`), and the
 * fields then the button in the tab order.
 */
async function expectAccessiblePage(page: Page, heading: string, tabOrder: readonly string[]) {
  await expectAccessible(page, heading);
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

/** The error announced for a field: its text, tied to the field by aria-describedby, and the focus on it. */
async function fieldError(page: Page, id: string) {
  const field = page.locator(`#${id}`);
  const describedBy = await field.getAttribute('aria-describedby');
  return {
    text: await page.locator(`#${describedBy}[role="alert"]`).textContent(),
    invalid: await field.getAttribute('aria-invalid'),
    focused: await page.evaluate(() => document.activeElement?.id),
  };
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

  it('reset-password: a scanner opens the link first; the user sets a new password with it, the old one stops working', async () => {
    const email = 'rosa@example.com';
    await stack().api.createUser({ email, password: PASSWORD });
    expect(await mail.recover(email)).toBe(202);
    const link = await mail.link(email, 'recovery');
    expect(link.startsWith(`${publicUrl}/account/reset-password?token=`)).toBe(true);
    expect([await mail.scan(link), await mail.scan(link)]).toEqual([200, 200]);

    const { page } = panel;
    expect(await open(page, link)).toBe(200);
    await expectAccessiblePage(page, 'Choose a new password', ['password', 'confirmation', 'Set new password']);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.keyboard.press('Enter');
    await expectDone(page, 'Password changed');
    expect((await mail.login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await mail.login(email, PASSWORD)).status).toBe(401);
  });

  it('accept-invitation: two different passwords, then a short one, each announced on its field; then the invitee logs in', async () => {
    const email = 'ines@example.com';
    expect(await mail.invite(email)).toBe(201);
    const link = await mail.link(email, 'invitation');
    expect(link.startsWith(`${publicUrl}/account/accept-invitation?token=`)).toBe(true);
    expect(await mail.scan(link)).toBe(200);

    const { page } = panel;
    expect(await open(page, link)).toBe(200);
    await expectAccessiblePage(page, 'Accept your invitation', ['password', 'confirmation', 'Accept invitation']);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.title()).toMatch(/^Error: Accept your invitation/);
    expect(await fieldError(page, 'confirmation')).toEqual({
      text: 'The two passwords are not the same.',
      invalid: 'true',
      focused: 'confirmation',
    });

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'The password must be' }).waitFor();
    expect(await fieldError(page, 'password')).toEqual({
      text: 'The password must be at least 8 bytes long.',
      invalid: 'true',
      focused: 'password',
    });

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expectDone(page, 'Invitation accepted');
    expect((await mail.login(email, NEW_PASSWORD)).status).toBe(200);
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
