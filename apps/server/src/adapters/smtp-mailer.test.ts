import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailDeliveryError, type OutgoingMail } from '@uas/domain';
import { SMTP_PASSWORD, startTestSmtpServer, type TestSmtpServer } from '../../test/support/smtp-test-server';
import { SmtpMailer } from './smtp-mailer';

const mail: OutgoingMail = {
  id: '30000000-0000-4000-8000-000000000001',
  to: 'ann@example.com',
  subject: 'Verify your address',
  text: 'Open https://accounts.example.com/verify?token=abc&x=1',
  html: '<p><a href="https://accounts.example.com/verify?token=abc&amp;x=1">Verify</a></p>',
};

async function failureOf(promise: Promise<unknown>): Promise<MailDeliveryError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  return error as MailDeliveryError;
}

describe('SmtpMailer over a real SMTP server', () => {
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startTestSmtpServer();
  });
  const made: SmtpMailer[] = [];
  afterEach(async () => {
    for (const each of made.splice(0)) each.close(); // its pooled connections, so the server can stop
    await smtp.stop();
  });

  const mailer = (password?: string) => {
    const one = new SmtpMailer({ url: smtp.url(password), from: 'Accounts <no-reply@accounts.example.com>' });
    made.push(one);
    return one;
  };

  it('delivers the text and HTML parts, from MAIL_FROM, with the message id as Message-ID', async () => {
    await mailer().check();
    await mailer().deliver(mail);
    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    expect(received?.from?.value).toEqual([{ name: 'Accounts', address: 'no-reply@accounts.example.com' }]);
    expect(received?.to && 'text' in received.to ? received.to.text : null).toBe('ann@example.com');
    expect(received?.subject).toBe(mail.subject);
    expect(received?.text?.trim()).toBe(mail.text);
    expect(received?.html).toContain('href="https://accounts.example.com/verify?token=abc&amp;x=1"');
    expect(received?.messageId).toBe(`<${mail.id}@accounts.example.com>`);
  });

  it.each([
    [550, 'No such user', 'permanent'],
    [452, 'Mailbox full, try later', 'transient'],
    [421, 'Closing, try later', 'unreachable'],
  ] as const)('a recipient refused with %i (%s) is a %s failure', async (code, text, failure) => {
    smtp.refusals.set(mail.to, { code, text });
    const error = await failureOf(mailer().deliver(mail));
    expect(error.failure).toBe(failure);
    expect(error.message).toContain(text);
    expect(smtp.received).toHaveLength(0);
  });

  it('a server that is down is unreachable, for deliveries and checks, until it is back', async () => {
    await smtp.stop();
    expect((await failureOf(mailer().deliver(mail))).failure).toBe('unreachable');
    expect((await failureOf(mailer().check())).failure).toBe('unreachable');
    await smtp.start();
    await mailer().check();
    await mailer().deliver(mail);
    expect(smtp.received).toHaveLength(1);
  });

  it('refused credentials make the server unreachable for every message, and the password is never told', async () => {
    const wrong = `${SMTP_PASSWORD}-wrong`;
    // One at a time: a second rejection, started alongside, would go unhandled until its turn.
    for (const attempt of [() => mailer(wrong).deliver(mail), () => mailer(wrong).check()]) {
      const error = await failureOf(attempt());
      expect(error.failure).toBe('unreachable');
      expect(error.message).toContain('Authentication failed for ***');
      expect(`${error.message} ${error.stack}`).not.toContain(wrong);
      expect(`${error.message} ${error.stack}`).not.toContain(SMTP_PASSWORD);
    }
  });
});
