import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  buildDomain,
  issueSources,
  PASSWORD,
  PUBLIC_URL,
  rejectionOf,
  type Domain,
} from '../testing/domain-fixture.ts';
import { TEST_TOKEN_LIFETIMES } from '../testing/in-memory-action-tokens.ts';
import { EmailTakenError, InvalidActionTokenError, InvalidCredentialsError, NotFoundError } from '../shared/errors.ts';
import type { Initiator } from '../audit/audit-event.ts';
import type { MailService } from '../mail/mail-service.ts';
import type { InvitationService } from './invitation-service.ts';

const ADMIN_ID = '99999999-0000-4000-8000-000000000001';
const BY_ADMIN: Initiator = {
  actor: { type: 'admin', id: ADMIN_ID },
  request: { requestId: 'req-1', clientAddress: '203.0.113.9', userAgent: null },
};

describe('InvitationService', () => {
  let domain: Domain;
  let mail: MailService;
  let invitations: InvitationService;
  beforeEach(() => {
    domain = buildDomain();
    mail = domain.mail;
    invitations = domain.invitations;
  });

  /** The link of the newest message in the outbox, and its token. */
  async function lastLink(): Promise<{ link: string; token: string }> {
    const [newest] = (await mail.list({ page: 1, size: 1 })).messages;
    const text = (await mail.read(newest!.id)).content!.text;
    const link = /https:\S+/.exec(text)![0];
    return { link, token: new URL(link).searchParams.get('token')! };
  }

  const refusedLogin = (email: string, password: string) =>
    rejectionOf(domain.userLogin(email, password, '203.0.113.7'), InvalidCredentialsError);

  it('invite() makes a closed, unverified account and mails a link to the accept-invitation page', async () => {
    const invited = await invitations.invite(
      { email: ' Ann@Example.com ', name: 'Ann', app: { plan: 'pro' } },
      BY_ADMIN,
    );
    expect(invited).toMatchObject({ email: 'ann@example.com', name: 'Ann', invitedBy: ADMIN_ID, accepted: null });
    expect(invited.expires).toEqual(new Date(invited.created.getTime() + TEST_TOKEN_LIFETIMES.invitation * 1000));
    const user = await domain.users.get(invited.userId);
    expect(user).toMatchObject({ email: 'ann@example.com', emailVerified: null, active: 1, app: { plan: 'pro' } });
    const { link } = await lastLink();
    expect(link.startsWith(`${PUBLIC_URL}account/accept-invitation?token=`)).toBe(true);
    const [message] = (await mail.list({ page: 1, size: 1 })).messages;
    expect(message).toMatchObject({ kind: 'invitation', recipient: 'ann@example.com' });
  });

  it('an invited user cannot log in: refused as a wrong password is, whatever the password', async () => {
    await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    for (const password of ['!', '', PASSWORD, 'anything at all']) await refusedLogin('ann@example.com', password);
  });

  it('refusing an invited user costs what refusing a wrong password costs: one hash verified, the same error', async () => {
    await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    await domain.createUser({ email: 'bob@example.com' });
    const verify = domain.hasher.verify.bind(domain.hasher);
    let verified = 0;
    domain.hasher.verify = (password, hash) => {
      verified += 1;
      return verify(password, hash);
    };
    const invited = await refusedLogin('ann@example.com', PASSWORD);
    const invitedVerifies = verified;
    const wrong = await refusedLogin('bob@example.com', 'not the password');
    expect([invitedVerifies, verified - invitedVerifies]).toEqual([1, 1]);
    expect(invited.message).toBe(wrong.message);
  });

  it('invite() refuses an address that has an account, and a missing or bad one', async () => {
    await domain.createUser({ email: 'taken@example.com' });
    await rejectionOf(invitations.invite({ email: 'TAKEN@example.com' }, BY_ADMIN), EmailTakenError);
    expect(await issueSources(invitations.invite({} as never, BY_ADMIN))).toEqual([
      { pointer: '/data/attributes/email' },
    ]);
    expect(await issueSources(invitations.invite({ email: 'not an address', name: 'x'.repeat(201) }))).toEqual([
      { pointer: '/data/attributes/name' },
      { pointer: '/data/attributes/email' },
    ]);
    expect((await invitations.list({ page: 1, size: 10 })).total).toBe(0);
  });

  it('accept() sets the password, verifies the address, and the invitation is no longer pending', async () => {
    const invited = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    const { token } = await lastLink();
    domain.clock.advance(60);
    await invitations.accept(token, 'a good new password');
    const { grant } = await domain.logIn(domain.userAuth, 'ann@example.com', 'a good new password');
    expect(grant.principal.id).toBe(invited.userId);
    expect(await domain.users.get(invited.userId)).toMatchObject({ emailVerified: domain.clock.now() });
    expect(await invitations.list({ page: 1, size: 10 })).toEqual({ invitations: [], total: 0 });
    await rejectionOf(invitations.accept(token, 'another password'), InvalidActionTokenError);
  });

  it('accept() checks the password before the token: a refused password leaves the link usable', async () => {
    await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    const { token } = await lastLink();
    expect(await issueSources(invitations.accept(token, 'short'))).toEqual([{ pointer: '/password' }]);
    expect(await issueSources(invitations.accept(token, 42))).toEqual([{ pointer: '/password' }]);
    await invitations.accept(token, 'a good new password');
  });

  it('accept() answers a wrong, expired, revoked or resent-over token with one error', async () => {
    const expiring = await invitations.invite({ email: 'a@example.com' }, BY_ADMIN);
    const expiringToken = (await lastLink()).token;
    const revoked = await invitations.invite({ email: 'b@example.com' }, BY_ADMIN);
    const revokedToken = (await lastLink()).token;
    const resent = await invitations.invite({ email: 'c@example.com' }, BY_ADMIN);
    const oldToken = (await lastLink()).token;
    await invitations.resend(resent.id, BY_ADMIN);
    const newToken = (await lastLink()).token;
    await invitations.revoke(revoked.id, BY_ADMIN);
    domain.clock.advance(TEST_TOKEN_LIFETIMES.invitation - 1);
    await invitations.resend(resent.id, BY_ADMIN);
    const freshest = (await lastLink()).token;
    domain.clock.advance(1);
    const messages = await Promise.all(
      [expiringToken, revokedToken, oldToken, newToken, 'test-token-99999999', undefined].map(
        async (token) =>
          (await rejectionOf(invitations.accept(token, 'a good new password'), InvalidActionTokenError)).message,
      ),
    );
    expect(new Set(messages).size).toBe(1);
    await invitations.accept(freshest, 'a good new password');
    expect((await invitations.list({ page: 1, size: 10 })).invitations.map((i) => i.id)).toEqual([expiring.id]);
  });

  it('revoke() removes the invitation and its user; then it is not found', async () => {
    const invited = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    await invitations.revoke(invited.id, BY_ADMIN);
    await rejectionOf(domain.users.get(invited.userId), NotFoundError);
    await rejectionOf(invitations.revoke(invited.id, BY_ADMIN), NotFoundError);
    await rejectionOf(invitations.resend(invited.id, BY_ADMIN), NotFoundError);
    // The address is free again.
    await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
  });

  it('revoke() keeps a user an admin gave a password meanwhile, and an accepted invitation cannot be revoked', async () => {
    const first = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    await domain.users.update(first.userId, { password: 'set by the admin' });
    await invitations.revoke(first.id, BY_ADMIN);
    expect(await domain.users.get(first.userId)).toMatchObject({ email: 'ann@example.com' });
    const second = await invitations.invite({ email: 'bob@example.com' }, BY_ADMIN);
    await invitations.accept((await lastLink()).token, 'a good new password');
    await rejectionOf(invitations.revoke(second.id, BY_ADMIN), NotFoundError);
    expect(await domain.users.get(second.userId)).toMatchObject({ email: 'bob@example.com' });
  });

  it('an admin may resend at once, and again: neither the per-address limit nor the budget drops an invitation', async () => {
    domain = buildDomain({
      mailLimits: { accountMail: { hourlyLimit: 2, securityNotices: true }, requestsPerMinute: 5 },
    });
    ({ mail, invitations } = domain);
    const invited = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    for (let i = 0; i < 3; i += 1) await invitations.resend(invited.id, BY_ADMIN);
    expect((await mail.list({ page: 1, size: 10 })).total).toBe(4);
    await invitations.accept((await lastLink()).token, 'a good new password');
  });

  it('resend() mails a new link that works, and moves the expiry', async () => {
    const invited = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    domain.clock.advance(3600);
    const resent = await invitations.resend(invited.id, BY_ADMIN);
    expect(resent.sent).toEqual(domain.clock.now());
    expect(resent.expires.getTime()).toBe(invited.expires.getTime() + 3600 * 1000);
    await invitations.accept((await lastLink()).token, 'a good new password');
  });

  it('lists pending invitations oldest first, a page at a time', async () => {
    const made = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(await invitations.invite({ email: `p${i}@example.com` }, BY_ADMIN));
      domain.clock.advance(1);
    }
    const page = await invitations.list({ page: 2, size: 2 });
    expect(page.total).toBe(5);
    expect(page.invitations.map((i) => i.email)).toEqual(['p2@example.com', 'p3@example.com']);
  });

  it('records created, resent, revoked and accepted events, never the token', async () => {
    const invited = await invitations.invite({ email: 'ann@example.com' }, BY_ADMIN);
    await invitations.resend(invited.id, BY_ADMIN);
    const { token } = await lastLink();
    await invitations.accept(token, 'a good new password');
    const other = await invitations.invite({ email: 'bob@example.com' }, BY_ADMIN);
    const otherToken = (await lastLink()).token;
    await invitations.revoke(other.id, BY_ADMIN);
    const events = domain.repositories.audit.events.filter((event) => event.action.startsWith('invitation.'));
    expect(events.map((event) => [event.action, event.target?.id, event.actor])).toEqual([
      ['invitation.created', invited.id, BY_ADMIN.actor],
      ['invitation.resent', invited.id, BY_ADMIN.actor],
      ['invitation.accepted', invited.id, { type: 'user', id: invited.userId }],
      ['invitation.created', other.id, BY_ADMIN.actor],
      ['invitation.revoked', other.id, BY_ADMIN.actor],
    ]);
    const serialised = JSON.stringify(domain.repositories.audit.events);
    expect(serialised).not.toContain(token);
    expect(serialised).not.toContain(otherToken);
    expect(serialised).not.toContain('a good new password');
  });

  it('of concurrent acceptances of one link exactly one succeeds, round after round', async () => {
    const winners: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      await invitations.invite({ email: `race${round}@example.com` }, BY_ADMIN);
      const { token } = await lastLink();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => invitations.accept(token, 'a good new password')),
      );
      winners.push(results.filter((result) => result.status === 'fulfilled').length);
    }
    expect(winners).toEqual(Array.from({ length: 20 }, () => 1));
  });
});
