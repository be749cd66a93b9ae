import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import type { PanelServer } from './panel-server';

/**
 * The TOTP code of the authenticator app paired with `secret`, `steps` 30-second steps from now.
 * A code is accepted once per factor, so a second sign-in in the same step uses the next step's
 * (the server allows one step of drift).
 */
export const totpCode = (secret: string, steps = 0): string =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Enters the admin's email and password on the login page; what comes next is the test's. */
export async function enterPassword(page: Page, server: PanelServer): Promise<void> {
  await page.goto('/admin/users');
  await page.waitForURL('**/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(server.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Pairs an authenticator app on the Security page (open); answers its secret and the recovery codes shown. */
export async function pairAuthenticatorApp(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: 'Add an authenticator app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
  const secret = (await dialog.locator('.totp-secret').textContent()) ?? '';
  await dialog.getByLabel('Code from the app').fill(totpCode(secret));
  await dialog.getByRole('button', { name: 'Verify' }).click();
  const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
  await codes.waitFor();
  const recoveryCodes = await codes.getByRole('listitem').allTextContents();
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await codes.waitFor({ state: 'detached' });
  return { secret, recoveryCodes };
}

/** Signs out through the top bar and waits for the login page. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/admin/login');
}
