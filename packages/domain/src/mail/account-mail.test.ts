import { describe, expect, it } from '../testing/test-api.ts';
import { buildDomain } from '../testing/domain-fixture.ts';
import { DEFAULT_MAIL_LIMITS } from '../use-cases.ts';
import type { MailKind } from './mail-message.ts';

const EMAIL = 'owner@example.com';

describe('AccountMail', () => {
  const withPolicy = (hourlyLimit: number, securityNotices = true) =>
    buildDomain({ mailLimits: { ...DEFAULT_MAIL_LIMITS, accountMail: { hourlyLimit, securityNotices } } });
  const admitted = async (domain: ReturnType<typeof buildDomain>, kind: MailKind, recipient = EMAIL) =>
    (await domain.accountMail.admit(kind, recipient)) !== null;

  it('admit() answers a composer that renders and seals the message for the recipient', async () => {
    const domain = withPolicy(10);
    const compose = await domain.accountMail.admit('recovery', EMAIL);
    const mail = await compose!({ email: EMAIL, link: 'https://id.example.com/account/reset-password?token=t' });
    expect(mail).toMatchObject({ kind: 'recovery', recipient: EMAIL });
    expect(JSON.stringify(mail)).not.toContain('token=t');
    expect(domain.logger.entries.filter((entry) => entry.msg === 'mail queued')).toEqual([
      { level: 'info', msg: 'mail queued', fields: { mailId: mail.id, kind: 'recovery' } },
    ]);
    expect(domain.logger.text()).not.toContain('token=t');
    expect(domain.logger.text()).not.toContain(EMAIL);
  });

  it('admits one message of a kind per recipient a minute, silently skipping the others', async () => {
    const domain = withPolicy(100);
    expect(await admitted(domain, 'recovery')).toBe(true);
    domain.clock.advance(59);
    expect(await admitted(domain, 'recovery')).toBe(false);
    expect(await admitted(domain, 'verification')).toBe(true);
    expect(await admitted(domain, 'recovery', 'other@example.com')).toBe(true);
    domain.clock.advance(1);
    expect(await admitted(domain, 'recovery')).toBe(true);
    expect(domain.logger.text()).not.toContain(EMAIL);
  });

  it('admits a retry of a message the limit counted already, as a worker taking over a dead one does', async () => {
    const domain = withPolicy(100);
    expect(await admitted(domain, 'recovery')).toBe(true);
    expect((await domain.accountMail.admit('recovery', EMAIL, { retry: true })) !== null).toBe(true);
  });

  it('skips messages once the hourly budget is spent, warning without the address, until the hour ends', async () => {
    const domain = withPolicy(3);
    const answers = [];
    for (let n = 0; n < 5; n += 1) answers.push(await admitted(domain, 'verification', `u${n}@example.com`));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(domain.logger.entries.filter((entry) => entry.level === 'warn')).toHaveLength(2);
    expect(domain.logger.text()).not.toContain('@example.com');
    domain.clock.advance(3600);
    expect(await admitted(domain, 'verification', 'u9@example.com')).toBe(true);
  });

  it('never drops a security notice, by either limit', async () => {
    const domain = withPolicy(1);
    expect(await admitted(domain, 'verification')).toBe(true);
    expect(await admitted(domain, 'verification', 'other@example.com')).toBe(false);
    for (let n = 0; n < 3; n += 1) {
      expect(await admitted(domain, 'password_changed')).toBe(true);
      expect(await admitted(domain, 'email_change_notice')).toBe(true);
    }
  });

  it('sends no security notice when they are switched off, and still the other kinds', async () => {
    const domain = withPolicy(100, false);
    expect(await admitted(domain, 'password_changed')).toBe(false);
    expect(await admitted(domain, 'email_change_notice')).toBe(false);
    expect(await admitted(domain, 'recovery')).toBe(true);
  });
});
