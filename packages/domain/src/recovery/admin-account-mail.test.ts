import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { EmailAlreadyVerifiedError, NotFoundError } from '../shared/errors.ts';
import { buildDomain, PUBLIC_URL, rejectionOf, type Domain } from '../testing/domain-fixture.ts';

const ADMIN_BY: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-00000000ad01' },
  request: { requestId: 'req-9', clientAddress: '198.51.100.4', userAgent: 'panel' },
};
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';

describe('AdminAccountMail', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });
  const outbox = async () => (await domain.mail.list({ page: 1, size: 100 })).messages;
  const events = async (action: 'user.recovery_sent' | 'user.verification_resent') =>
    (await domain.repositories.audit.list({ page: 1, size: 100, action })).events;

  it('sendRecovery(mail) queues a recovery link to the user, audited with the admin', async () => {
    const user = await domain.createUser();
    expect(await domain.adminAccountMail.sendRecovery(user.id, 'mail', ADMIN_BY)).toBeNull();
    expect(await outbox()).toMatchObject([{ kind: 'recovery', recipient: user.email }]);
    expect(await events('user.recovery_sent')).toMatchObject([{ actor: ADMIN_BY.actor, target: { id: user.id } }]);
  });

  it('sendRecovery(link) answers a working link and mails nothing; the event holds no link', async () => {
    const user = await domain.createUser();
    const link = await domain.adminAccountMail.sendRecovery(user.id, 'link', ADMIN_BY);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}account/reset-password\\?token=`));
    expect(await outbox()).toEqual([]);
    const token = new URL(link!).searchParams.get('token')!;
    expect(JSON.stringify(await events('user.recovery_sent'))).not.toContain(token);
    await domain.recovery.reset(token, 'a brand new password');
  });

  it('resendVerification() mails an unverified user; a verified one → EmailAlreadyVerifiedError', async () => {
    const unverified = await domain.createUser({ emailVerified: false });
    await domain.adminAccountMail.resendVerification(unverified.id, ADMIN_BY);
    expect(await outbox()).toMatchObject([{ kind: 'verification', recipient: unverified.email }]);
    expect(await events('user.verification_resent')).toHaveLength(1);
    const verified = await domain.createUser();
    await rejectionOf(domain.adminAccountMail.resendVerification(verified.id, ADMIN_BY), EmailAlreadyVerifiedError);
  });

  it('an unknown user → NotFoundError', async () => {
    await rejectionOf(domain.adminAccountMail.sendRecovery(UNKNOWN, 'mail', ADMIN_BY), NotFoundError);
    await rejectionOf(domain.adminAccountMail.resendVerification(UNKNOWN, ADMIN_BY), NotFoundError);
  });

  it('a second recovery mail within a minute is skipped by the send limit, and still audited', async () => {
    const user = await domain.createUser();
    await domain.adminAccountMail.sendRecovery(user.id, 'mail', ADMIN_BY);
    await domain.adminAccountMail.sendRecovery(user.id, 'mail', ADMIN_BY);
    expect(await outbox()).toHaveLength(1);
    expect(await events('user.recovery_sent')).toHaveLength(2);
  });
});
