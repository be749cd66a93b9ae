import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELEASE_DIR } from '../../../../scripts/release-process';
import { signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

// The server and `uas` share one SQLite file, and so one MFA key (the key ring in the database is
// sealed under it); the test template holds a link to follow and two that must stay text.
const dir = mkdtempSync(join(tmpdir(), 'uas-panel-mail-'));
const templates = join(dir, 'templates');
mkdirSync(templates);
writeFileSync(
  join(templates, 'test.txt'),
  'Hello {{recipient}}, verify at https://accounts.example.com/verify?token=abc&x=1.\nNot javascript:alert(1) nor <b>bold</b>.\n',
);
const env = {
  DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
  MAIL_TEMPLATES_DIR: templates,
  MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
};
const stack = useStack(env);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Mail page', () => {
  const panel = usePanel(stack, 'file');

  it('lists a queued message and shows its text with the http(s) link clickable and everything else as text', async () => {
    execFileSync(process.execPath, [join(RELEASE_DIR, 'uas.mjs'), 'mail', 'test', 'ann@example.com'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    const { page } = panel;
    await signIn(page, stack().server);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('heading', { name: 'Mail' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/mail');
    const row = page.locator('tbody tr', { hasText: 'ann@example.com' });
    await row.waitFor();
    expect(await row.locator('.mail-status').textContent()).toBe('queued');

    await row.getByRole('button', { name: 'Show' }).click();
    const text = page.locator('pre.mail-text');
    await text.waitFor();
    expect(await text.textContent()).toContain('Not javascript:alert(1) nor <b>bold</b>.');
    const links = text.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe('https://accounts.example.com/verify?token=abc&x=1');
    expect(await page.locator('pre.mail-text b').count()).toBe(0);
  });
});
