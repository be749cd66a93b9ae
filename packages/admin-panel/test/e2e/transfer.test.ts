import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { responseTo, signIn, userRow } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

const stack = useStack();
const ndjson = (...records: object[]) => Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''));

describe('exporting and importing users in the panel', () => {
  const panel = usePanel(stack, 'file');
  let page: Page;
  const dialog = () => page.getByRole('dialog', { name: 'Import users' });

  beforeAll(async () => {
    await stack().api.createUser({
      name: 'Ada',
      email: 'ada@export.example',
      password: 'long enough',
      metadata: { plan: 'pro' },
    });
    await stack().api.createUser({ name: 'Bob', email: 'bob@export.example', password: 'long enough' });
    page = panel.page;
    await signIn(page, stack().server);
  });

  it('Export downloads every user as an NDJSON file, without password hashes', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.ndjson$/);
    const text = await readFile((await file.path())!, 'utf8');
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.email)).toEqual(
      expect.arrayContaining(['ada@export.example', 'bob@export.example']),
    );
    expect(records.find((record) => record.email === 'ada@export.example')).toMatchObject({
      name: 'Ada',
      metadata: { plan: 'pro' },
    });
    expect(text).not.toContain('password_hash');
  });

  it('the Import dialog checks a file in a dry run, then imports it and shows the report', async () => {
    await page.getByRole('button', { name: 'Import…', exact: true }).click();
    const input = ndjson(
      { name: 'Carol', email: 'carol@import.example', password: 'carol-password' },
      { email: 'not-an-email', password: 'long enough' },
      {
        name: 'Dan',
        email: 'dan@import.example',
        password_hash: '$2y$04$xVFWQ0oA6sigoj8A4s1b0OZOf/1zWEntqxyBjFGIuejjXTgThwCuK',
      },
    );
    await dialog()
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'users.ndjson', mimeType: 'application/x-ndjson', buffer: input });
    expect(await dialog().getByLabel('Dry run: check only, write nothing').isChecked()).toBe(true);
    const checked = responseTo(page, 'POST', /\/v1\/admin\/users\/import/);
    await dialog().getByRole('button', { name: 'Import', exact: true }).click();
    expect((await checked).status()).toBe(200);
    const report = dialog().getByRole('status');
    await report.getByText('Dry run: nothing was written').waitFor();
    expect(await report.textContent()).toContain('2 would be created, 0 updated, 0 skipped, 1 rejected.');
    expect(await report.textContent()).toContain('Line 2: email must be a valid email address');
    expect(await stack().api.usersMatching('@import.example')).toEqual([]);

    await dialog().getByLabel('Dry run: check only, write nothing').uncheck();
    await dialog().getByRole('button', { name: 'Import', exact: true }).click();
    await report.getByText('Import finished').waitFor();
    expect(await report.textContent()).toContain('2 were created, 0 updated, 0 skipped, 1 rejected.');
    expect((await stack().api.usersMatching('@import.example')).map((user) => user.attributes.email).sort()).toEqual([
      'carol@import.example',
      'dan@import.example',
    ]);

    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await userRow(page, 'carol@import.example').waitFor();
  });
});
