import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { InvalidActionTokenError, ValidationError } from '../shared/errors.ts';
import { buildDomain, PASSWORD, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { TEST_TOKEN_LIFETIMES } from '../testing/in-memory-action-tokens.ts';
import type { User } from '../users/user.ts';
import { newIdentity } from '../identities/external-identity.rules.ts';
import { account, addProvider } from '../testing/identity-fixture.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { SYSTEM } from '../audit/audit-event.ts';

const NEW_PASSWORD = 'a brand new password';

describe('RecoveryService.reset', () => {
  let domain: Domain;
  let user: User;
  beforeEach(async () => {
    domain = buildDomain();
    user = await domain.createUser({ emailVerified: false });
  });

  /** Has a recovery link mailed to `user` and answers its token, as the user would read it. */
  async function recoveryToken(): Promise<string> {
    domain.clock.advance(60); // past the one-a-minute limit of the previous link
    await domain.mailRequests.request('recovery', user.email, {
      requestId: null,
      clientAddress: null,
      userAgent: null,
    });
    await domain.mailRequests.resolveDue(10);
    const [latest] = (await domain.mail.list({ page: 1, size: 1 })).messages;
    const text = (await domain.mail.read(latest!.id)).content!.text;
    return text.match(/token=([\w-]+)/)![1]!;
  }
  const invalid = (token: unknown, password: unknown = NEW_PASSWORD) =>
    rejectionOf(domain.recovery.reset(token, password), InvalidActionTokenError);
  const kinds = async () => (await domain.mail.list({ page: 1, size: 100 })).messages.map((message) => message.kind);

  it('sets the password, verifies the address, notifies the owner and records the event', async () => {
    const token = await recoveryToken();
    const session = await domain.signedInUser({ email: 'other@example.com' });
    await domain.recovery.reset(token, NEW_PASSWORD);
    const after = await domain.repositories.users.findById(user.id);
    expect(await domain.hasher.verify(NEW_PASSWORD, after!.passwordHash)).toBe(true);
    expect(after!.emailVerified).toEqual(domain.clock.now());
    expect(await domain.logIn(domain.userAuth, user.email, NEW_PASSWORD)).toBeDefined();
    expect(await domain.isOpen(session.grant.accessToken)).toBe(true); // someone else's session stays
    expect(await kinds()).toEqual(['password_changed', 'recovery']);
    const events = (await domain.repositories.audit.list({ page: 1, size: 10, action: 'user.recovery_completed' }))
      .events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: { type: 'user', id: user.id }, changes: { password: {} } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("unlinks the user's identities whose provider did not vouch for the address, each audited, and keeps the others", async () => {
    const provider = await addProvider(domain);
    const { externalIdentities, audit } = domain.repositories;
    const link = (subject: string, emailVerified: boolean) =>
      externalIdentities.link(
        newIdentity(
          domain.ids.next(),
          provider,
          account({ subject, email: user.email, emailVerified }),
          user.id,
          domain.clock.now(),
        ),
        auditRecord(domain.ids.next(), domain.clock.now(), SYSTEM, 'user.identity_linked', {
          type: 'users',
          id: user.id,
        }),
      );
    await link('squatter', false);
    await link('vouched', true);
    await domain.recovery.reset(await recoveryToken(), NEW_PASSWORD);
    expect((await externalIdentities.listByUser(user.id)).map((identity) => identity.subject)).toEqual(['vouched']);
    const events = (await audit.list({ page: 1, size: 10, action: 'user.identity_unlinked' })).events;
    expect(events.map((event) => event.changes)).toEqual([
      { identity: { before: { provider: 'acme', subject: 'squatter' }, after: null } },
    ]);
  });

  it("ends the user's own sessions", async () => {
    await domain.users.update(user.id, { emailVerified: true });
    const { grant } = await domain.logIn(domain.userAuth, user.email, PASSWORD);
    await domain.recovery.reset(await recoveryToken(), NEW_PASSWORD);
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
  });

  it('checks the password before the token: a bad password → 422 and the token stays usable', async () => {
    const token = await recoveryToken();
    for (const bad of ['short', 'x'.repeat(73), 42, null]) {
      await rejectionOf(domain.recovery.reset(token, bad), ValidationError);
    }
    await domain.recovery.reset(token, NEW_PASSWORD);
  });

  it('one answer for a wrong, used, expired, voided or other-purpose token', async () => {
    const used = await recoveryToken();
    await domain.recovery.reset(used, NEW_PASSWORD);
    await invalid(used);
    await invalid('test-token-99999999');
    await invalid(undefined);
    const expiring = await recoveryToken();
    domain.clock.advance(TEST_TOKEN_LIFETIMES.recovery);
    await invalid(expiring);
    const voided = await recoveryToken();
    const other = await recoveryToken(); // a second link; using it voids the first
    await domain.recovery.reset(other, 'yet another password');
    await invalid(voided);
    let verificationToken = '';
    await domain.actionTokens.issue('verification', { userId: user.id }, async (token) => {
      verificationToken = token;
      return domain.mail.compose('test', user.email, { recipient: user.email });
    });
    await invalid(verificationToken);
  });

  it('of concurrent resets with one token exactly one succeeds, round after round', async () => {
    const winners: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const token = await recoveryToken();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, n) => domain.recovery.reset(token, `${NEW_PASSWORD} ${n}`)),
      );
      winners.push(outcomes.filter((outcome) => outcome.status === 'fulfilled').length);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InvalidActionTokenError);
      }
    }
    expect(winners).toEqual(Array.from({ length: 10 }, () => 1));
  });
});
