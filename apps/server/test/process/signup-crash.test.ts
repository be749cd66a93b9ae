import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usersDocument, jsonInit } from '@uas/adapters-http/testing';
import { ServerProcesses } from '../../../../scripts/release-process';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp-test-server';
import { eventually } from '../support/eventually';

const SIGNUPS = 30;

/**
 * A sign-up's 202 is a promise that the link will arrive: its account, token and message commit in
 * one transaction, so a crash right after cannot lose the message, and the restarted process
 * delivers it (a message claimed by the dead process is taken over once its lease ends).
 */
describe('sign-up messages survive kill -9 (SQLite, real SMTP server)', { timeout: 150_000 }, () => {
  const servers = new ServerProcesses();
  let smtp: TestSmtpServer | undefined;
  afterAll(async () => {
    await servers.cleanup();
    await smtp?.stop();
  });

  it(`every one of ${SIGNUPS} sign-ups answered 202 gets its verification message after kill -9 and a restart`, async () => {
    smtp = await startTestSmtpServer();
    const dir = await servers.tempDir();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      SMTP_URL: smtp.url().href,
      MAIL_FROM: 'Accounts <no-reply@accounts.example.com>',
      MAIL_REQUESTS_PER_MINUTE: '1000',
    };
    const first = await servers.start(env);
    const emails = Array.from({ length: SIGNUPS }, (_, n) => `crash-${n}@example.com`);
    const statuses = await Promise.all(
      emails.map((email) =>
        first
          .fetch('/v1/signup', jsonInit('POST', usersDocument({ email, password: 'crash password 1' })))
          .then((response) => response.status),
      ),
    );
    expect(statuses).toEqual(emails.map(() => 202));
    expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    const beforeRestart = smtp.received.length;

    const second = await servers.start(env);
    const recipients = () => new Set(smtp!.received.map((mail) => (mail.to && 'text' in mail.to ? mail.to.text : '')));
    // A message the dead process had claimed waits for its lease (a minute) to end.
    await eventually(() => emails.every((email) => recipients().has(email)), 100_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // room for a second delivery to show
    const verifications = smtp.received.filter((mail) => mail.subject === 'Confirm your email address');
    const perRecipient = emails.map(
      (email) => verifications.filter((mail) => mail.to && 'text' in mail.to && mail.to.text === email).length,
    );
    console.info('sign-ups before kill -9:', SIGNUPS, {
      deliveredBeforeKill: beforeRestart,
      deliveredAfterRestart: verifications.length - beforeRestart,
      lost: perRecipient.filter((count) => count === 0).length,
      deliveredTwice: perRecipient.filter((count) => count > 1).length,
    });
    expect(perRecipient.filter((count) => count === 0)).toEqual([]);
    expect(verifications[0]?.text).toMatch(/\/account\/verify\?token=[A-Za-z0-9_-]{22,}/);
    expect(second.stdout).not.toMatch(/token=[A-Za-z0-9_-]{22,}/);
  });
});
