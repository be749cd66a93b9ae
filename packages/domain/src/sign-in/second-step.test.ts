import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  AccountInactiveError,
  InvalidChallengeError,
  InvalidSecondFactorError,
  TooManyAttemptsError,
} from '../shared/errors.ts';
import { ADDRESS, ADMIN, buildDomain, PASSWORD, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { FakePasskeyCeremonies } from '../testing/fake-factor-ports.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import type { IssuedChallenge } from './challenge-issuing.ts';
import type { SecondStepAnswer } from './second-step.ts';
import type { User } from '../users/user.ts';

const REQUEST = { requestId: null, clientAddress: ADDRESS, userAgent: 'test' };
const { assertion } = FakePasskeyCeremonies;

describe('the sign-in steps', () => {
  let domain: Domain;
  let user: User;
  let secret: string;
  beforeEach(async () => {
    domain = buildDomain();
    user = await domain.createUser();
    ({ secret } = await domain.enrol.totp('user', user.id, domain.clock.now()));
  });

  const code = () => domain.codes.codeAt(secret, domain.clock.now());
  async function challenge(
    email = user.email,
    signIn = domain.userSignIn,
    password = PASSWORD,
  ): Promise<IssuedChallenge> {
    const outcome = await signIn.password.login(email, password, ADDRESS, REQUEST);
    if (!outcome.challenge) throw new Error('no challenge was issued');
    return outcome.challenge;
  }
  const answer = (handle: string, given: SecondStepAnswer) =>
    domain.userSignIn.secondStep.complete(handle, given, REQUEST);

  describe('the password step', () => {
    it('answers a challenge and opens no session for an account with an active factor', async () => {
      const before = await domain.repositories.sessions.listLive('user', user.id, domain.clock.now(), 10);
      const issued = await challenge();
      expect(issued.kinds).toEqual(['totp']);
      expect(issued.webauthn).toBeNull();
      expect(issued.expires).toEqual(
        new Date(domain.clock.now().getTime() + SECOND_FACTOR_RULES.challenge.seconds * 1000),
      );
      expect(await domain.repositories.sessions.listLive('user', user.id, domain.clock.now(), 10)).toEqual(before);
    });

    it('stores only the digest of the handle, and lists every kind of answer the account has', async () => {
      const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now());
      await domain.enrol.recoveryCodes('user', user.id, ['AAAA-BBBB-CCCC']);
      const issued = await challenge();
      expect(issued.kinds).toEqual(['totp', 'webauthn', 'recovery_code']);
      expect(issued.webauthn).toMatchObject({ allowCredentials: [{ id: credential.id }] });
      expect(await domain.repositories.signInChallenges.find(issued.handle)).toBeNull();
    });

    it('opens a session with amr pwd and aal1 for an account without an active factor', async () => {
      const other = await domain.createUser();
      const { session } = await domain.userSignIn.password.login(other.email, PASSWORD, ADDRESS);
      expect(await domain.claimsOf(session!.accessToken)).toMatchObject({ amr: ['pwd'], aal: 'aal1' });
    });
  });

  describe('the second step', () => {
    it('opens the session with amr pwd, otp, mfa and aal2, which a refresh keeps', async () => {
      const grant = await answer((await challenge()).handle, { code: code() });
      expect(grant.principal.id).toBe(user.id);
      const assurance = { sub: user.id, amr: ['pwd', 'otp', 'mfa'], aal: 'aal2' };
      expect(await domain.claimsOf(grant.accessToken)).toMatchObject(assurance);
      domain.clock.advance(60);
      const refreshed = await domain.userAuth.refresh(grant.refreshToken);
      expect(await domain.claimsOf(refreshed.accessToken)).toMatchObject(assurance);
    });

    it('takes a recovery code, and a passkey assertion over the challenge (amr hwk)', async () => {
      await domain.enrol.recoveryCodes('user', user.id, ['AAAA-BBBB-CCCC']);
      const byCode = await answer((await challenge()).handle, { code: 'aaaabbbbcccc' });
      expect(await domain.claimsOf(byCode.accessToken)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
      const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now());
      const issued = await challenge();
      const webauthnChallenge = String(issued.webauthn?.challenge);
      const byPasskey = await answer(issued.handle, { credential: assertion(credential, webauthnChallenge) });
      expect(await domain.claimsOf(byPasskey.accessToken)).toMatchObject({ amr: ['pwd', 'hwk', 'mfa'], aal: 'aal2' });
    });

    it('completes a challenge once: a second answer, right or not, finds it used', async () => {
      const { handle } = await challenge();
      await answer(handle, { code: code() });
      domain.clock.advance(SECOND_FACTOR_RULES.totp.periodSeconds);
      await rejectionOf(answer(handle, { code: code() }), InvalidChallengeError);
    });

    it('takes the challenge before proving: of two right answers at once, the loser uses up nothing', async () => {
      await domain.enrol.recoveryCodes('user', user.id, ['AAAA-BBBB-CCCC']);
      const { handle } = await challenge();
      await rejectionOf(answer(handle, { code: '000000' }), InvalidSecondFactorError);
      const totp = code();
      const results = await Promise.allSettled([
        answer(handle, { code: 'AAAA-BBBB-CCCC' }),
        answer(handle, { code: totp }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((result) => result.status === 'rejected');
      expect(lost?.reason).toBeInstanceOf(InvalidChallengeError);
      // Whichever answer lost is still good for a new challenge: neither was used up by losing.
      const codesLeft = await domain.repositories.factors.recoveryCodesLeft('user', user.id);
      const loser = codesLeft === 1 ? 'AAAA-BBBB-CCCC' : totp;
      await expect(answer((await challenge()).handle, { code: loser })).resolves.toBeDefined();
    });

    it('refuses an unknown handle, an expired challenge, and a user challenge at the admin step', async () => {
      await rejectionOf(answer('no-such-handle', { code: code() }), InvalidChallengeError);
      const { handle } = await challenge();
      await rejectionOf(
        domain.adminSignIn.secondStep.complete(handle, { code: code() }, REQUEST),
        InvalidChallengeError,
      );
      domain.clock.advance(SECOND_FACTOR_RULES.challenge.seconds);
      await rejectionOf(answer(handle, { code: code() }), InvalidChallengeError);
    });

    it("never completes one account's login with another's code or passkey", async () => {
      const other = await domain.createUser();
      const { secret: others } = await domain.enrol.totp('user', other.id, domain.clock.now());
      const { credential } = await domain.enrol.passkey('user', other.id, domain.clock.now());
      const issued = await challenge();
      await rejectionOf(
        answer(issued.handle, { code: domain.codes.codeAt(others, domain.clock.now()) }),
        InvalidSecondFactorError,
      );
      const webauthn = assertion(credential, 'any');
      await rejectionOf(answer(issued.handle, { credential: webauthn }), InvalidSecondFactorError);
    });

    it('ends a challenge at its 5th wrong answer', async () => {
      const { handle } = await challenge();
      for (let i = 0; i < SECOND_FACTOR_RULES.challenge.maxFailures; i += 1) {
        await rejectionOf(answer(handle, { code: '000000' }), InvalidSecondFactorError);
      }
      await rejectionOf(answer(handle, { code: code() }), InvalidChallengeError);
    });

    it("locks the account's second step after 10 wrong answers in a row, audited, for 15 minutes", async () => {
      for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures; i += 1) {
        await rejectionOf(answer((await challenge()).handle, { code: '000000' }), InvalidSecondFactorError);
      }
      const { handle } = await challenge();
      const locked = await rejectionOf(answer(handle, { code: code() }), TooManyAttemptsError);
      expect(locked.retryAfterSeconds).toBe(SECOND_FACTOR_RULES.lock.seconds);
      const events = domain.repositories.audit.events.filter((event) => event.action === 'mfa.locked');
      expect(events).toMatchObject([{ target: { type: 'users', id: user.id } }]);
      domain.clock.advance(SECOND_FACTOR_RULES.lock.seconds);
      await expect(answer(handle, { code: code() })).rejects.toBeInstanceOf(InvalidChallengeError);
      await expect(answer((await challenge()).handle, { code: code() })).resolves.toBeDefined();
    });

    it('counts only consecutive failures: a right answer starts the count again', async () => {
      for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures - 1; i += 1) {
        await rejectionOf(answer((await challenge()).handle, { code: '000000' }), InvalidSecondFactorError);
      }
      await answer((await challenge()).handle, { code: code() });
      domain.clock.advance(SECOND_FACTOR_RULES.totp.periodSeconds);
      await rejectionOf(answer((await challenge()).handle, { code: '000000' }), InvalidSecondFactorError);
      await expect(answer((await challenge()).handle, { code: code() })).resolves.toBeDefined();
    });

    it('refuses an account deactivated, or whose password changed, between the steps', async () => {
      const { handle } = await challenge();
      domain.clock.advance(1);
      await domain.users.update(user.id, { active: 0 });
      await rejectionOf(answer(handle, { code: code() }), AccountInactiveError);

      const second = await domain.createUser();
      const { secret: seconds } = await domain.enrol.totp('user', second.id, domain.clock.now());
      const next = await challenge(second.email);
      domain.clock.advance(1);
      await domain.users.update(second.id, { password: 'an entirely new password' });
      const late = domain.codes.codeAt(seconds, domain.clock.now());
      await rejectionOf(answer(next.handle, { code: late }), InvalidChallengeError);
    });

    it('works alike for admins, whose session opening is audited', async () => {
      const admin = await domain.admins.applyCredentials(ADMIN);
      const { secret: admins } = await domain.enrol.totp('admin', admin.id, domain.clock.now());
      const { handle } = await challenge(ADMIN.email, domain.adminSignIn, ADMIN.password);
      await rejectionOf(
        answer(handle, { code: domain.codes.codeAt(admins, domain.clock.now()) }),
        InvalidChallengeError,
      );
      const grant = await domain.adminSignIn.secondStep.complete(
        handle,
        { code: domain.codes.codeAt(admins, domain.clock.now()) },
        REQUEST,
      );
      expect(await domain.claimsOf(grant.accessToken)).toMatchObject({ sub: admin.id, amr: ['pwd', 'otp', 'mfa'] });
      expect(domain.repositories.audit.events.filter((event) => event.action === 'admin.login')).toHaveLength(1);
    });
  });

  describe('the passwordless passkey step', () => {
    it('signs in with a discoverable passkey over its options (amr swk, aal2), once', async () => {
      const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now(), { backedUp: true });
      const options = await domain.userSignIn.passkey.options(REQUEST);
      expect(options.options).toMatchObject({ challenge: options.challenge, allowCredentials: [] });
      const signed = assertion(credential, options.challenge, { counter: 0 });
      const grant = await domain.userSignIn.passkey.signIn(signed, REQUEST);
      expect(await domain.claimsOf(grant.accessToken)).toMatchObject({ sub: user.id, amr: ['swk'], aal: 'aal2' });
      await rejectionOf(domain.userSignIn.passkey.signIn(signed, REQUEST), InvalidSecondFactorError);
    });

    it('refuses an assertion without user verification, and an admin passkey at the user step', async () => {
      const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now());
      const options = await domain.userSignIn.passkey.options(REQUEST);
      const unverified = assertion(credential, options.challenge, { userVerified: false });
      await rejectionOf(domain.userSignIn.passkey.signIn(unverified, REQUEST), InvalidSecondFactorError);
      const admin = await domain.admins.applyCredentials(ADMIN);
      const admins = await domain.enrol.passkey('admin', admin.id, domain.clock.now());
      const fresh = await domain.userSignIn.passkey.options(REQUEST);
      await rejectionOf(
        domain.userSignIn.passkey.signIn(assertion(admins.credential, fresh.challenge), REQUEST),
        InvalidSecondFactorError,
      );
    });

    it('refuses an inactive account', async () => {
      const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now());
      await domain.users.update(user.id, { active: 0 });
      const options = await domain.userSignIn.passkey.options(REQUEST);
      await rejectionOf(
        domain.userSignIn.passkey.signIn(assertion(credential, options.challenge), REQUEST),
        AccountInactiveError,
      );
    });
  });
});
