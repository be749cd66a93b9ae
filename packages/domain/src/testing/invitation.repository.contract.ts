import { describe, expect, it } from './test-api.ts';
import type { StoredActionToken } from '../action-tokens/action-token.ts';
import { SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { Invitation } from '../invitations/invitation.ts';
import type { InvitationWrite } from '../invitations/invitation.repository.ts';
import type { Repositories } from '../repositories.ts';
import { EmailTakenError } from '../shared/errors.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import { applyUserPatch } from '../users/user.rules.ts';
import type { User } from '../users/user.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleMail } from './mail-queue.contract.ts';
import { sampleOpenIdRecord } from './openid-samples.ts';
import { sampleUser } from './user.repository.contract.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const ROUNDS = 25;
const RACERS = 6;

let made = 0;
const nextId = (prefix: string) => {
  made += 1;
  return `${prefix}-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};
const event = (action: AuditAction, id: string) =>
  auditRecord(nextId('a0000000'), T0, SYSTEM, action, { type: 'invitations', id });

/** A token of the invitee's, usable for a week from `created`. */
function invitationToken(user: User, created = T0): StoredActionToken {
  const id = nextId('b0000000');
  return {
    id,
    purpose: 'invitation',
    userId: user.id,
    email: user.email,
    created,
    expires: new Date(created.getTime() + 7 * 86_400_000),
    used: null,
    digest: `digest-${id}`,
  };
}

/** Everything an invitation writes, for a fresh user without a password. */
function sampleInvitation(overrides: Partial<User> = {}): InvitationWrite {
  const user = sampleUser({ passwordHash: NO_PASSWORD_HASH, emailVerified: null, ...overrides });
  const token = invitationToken(user);
  const invitation: Invitation = {
    id: nextId('c0000000'),
    userId: user.id,
    invitedBy: null,
    created: user.created,
    sent: user.created,
    expires: token.expires,
    accepted: null,
  };
  made += 1;
  return { user, invitation, token, mail: sampleMail(made), audit: event('invitation.created', invitation.id) };
}

/** The behaviour every InvitationRepository promises: one write per step, one winner per race. */
export function describeInvitationRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`InvitationRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let other: Repositories;
    useFreshRepositories(open, (opened, another) => {
      repositories = opened;
      other = another;
    });
    const created = async (overrides: Partial<User> = {}) => {
      const write = sampleInvitation(overrides);
      await repositories.invitations.create(write);
      return write;
    };
    /** What an acceptance writes: the password, a verified address. */
    const accept = (now: Date) => (user: User, invitation: Invitation) => ({
      user: applyUserPatch(user, { passwordHash: 'the-new-hash', emailVerified: true }, now),
      audit: event('invitation.accepted', invitation.id),
    });
    const acceptWith = (repos: Repositories, token: StoredActionToken, now = at(10)) =>
      repos.invitations.accept([token.digest], now, accept(now));
    const actions = async () =>
      (await repositories.audit.list({ page: 1, size: 100 })).events.map((stored) => stored.action).reverse();

    it('create() stores the user, the invitation, its token, its message and its event together', async () => {
      const { user, invitation, mail } = await created({ name: 'Ann' });
      expect(await repositories.users.findById(user.id)).toEqual(user);
      expect(await repositories.invitations.findPending(invitation.id)).toEqual({
        ...invitation,
        email: user.email,
        name: 'Ann',
      });
      expect(await repositories.mail.findById(mail.id)).not.toBeNull();
      expect(await actions()).toEqual(['invitation.created']);
    });

    it('create() for an address that has an account stores nothing', async () => {
      const existing = sampleUser();
      await repositories.users.insert(existing);
      const write = sampleInvitation({ email: existing.email });
      await expect(repositories.invitations.create(write)).rejects.toBeInstanceOf(EmailTakenError);
      expect(await repositories.invitations.findPending(write.invitation.id)).toBeNull();
      expect(await repositories.mail.findById(write.mail.id)).toBeNull();
      expect(await repositories.users.findById(write.user.id)).toBeNull();
      expect(await acceptWith(repositories, write.token)).toBeNull();
      expect(await actions()).toEqual([]);
    });

    it('listPending() pages the pending invitations oldest first, with the total', async () => {
      const writes = [];
      for (let i = 0; i < 5; i += 1) writes.push(await created());
      await acceptWith(repositories, writes[1]!.token);
      const page = await repositories.invitations.listPending({ page: 2, size: 2 });
      expect(page.total).toBe(4);
      expect(page.invitations.map((listed) => listed.id)).toEqual([writes[3]!.invitation.id, writes[4]!.invitation.id]);
      expect((await repositories.invitations.listPending({ page: 3, size: 2 })).invitations).toEqual([]);
    });

    it('accept() uses the token, sets what the change says, and accepts the invitation, once', async () => {
      const { user, invitation, token } = await created();
      expect(await repositories.invitations.accept([`${token.digest}x`], at(10), accept(at(10)))).toBeNull();
      expect(await acceptWith(repositories, token)).toEqual({ ...invitation, accepted: at(10) });
      expect(await repositories.users.findById(user.id)).toMatchObject({
        passwordHash: 'the-new-hash',
        emailVerified: at(10),
        version: 2,
      });
      expect(await repositories.invitations.findPending(invitation.id)).toBeNull();
      expect(await acceptWith(repositories, token, at(11))).toBeNull();
      expect(await repositories.tokens.consume('invitation', [token.digest], at(12))).toBeNull();
      expect(await actions()).toEqual(['invitation.created', 'invitation.accepted']);
    });

    it('accept() refuses an expired token, one of another purpose, and one whose user was deleted', async () => {
      const expired = await created();
      expect(await acceptWith(repositories, expired.token, expired.token.expires)).toBeNull();
      const user = sampleUser();
      await repositories.users.insert(user);
      const verification = { ...invitationToken(user), purpose: 'verification' as const };
      await repositories.tokens.issue(verification, sampleMail(++made));
      expect(await acceptWith(repositories, verification)).toBeNull();
      const deleted = await created();
      await repositories.users.delete(deleted.user.id, at(5));
      expect(await acceptWith(repositories, deleted.token)).toBeNull();
      expect(await repositories.invitations.findPending(deleted.invitation.id)).toBeNull();
      expect(await acceptWith(repositories, expired.token, at(20))).not.toBeNull();
    });

    it('resend() voids the old token, stores the new one with its message, and moves sent and expires', async () => {
      const { user, invitation, token } = await created();
      const next = invitationToken(user, at(3600));
      const mail = sampleMail(++made);
      const resent = await repositories.invitations.resend(invitation.id, {
        token: next,
        mail,
        audit: event('invitation.resent', invitation.id),
      });
      expect(resent).toMatchObject({ id: invitation.id, sent: at(3600), expires: next.expires });
      expect(await repositories.mail.findById(mail.id)).not.toBeNull();
      expect(await acceptWith(repositories, token, at(3601))).toBeNull();
      expect(await acceptWith(repositories, next, at(3601))).not.toBeNull();
      const late = invitationToken(user, at(3700));
      expect(
        await repositories.invitations.resend(invitation.id, {
          token: late,
          mail: sampleMail(++made),
          audit: event('invitation.resent', invitation.id),
        }),
      ).toBeNull();
      expect(await actions()).toEqual(['invitation.created', 'invitation.resent', 'invitation.accepted']);
    });

    it('resend() writes nothing when the address changed since the message was made', async () => {
      const { user, invitation, token } = await created();
      const next = invitationToken(user, at(60));
      await repositories.users.update(user.id, (current) => ({
        user: applyUserPatch(current, { email: 'moved@example.com' }, at(30)),
      }));
      const mail = sampleMail(++made);
      expect(
        await repositories.invitations.resend(invitation.id, {
          token: next,
          mail,
          audit: event('invitation.resent', invitation.id),
        }),
      ).toBeNull();
      expect(await repositories.mail.findById(mail.id)).toBeNull();
      expect(await acceptWith(repositories, token, at(61))).not.toBeNull();
    });

    it('revoke() removes the invitation, its user, its token and what the OpenID engine kept about the user; a second revoke finds nothing', async () => {
      const { user, invitation, token } = await created();
      // Signed in through an identity provider, without a password, the invitee may have granted an application.
      const grant = sampleOpenIdRecord('Grant', { accountId: user.id });
      await repositories.openIdRecords.upsert(grant);
      let removed: boolean | undefined;
      const revoked = await repositories.invitations.revoke(invitation.id, at(5), (pending, userRemoved) => {
        expect(pending.id).toBe(invitation.id);
        removed = userRemoved;
        return event('invitation.revoked', invitation.id);
      });
      expect(removed).toBe(true); // what its audit event says: its user went with it
      expect(revoked).toMatchObject({ id: invitation.id, email: user.email });
      expect(await repositories.users.findById(user.id)).toBeNull();
      expect(await repositories.invitations.findPending(invitation.id)).toBeNull();
      expect(await repositories.openIdRecords.find('Grant', grant.id, T0)).toBeNull();
      expect(await acceptWith(repositories, token)).toBeNull();
      expect(
        await repositories.invitations.revoke(invitation.id, at(6), () => event('invitation.revoked', 'x')),
      ).toBeNull();
      expect(await actions()).toEqual(['invitation.created', 'invitation.revoked']);
    });

    it('revoke() keeps a user that has a password meanwhile, voiding its tokens; an accepted one is not revoked', async () => {
      const given = await created();
      await repositories.users.update(given.user.id, (current) => ({
        user: applyUserPatch(current, { passwordHash: 'set-by-an-admin' }, at(3)),
      }));
      let removed: boolean | undefined;
      expect(
        await repositories.invitations.revoke(given.invitation.id, at(5), (_, userRemoved) => {
          removed = userRemoved;
          return event('invitation.revoked', given.invitation.id);
        }),
      ).not.toBeNull();
      expect(removed).toBe(false);
      expect(await repositories.users.findById(given.user.id)).toMatchObject({ passwordHash: 'set-by-an-admin' });
      expect(await acceptWith(repositories, given.token)).toBeNull();
      const accepted = await created();
      await acceptWith(repositories, accepted.token);
      expect(
        await repositories.invitations.revoke(accepted.invitation.id, at(20), () => event('invitation.revoked', 'x')),
      ).toBeNull();
      expect(await repositories.users.findById(accepted.user.id)).toMatchObject({ passwordHash: 'the-new-hash' });
    });

    it(`of ${RACERS} concurrent acceptances of one token, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const { token } = await created();
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) => acceptWith(racer % 2 === 0 ? repositories : other, token)),
        );
        winners.push(results.filter((result) => result !== null).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it(`an acceptance racing a revocation, on two instances: exactly one wins, and the state is its: ${ROUNDS} rounds`, async () => {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const { user, invitation, token } = await created();
        const [first, second] = round % 2 === 0 ? [repositories, other] : [other, repositories];
        const [accepted, revoked] = await Promise.all([
          acceptWith(first, token),
          second.invitations.revoke(invitation.id, at(10), () => event('invitation.revoked', invitation.id)),
        ]);
        const stored = await repositories.users.findById(user.id);
        const pending = await repositories.invitations.findPending(invitation.id);
        if (accepted && !revoked && stored?.passwordHash === 'the-new-hash' && !pending) outcomes.push('accepted');
        else if (revoked && !accepted && stored === null && !pending) outcomes.push('revoked');
        else outcomes.push(`inconsistent: ${JSON.stringify({ accepted, revoked, stored, pending })}`);
      }
      expect(outcomes.filter((outcome) => outcome.startsWith('inconsistent'))).toEqual([]);
    });
  });
}
