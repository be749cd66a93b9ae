import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { EmailTakenError, InvalidActionTokenError } from '../shared/errors.ts';
import { buildDomain, PASSWORD, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { TEST_TOKEN_LIFETIMES } from '../testing/in-memory-action-tokens.ts';

const EMAIL = 'newcomer@example.com';
const NEW_EMAIL = 'moved@example.com';

describe('VerificationService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const signedUp = async () => {
    await domain.signup.signUp({ email: EMAIL, password: PASSWORD });
    const user = (await domain.repositories.users.findByEmail(EMAIL))!;
    return { user, token: await domain.mailedToken('verification', EMAIL) };
  };

  /** A verified user who asked to move to NEW_EMAIL: the user, their session and the mailed token. */
  const changing = async () => {
    const { user, identity, grant } = await domain.signedInUser();
    await domain.emailChange.request(identity, { email: NEW_EMAIL, current_password: PASSWORD });
    return { user, identity, grant, token: await domain.mailedToken('email_change', NEW_EMAIL) };
  };

  it('verify() with a verification token marks the address verified now, once, with a user.email_verified event', async () => {
    const { user, token } = await signedUp();
    domain.clock.advance(30);
    await domain.verification.verify(token);
    expect((await domain.users.get(user.id)).emailVerified).toEqual(domain.clock.now());
    await rejectionOf(domain.verification.verify(token), InvalidActionTokenError);
    const { events } = await domain.repositories.audit.list({ page: 1, size: 10 });
    expect(events[0]).toMatchObject({ action: 'user.email_verified', actor: { type: 'user', id: user.id } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('gives a wrong, malformed, expired or non-string token one answer', async () => {
    const { token } = await signedUp();
    domain.clock.advance(TEST_TOKEN_LIFETIMES.verification);
    const answers = await Promise.all(
      [token, 'test-token-99999999', 'short', 42, null, undefined].map(
        async (presented) =>
          (await rejectionOf(domain.verification.verify(presented), InvalidActionTokenError)).message,
      ),
    );
    expect(new Set(answers).size).toBe(1);
  });

  it('verify() with an email_change token moves the account to the new address, verified, ending its sessions and other links', async () => {
    const { user, grant, token } = await changing();
    const recovery = await domain.actionTokens.issue('recovery', { userId: user.id }, async () =>
      domain.mail.compose('test', 'x@example.com', { recipient: 'x@example.com' }),
    );
    expect(recovery).toBeTruthy();
    domain.clock.advance(10);
    await domain.verification.verify(token);
    const moved = await domain.users.get(user.id);
    expect(moved).toMatchObject({ email: NEW_EMAIL, emailVerified: domain.clock.now() });
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
    const { events } = await domain.repositories.audit.list({ page: 1, size: 10 });
    expect(events[0]).toMatchObject({
      action: 'user.email_changed',
      changes: { email: { before: user.email, after: NEW_EMAIL } },
    });
    // The new address logs in; the old one no longer does.
    expect((await domain.userLogin(NEW_EMAIL, PASSWORD, '203.0.113.7')).accessToken).toBeTruthy();
  });

  it('an email change whose address was taken meanwhile is refused (EmailTakenError), nothing changed, the token still usable', async () => {
    const { user, token } = await changing();
    const squatter = await domain.createUser({ email: NEW_EMAIL });
    await rejectionOf(domain.verification.verify(token), EmailTakenError);
    expect((await domain.users.get(user.id)).email).toBe(user.email);
    await domain.users.delete(squatter.id);
    await domain.verification.verify(token);
    expect((await domain.users.get(user.id)).email).toBe(NEW_EMAIL);
  });

  it("a change of the user's password voids an outstanding email change", async () => {
    const { user, token } = await changing();
    await domain.users.update(user.id, { password: 'a brand new password' });
    await rejectionOf(domain.verification.verify(token), InvalidActionTokenError);
  });

  it('of concurrent uses of one token exactly one succeeds, round after round', async () => {
    const winners: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      await domain.signup.signUp({ email: `round${round}@example.com`, password: PASSWORD });
      const token = await domain.mailedToken('verification', `round${round}@example.com`);
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => domain.verification.verify(token)));
      winners.push(results.filter((result) => result.status === 'fulfilled').length);
    }
    expect(winners).toEqual(Array.from({ length: 20 }, () => 1));
  });
});
