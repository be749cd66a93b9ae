import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, jsonInit } from '@uas/adapters-http/testing';
import { createUser, loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp-test-server';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';
import { delay, ServerProcesses } from '../../../../scripts/release-process';
import { eventually } from '../support/eventually';

/** Accounts asked about in the burst, and as many addresses no account has. */
const KNOWN = 30;
const UNKNOWN = 30;

/**
 * A recover answered 202 is a promise that the message goes out: the request is in the database
 * before the answer, and whatever a killed instance held (a claimed request, a message being
 * sent) is taken over after its lease. Counted against a real SMTP server.
 */
describe.each(BACKENDS)('recover requests survive kill -9 on %s', { timeout: 240_000 }, (backend) => {
  const servers = new ServerProcesses();
  let smtp: TestSmtpServer | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await servers.cleanup();
    await smtp?.stop();
    for (const cleanup of cleanups) await cleanup();
  });

  it(`every one of ${KNOWN} recovery messages asked for in a burst (with ${UNKNOWN} unknown addresses) is delivered once after a kill -9 and a restart`, async () => {
    smtp = await startTestSmtpServer();
    const dir = await servers.tempDir();
    const database = await testDatabaseEnv(backend, dir);
    cleanups.push(() => database.remove());
    const env = {
      ...database.env,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      BCRYPT_COST: '4',
      SMTP_URL: smtp.url().href,
      MAIL_FROM: 'Accounts <no-reply@accounts.example.com>',
      // The burst comes from one address: the per-address limit is not what this counts.
      MAIL_REQUESTS_PER_MINUTE: '100000',
    };
    const first = await servers.start(env);
    const { accessToken } = await loginAsAdmin(first, await readAdminKeyFile(env.ADMIN_KEY_PATH));
    const known = Array.from({ length: KNOWN }, (_, n) => `crash${n}@example.com`);
    for (const email of known) {
      expect((await createUser(first, accessToken, { email, password: 'the old password' })).status).toBe(201);
    }
    const asked = [...known, ...Array.from({ length: UNKNOWN }, (_, n) => `nobody${n}@example.com`)];
    const statuses = await Promise.all(
      asked.map((email) => first.fetch('/v1/recover', jsonInit('POST', { email })).then((response) => response.status)),
    );
    expect(statuses).toEqual(asked.map(() => 202));
    expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    const deliveredBeforeRestart = smtp.received.length;

    const second = await servers.start(env);
    // A claim or a message the killed process held is taken over when its lease ends (up to a minute).
    await eventually(() => smtp!.received.length >= KNOWN, 150_000).catch(async (error) => {
      // Say what the outbox holds, to tell a lost request from a message still waiting.
      const { accessToken: token } = await loginAsAdmin(second, await readAdminKeyFile(env.ADMIN_KEY_PATH));
      const outbox = await second.fetch('/v1/admin/mail?page[size]=100', { headers: bearer(token) });
      throw new Error(`${smtp!.received.length} delivered of ${KNOWN}; the outbox: ${await outbox.text()}`, {
        cause: error,
      });
    });
    await delay(3_000); // long enough for a second delivery of anything to show
    const recipients = smtp.received.map((mail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : ''));
    const counts = { asked: asked.length, deliveredBeforeRestart, delivered: recipients.length };
    expect(counts.delivered, JSON.stringify(counts)).toBe(KNOWN);
    expect([...new Set(recipients)].sort()).toEqual([...known].sort()); // none lost, none twice, none unknown
    expect(smtp.received.every((mail) => /\/account\/reset-password\?token=[\w-]{16,}/.test(mail.text ?? ''))).toBe(
      true,
    );
    console.info(`recover burst on ${backend}, kill -9, restart: ${JSON.stringify(counts)}`);
  });
});
