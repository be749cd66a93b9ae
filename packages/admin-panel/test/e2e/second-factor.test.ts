import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { responseTo, saveScreenshot } from '../support/browser';
import { usePanel } from '../support/panel';
import { enterPassword, logOut, pairAuthenticatorApp, totpCode } from '../support/second-factor';
import { useStack } from '../support/stack';
import { addVirtualAuthenticator } from '../support/virtual-authenticator';

// WebAuthn needs a domain for its relying party: the panel is opened as localhost, which
// PUBLIC_URL names, so the server's RP id and origin (their defaults) match the page's.
let publicUrl = '';
const stack = useStack(async () => {
  const port = await freePort();
  publicUrl = `http://localhost:${port}`;
  return { PORT: String(port), PUBLIC_URL: publicUrl };
});

let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;
// One page for the file: the virtual authenticator (and the passkey it holds) lives with it.
// The tests run in order, on the one admin of the server.
const panel = usePanel(stack, 'file', {
  origin: () => publicUrl,
  prepare: async ({ page }) => {
    authenticator = await addVirtualAuthenticator(page);
  },
});

describe("the admin's second factor in the panel", () => {
  let page: Page;
  let secret = '';
  let firstCodes: string[] = [];
  beforeEach(() => {
    page = panel.page;
  });

  async function openSecurity(): Promise<void> {
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
  }

  const factorRows = () => page.locator('tr[data-factor-id]');
  /** Signed in: the top bar's way out is there (the page is the one asked for, or the overview). */
  const signedIn = () => page.getByRole('button', { name: 'Log out' }).waitFor();

  it('pairs an authenticator app from its QR code or key and shows the ten recovery codes once', async () => {
    await enterPassword(page, stack().server);
    await signedIn();
    await openSecurity();
    await page.getByText('No second factor yet').waitFor();
    expect(await page.getByText('Recovery codes left: 0').count()).toBe(1);

    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
    const qr = dialog.getByRole('img', { name: /QR code/ });
    // The server's SVG is drawn as an image of a data: URL: it loads under the CSP, and none of it is in the page's DOM.
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.locator('svg').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Escaping leaves a pending factor; pairing again makes another.
    ({ secret, recoveryCodes: firstCodes } = await pairAuthenticatorApp(page));
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(firstCodes).toHaveLength(10);
    expect(new Set(firstCodes).size).toBe(10);

    await page.getByText('Recovery codes left: 10').waitFor();
    const active = factorRows().filter({ hasText: 'Active' });
    expect(await active.count()).toBe(1);
    expect(await active.first().textContent()).toContain('Authenticator app');
    // Shown once: the page, reloaded, lists the factors and a count, neither the key nor a code.
    await page.reload();
    await page.getByText('Recovery codes left: 10').waitFor();
    const content = await page.content();
    expect(content).not.toContain(secret);
    for (const code of firstCodes) expect(content).not.toContain(code);
  });

  it('asks for a proof before adding a second factor in a session signed in with the password alone', async () => {
    // This session's login had no second step, and the account has an active factor now.
    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm a new authenticator app' });
    const code = stepUp.getByLabel('Authentication code');
    await code.fill('not-a-code');
    const refused = responseTo(page, 'POST', '/v1/admin/me/factors');
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    expect((await refused).status()).toBe(401);
    await expect.poll(() => stepUp.getByRole('alert').textContent()).not.toBe('');

    await code.fill(firstCodes[9] ?? '');
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('dialog', { name: 'Add an authenticator app' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('Recovery codes left: 9').waitFor();
  });

  it('asks for the code after the password, refuses a wrong one in words, and signs in with the right one', async () => {
    await logOut(page);
    await enterPassword(page, stack().server);
    await page.getByRole('heading', { name: 'Second step' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');
    expect(await page.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
    await saveScreenshot(page, 'second-step.png');

    const code = page.getByLabel('Authentication code');
    await code.fill(totpCode(secret, -120)); // an hour old
    const wrong = responseTo(page, 'POST', '/v1/admin/login/mfa');
    await code.press('Enter');
    expect((await wrong).status()).toBe(401);
    await expect.poll(() => page.getByRole('alert').textContent()).not.toBe('');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');

    await code.fill(totpCode(secret, 1));
    const right = responseTo(page, 'POST', '/v1/admin/login/mfa');
    await page.getByRole('button', { name: 'Verify' }).click();
    expect((await right).status()).toBe(200);
    await signedIn();
  });

  it('signs in with a recovery code, which then counts as used', async () => {
    await logOut(page);
    await enterPassword(page, stack().server);
    await page.getByLabel('Authentication code').fill(firstCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedIn();
    await openSecurity();
    await page.getByText('Recovery codes left: 8').waitFor();
  });

  it("adds a passkey with the browser's authenticator, then signs in with it after the password and alone", async () => {
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor();
    const passkey = factorRows().filter({ hasText: 'Passkey' });
    await passkey.waitFor();
    expect(await passkey.textContent()).toContain('Active');
    expect(await authenticator.credentialCount()).toBe(1);
    // Not the first factor: no new recovery codes.
    expect(await page.getByRole('dialog', { name: 'Your recovery codes' }).count()).toBe(0);

    await logOut(page);
    await enterPassword(page, stack().server);
    await page.getByRole('heading', { name: 'Second step' }).waitFor();
    const second = responseTo(page, 'POST', '/v1/admin/login/mfa');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    expect((await second).status()).toBe(200);
    await signedIn();

    await logOut(page);
    const alone = responseTo(page, 'POST', '/v1/admin/login/passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    expect((await alone).status()).toBe(200);
    await signedIn();
    await openSecurity();
    await expect.poll(() => passkey.locator('time').count()).toBe(2); // added, and last used
    await saveScreenshot(page, 'security.png');
  });

  it('replaces the recovery codes and removes a factor', async () => {
    await page.getByRole('button', { name: 'New recovery codes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await dialog.waitFor();
    const fresh = await dialog.getByRole('listitem').allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => firstCodes.includes(code))).toEqual([]);
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Recovery codes left: 10').waitFor();

    const app = factorRows().filter({ hasText: 'Authenticator app' }).filter({ hasText: 'Active' });
    await app.getByRole('button', { name: /^Remove the authenticator app/ }).click();
    await page
      .getByRole('dialog', { name: /Remove this authenticator app/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('Authenticator app removed.').waitFor();
    await expect
      .poll(() => factorRows().filter({ hasText: 'Authenticator app' }).filter({ hasText: 'Active' }).count())
      .toBe(0);
  });
});
