import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import type { JsonObject } from '../shared/json.ts';
import type { TokenPurpose } from '../tokens/token-signer.ts';
import {
  AccountInactiveError,
  EmailNotVerifiedError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  NotFoundError,
  RefreshTokenReusedError,
  TooManyAttemptsError,
} from '../shared/errors.ts';
import {
  ADDRESS,
  ADMIN,
  buildDomain,
  OTHER_ADDRESS,
  PASSWORD,
  POLICY,
  rejectionOf,
  type Domain,
} from '../testing/domain-fixture.ts';

const WINDOW = POLICY.throttle.perAccountAndAddress.windowSeconds;
const ACCOUNT_LIMIT = POLICY.throttle.perAccountAndAddress.limit;
const ADDRESS_LIMIT = POLICY.throttle.perAddress.limit;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('AuthService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  describe('login()', () => {
    it('returns a session whose user access token carries sub, sid, email, name, metadata and app', async () => {
      const user = await domain.createUser({
        name: 'Żaneta 🐢',
        metadata: { theme: 'dark' },
        app: { roles: ['editor'] },
      });
      const grant = await domain.userLogin(user.email, PASSWORD, ADDRESS);
      expect(await domain.claimsOf(grant.accessToken)).toMatchObject({
        sub: user.id,
        sid: grant.sessionId,
        email: user.email,
        name: 'Żaneta 🐢',
        metadata: { theme: 'dark' },
        app: { roles: ['editor'] },
      });
      expect(grant.principal.id).toBe(user.id);
    });

    it("issues an access token for the policy's lifetime, and a refresh token of the same session", async () => {
      const user = await domain.createUser();
      const now = domain.clock.now();
      const grant = await domain.userLogin(user.email, PASSWORD, ADDRESS);
      const access = await domain.claimsOf(grant.accessToken);
      expect(grant.accessTokenExpires).toEqual(new Date(now.getTime() + POLICY.accessTokenSeconds * 1000));
      expect([access.iat, access.exp]).toEqual([seconds(now), seconds(now) + POLICY.accessTokenSeconds]);
      const refresh = await domain.signer.verify(grant.refreshToken, ['refresh']);
      expect(refresh.claims).toMatchObject({
        sub: user.id,
        sid: grant.sessionId,
        exp: seconds(now) + POLICY.refreshTokenSeconds,
      });
      expect(grant.refreshToken).not.toBe(grant.accessToken);
    });

    it('opens a new session at every login', async () => {
      const user = await domain.createUser();
      const first = await domain.userLogin(user.email, PASSWORD, ADDRESS);
      const second = await domain.userLogin(user.email, PASSWORD, ADDRESS);
      expect(second.sessionId).not.toBe(first.sessionId);
    });

    it('finds the account whatever the case and spacing of the email', async () => {
      const user = await domain.createUser({ email: 'alice@example.com' });
      const grant = await domain.userLogin('  ALICE@Example.com ', PASSWORD, ADDRESS);
      expect(grant.principal.id).toBe(user.id);
    });

    it('refuses a wrong password and an unknown email alike with InvalidCredentialsError', async () => {
      const user = await domain.createUser();
      const wrongPassword = await rejectionOf(
        domain.userLogin(user.email, 'wrong-password', ADDRESS),
        InvalidCredentialsError,
      );
      const unknownEmail = await rejectionOf(
        domain.userLogin('nobody@example.com', PASSWORD, ADDRESS),
        InvalidCredentialsError,
      );
      expect(unknownEmail.message).toBe(wrongPassword.message);
    });

    it('refuses an unknown email even with the password of the timing hash', async () => {
      await expect(domain.userLogin('nobody@example.com', 'timing-equaliser-password', ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    it('refuses an inactive user with the right password with AccountInactiveError, and opens no session', async () => {
      const user = await domain.createUser({ active: 0 });
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(AccountInactiveError);
      await expect(domain.userLogin(user.email, 'wrong-password', ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    it('refuses an unverified user with the right password with EmailNotVerifiedError, and a wrong one as any', async () => {
      const user = await domain.createUser({ emailVerified: false });
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(EmailNotVerifiedError);
      await expect(domain.userLogin(user.email, 'wrong-password', ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
      expect(await domain.repositories.sessions.listLive('user', user.id, domain.clock.now(), 10)).toEqual([]);
    });

    it('lets an unverified user log in when verification is optional', async () => {
      const optional = buildDomain({ policy: { ...POLICY, emailVerification: 'optional' } });
      const user = await optional.createUser({ emailVerified: false });
      expect((await optional.userLogin(user.email, PASSWORD, ADDRESS)).principal.id).toBe(user.id);
    });

    it('gives an admin a token with sub, sid, email and name but no user claims', async () => {
      const { admin, grant } = await domain.signedInAdmin();
      const claims = await domain.claimsOf(grant.accessToken);
      expect(claims).toMatchObject({ sub: admin.id, sid: grant.sessionId, email: ADMIN.email, name: admin.name });
      expect(claims).not.toHaveProperty('metadata');
      expect(claims).not.toHaveProperty('app');
    });

    it('keeps users and admins apart: each service knows only its own accounts', async () => {
      const user = await domain.createUser();
      await domain.admins.applyCredentials(ADMIN);
      await expect(domain.adminLogin(user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(InvalidCredentialsError);
      await expect(domain.userLogin(ADMIN.email, ADMIN.password, ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    });
  });

  describe('login() throttling', () => {
    it(`refuses the attempt after ${ACCOUNT_LIMIT} failures of one account from one address, even with the right password`, async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT);
      const error = await rejectionOf(domain.userLogin(user.email, PASSWORD, ADDRESS), TooManyAttemptsError);
      expect(error.retryAfterSeconds).toBe(WINDOW);
    });

    it(`lets at most ${ACCOUNT_LIMIT} of a burst of concurrent wrong guesses be checked against the password`, async () => {
      const user = await domain.createUser();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 4 * ACCOUNT_LIMIT }, (_, i) => domain.userLogin(user.email, `wrong guess ${i}`, ADDRESS)),
      );
      const reasons = outcomes.map((outcome) => (outcome.status === 'rejected' ? outcome.reason : outcome.value));
      const checked = reasons.filter((reason) => reason instanceof InvalidCredentialsError).length;
      expect(checked).toBeLessThanOrEqual(ACCOUNT_LIMIT);
      expect(
        reasons.every((reason) => reason instanceof InvalidCredentialsError || reason instanceof TooManyAttemptsError),
      ).toBe(true);
      await expect(domain.userLogin(user.email, PASSWORD, OTHER_ADDRESS)).resolves.toBeDefined();
    });

    it('does not count a successful login against the address', async () => {
      const users = await Promise.all(Array.from({ length: 3 }, () => domain.createUser()));
      for (const user of users) await domain.userLogin(user.email, PASSWORD, ADDRESS);
      const { count } = await domain.repositories.attempts.failuresSince(`address:${ADDRESS}`, new Date(0));
      expect(count).toBe(0);
    });

    it(`still lets the ${ACCOUNT_LIMIT}th attempt through`, async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT - 1);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).resolves.toBeDefined();
    });

    it('counts retryAfterSeconds from the oldest failure in the window', async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, 1);
      domain.clock.advance(100);
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT - 1);
      domain.clock.advance(20);
      const error = await rejectionOf(domain.userLogin(user.email, PASSWORD, ADDRESS), TooManyAttemptsError);
      expect(error.retryAfterSeconds).toBe(WINDOW - 120);
    });

    it('lets the same account log in from another address', async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT);
      await expect(domain.userLogin(user.email, PASSWORD, OTHER_ADDRESS)).resolves.toBeDefined();
    });

    it('lets a client that waits retryAfterSeconds log in again', async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT);
      const { retryAfterSeconds } = await rejectionOf(
        domain.userLogin(user.email, PASSWORD, ADDRESS),
        TooManyAttemptsError,
      );
      domain.clock.advance(retryAfterSeconds);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).resolves.toBeDefined();
    });

    it('lets the account in again once the window has passed', async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT);
      domain.clock.advance(WINDOW - 1);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(TooManyAttemptsError);
      domain.clock.advance(1);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).resolves.toBeDefined();
    });

    it('counts failures of an unknown email, and of one email in any case, toward one account', async () => {
      await domain.failLogins(domain.userAuth, 'ghost@example.com', ACCOUNT_LIMIT / 2);
      await domain.failLogins(domain.userAuth, ' GHOST@example.com', ACCOUNT_LIMIT / 2);
      await expect(domain.userLogin('ghost@example.com', PASSWORD, ADDRESS)).rejects.toBeInstanceOf(
        TooManyAttemptsError,
      );
    });

    it(`refuses an address after ${ADDRESS_LIMIT} failures across many accounts, but not other addresses`, async () => {
      const accounts = ADDRESS_LIMIT / ACCOUNT_LIMIT;
      for (let i = 0; i < accounts; i += 1)
        await domain.failLogins(domain.userAuth, `guess${i}@example.com`, ACCOUNT_LIMIT);
      const bystander = await domain.createUser();
      const error = await rejectionOf(domain.userLogin(bystander.email, PASSWORD, ADDRESS), TooManyAttemptsError);
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      await expect(domain.userLogin(bystander.email, PASSWORD, OTHER_ADDRESS)).resolves.toBeDefined();
    });

    it("clears the account's counter on success", async () => {
      const user = await domain.createUser();
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT - 1);
      await domain.userLogin(user.email, PASSWORD, ADDRESS);
      await domain.failLogins(domain.userAuth, user.email, ACCOUNT_LIMIT - 1);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).resolves.toBeDefined();
    });

    it("does not clear the address's counter on success", async () => {
      const user = await domain.createUser();
      for (let i = 0; i < ADDRESS_LIMIT / ACCOUNT_LIMIT; i += 1) {
        await domain.failLogins(domain.userAuth, `guess${i}@example.com`, i === 0 ? ACCOUNT_LIMIT - 1 : ACCOUNT_LIMIT);
      }
      await domain.userLogin(user.email, PASSWORD, ADDRESS);
      await domain.failLogins(domain.userAuth, 'guess0@example.com', 1);
      await expect(domain.userLogin(user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(TooManyAttemptsError);
    });

    it('keeps the account counters of users and admins apart', async () => {
      await domain.admins.applyCredentials(ADMIN);
      await domain.failLogins(domain.userAuth, ADMIN.email, ACCOUNT_LIMIT);
      await expect(domain.adminLogin(ADMIN.email, ADMIN.password, ADDRESS)).resolves.toBeDefined();
    });
  });

  describe('refresh()', () => {
    it('rotates: new access and refresh tokens for the same session', async () => {
      const { user, grant } = await domain.signedInUser();
      domain.clock.advance(60);
      const next = await domain.userAuth.refresh(grant.refreshToken);
      expect(next.sessionId).toBe(grant.sessionId);
      expect(next.refreshToken).not.toBe(grant.refreshToken);
      expect(next.accessToken).not.toBe(grant.accessToken);
      expect((await domain.userAuth.authenticate(next.accessToken)).subjectId).toBe(user.id);
    });

    it('gives each new refresh token a full lifetime, so an active session outlives the first token', async () => {
      const { grant } = await domain.signedInUser();
      domain.clock.advance(POLICY.refreshTokenSeconds - 1);
      const next = await domain.userAuth.refresh(grant.refreshToken);
      domain.clock.advance(POLICY.refreshTokenSeconds - 1);
      await expect(domain.userAuth.refresh(next.refreshToken)).resolves.toBeDefined();
    });

    it('refuses an expired refresh token with InvalidTokenError', async () => {
      const { grant } = await domain.signedInUser();
      domain.clock.advance(POLICY.refreshTokenSeconds);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('revokes the family when a retired token is presented after the grace window', async () => {
      const { grant } = await domain.signedInUser();
      const next = await domain.userAuth.refresh(grant.refreshToken);
      domain.clock.advance(POLICY.refreshReuseGraceSeconds + 1);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(RefreshTokenReusedError);
      await expect(domain.userAuth.refresh(next.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
      expect(await domain.isOpen(next.accessToken)).toBe(false);
      expect(await domain.isOpen(grant.accessToken)).toBe(false);
    });

    it('reuse ends only the session it happened in', async () => {
      const { user, grant } = await domain.signedInUser();
      const otherSession = await domain.userLogin(user.email, PASSWORD, ADDRESS);
      await domain.userAuth.refresh(grant.refreshToken);
      domain.clock.advance(POLICY.refreshReuseGraceSeconds + 1);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(RefreshTokenReusedError);
      expect(await domain.isOpen(otherSession.accessToken)).toBe(true);
      await expect(domain.userAuth.refresh(otherSession.refreshToken)).resolves.toBeDefined();
    });

    it('lets two concurrent refreshes of one token both succeed within the grace window, with one current refresh token', async () => {
      const { grant } = await domain.signedInUser();
      const grants = await Promise.all([
        domain.userAuth.refresh(grant.refreshToken),
        domain.userAuth.refresh(grant.refreshToken),
      ]);
      const jtis = await Promise.all(
        grants.map(async (g) => (await domain.signer.verify(g.refreshToken, ['refresh'])).claims.jti),
      );
      expect(new Set(jtis).size).toBe(1);
      for (const g of grants) expect(await domain.isOpen(g.accessToken)).toBe(true);
      await expect(domain.userAuth.refresh(grants[1].refreshToken)).resolves.toBeDefined();
    });

    it('answers a retired token within the grace window with the current token of its session, and the family lives on', async () => {
      const { grant } = await domain.signedInUser();
      const next = await domain.userAuth.refresh(grant.refreshToken);
      const newest = await domain.userAuth.refresh(next.refreshToken);
      domain.clock.advance(POLICY.refreshReuseGraceSeconds);
      const again = await domain.userAuth.refresh(grant.refreshToken);
      const jtiOf = async (token: string) => (await domain.signer.verify(token, ['refresh'])).claims.jti;
      expect(await jtiOf(again.refreshToken)).toBe(await jtiOf(newest.refreshToken));
      expect(await domain.isOpen(newest.accessToken)).toBe(true);
      await expect(domain.userAuth.refresh(newest.refreshToken)).resolves.toBeDefined();
    });

    it('with no current token left in the session, a retired one is reuse even within the grace window', async () => {
      const { grant } = await domain.signedInUser();
      const next = await domain.userAuth.refresh(grant.refreshToken);
      await domain.repositories.sessions.revokeToken(
        (await domain.signer.verify(next.refreshToken, ['refresh'])).claims.jti as string,
        domain.clock.now(),
      );
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(RefreshTokenReusedError);
      expect(await domain.isOpen(next.accessToken)).toBe(false);
    });

    it('with a grace window of 0, two concurrent refreshes are reuse: one wins, and the session ends', async () => {
      const strict = buildDomain({ policy: { ...POLICY, refreshReuseGraceSeconds: 0 } });
      const { grant } = await strict.signedInUser();
      const results = await Promise.allSettled([
        strict.userAuth.refresh(grant.refreshToken),
        strict.userAuth.refresh(grant.refreshToken),
      ]);
      const won = results.filter((result) => result.status === 'fulfilled');
      const lost = results.filter((result) => result.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((result) => result.reason)).toEqual([expect.any(RefreshTokenReusedError)]);
      expect(await strict.isOpen(won[0]!.value.accessToken)).toBe(false);
    });

    it.each([
      ['deactivated', (domain: Domain, id: string) => domain.users.update(id, { active: 0 })],
      ['deleted', (domain: Domain, id: string) => domain.users.delete(id)],
    ])('refuses a %s user with InvalidTokenError', async (_case, change) => {
      const { user, grant } = await domain.signedInUser();
      await change(domain, user.id);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it.each([
      [
        'deactivated',
        async (domain: Domain, id: string) =>
          void domain.repositories.users.update(id, (current) => ({ user: { ...current, active: 0 } })),
      ],
      ['deleted', async (domain: Domain, id: string) => void domain.repositories.users.delete(id, domain.clock.now())],
    ])("refuses a user %s behind the service's back, and ends that session", async (_case, change) => {
      const { user, grant } = await domain.signedInUser();
      await change(domain, user.id);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
      expect(await domain.isOpen(grant.accessToken)).toBe(false);
    });

    it('issues claims that reflect the account as it is now, not as it was at login', async () => {
      const { user, grant } = await domain.signedInUser({ name: 'Old', app: { plan: 'free' } });
      await domain.users.update(user.id, { name: 'New', metadata: { theme: 'light' }, app: { plan: 'pro' } });
      const next = await domain.userAuth.refresh(grant.refreshToken);
      expect(await domain.claimsOf(next.accessToken)).toMatchObject({
        name: 'New',
        metadata: { theme: 'light' },
        app: { plan: 'pro' },
      });
    });

    it('refuses an admin refresh token on the user service, and leaves the admin session alone', async () => {
      const { grant } = await domain.signedInAdmin();
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
      await expect(domain.adminAuth.refresh(grant.refreshToken)).resolves.toBeDefined();
    });

    it('refuses a user refresh token on the admin service', async () => {
      const { grant } = await domain.signedInUser();
      await expect(domain.adminAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('refuses an access token, garbage, and a well-formed token naming no stored refresh token', async () => {
      const { user, grant } = await domain.signedInUser();
      const unknown = await domain.forge('refresh', { sub: user.id, sid: grant.sessionId, jti: 'no-such-token' });
      for (const token of [grant.accessToken, 'not a token', '', unknown]) {
        await expect(domain.userAuth.refresh(token)).rejects.toBeInstanceOf(InvalidTokenError);
      }
    });

    it("refuses a refresh token whose subject is not the session's", async () => {
      const alice = await domain.signedInUser();
      const bob = await domain.signedInUser();
      const { claims } = await domain.signer.verify(alice.grant.refreshToken, ['refresh']);
      const forged = await domain.forge('refresh', { ...claims, sub: bob.user.id });
      await expect(domain.userAuth.refresh(forged)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });

  describe('revoke()', () => {
    it('makes the token unable to refresh', async () => {
      const { grant, identity } = await domain.signedInUser();
      await domain.userAuth.revoke(grant.refreshToken, identity);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('accepts revoking the same token twice', async () => {
      const { grant, identity } = await domain.signedInAdmin();
      await domain.adminAuth.revoke(grant.refreshToken, identity);
      await expect(domain.adminAuth.revoke(grant.refreshToken, identity)).resolves.toBeUndefined();
    });

    it("refuses another account's token with ForbiddenError and leaves it working", async () => {
      const alice = await domain.signedInUser();
      const bob = await domain.signedInUser();
      await expect(domain.userAuth.revoke(bob.grant.refreshToken, alice.identity)).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await expect(domain.userAuth.refresh(bob.grant.refreshToken)).resolves.toBeDefined();
    });

    it('refuses a string that is no refresh token with InvalidTokenError', async () => {
      const { grant, identity } = await domain.signedInAdmin();
      await expect(domain.adminAuth.revoke(grant.accessToken, identity)).rejects.toBeInstanceOf(InvalidTokenError);
      await expect(domain.adminAuth.revoke('garbage', identity)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });

  describe('logout()', () => {
    it('ends every session of the caller: access and refresh tokens stop working', async () => {
      const first = await domain.signedInAdmin();
      const second = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password, OTHER_ADDRESS);
      await domain.adminAuth.logout(first.identity, first.admin.id);
      for (const { grant } of [first, second]) {
        expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(false);
        await expect(domain.adminAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
      }
    });

    it("refuses another existing admin's id with ForbiddenError and ends nothing", async () => {
      const { grant, identity } = await domain.signedInAdmin();
      const other = {
        id: domain.ids.next(),
        name: 'Other',
        email: 'other-admin@example.com',
        passwordHash: 'x',
        role: 'owner' as const,
        created: domain.clock.now(),
        updated: domain.clock.now(),
        keyFileStamp: null,
      };
      await domain.repositories.admins.insert(other);
      await expect(domain.adminAuth.logout(identity, other.id)).rejects.toBeInstanceOf(ForbiddenError);
      expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(true);
    });

    it("refuses a user's id with ForbiddenError: it is someone else's, not unknown", async () => {
      const { identity } = await domain.signedInAdmin();
      const user = await domain.createUser();
      await expect(domain.adminAuth.logout(identity, user.id)).rejects.toBeInstanceOf(ForbiddenError);
    });

    it('refuses an unknown id with NotFoundError', async () => {
      const { identity } = await domain.signedInAdmin();
      await expect(domain.adminAuth.logout(identity, '00000000-0000-4000-8000-ffffffffffff')).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it("ends no other account's sessions", async () => {
      const admin = await domain.signedInAdmin();
      const user = await domain.signedInUser();
      await domain.adminAuth.logout(admin.identity, admin.admin.id);
      expect(await domain.isOpen(user.grant.accessToken)).toBe(true);
    });
  });

  describe('authenticate()', () => {
    /** A token signed as the service signs, with an issued token's claims and `claims` over them. */
    const forgedFrom = async (purpose: TokenPurpose, issued: string, claims: JsonObject) =>
      domain.forge(purpose, { ...(await domain.claimsOf(issued)), ...claims });

    it('answers who the access token speaks for', async () => {
      const { user, grant, identity } = await domain.signedInUser();
      expect(identity).toEqual({ kind: 'user', subjectId: user.id, sessionId: grant.sessionId });
    });

    it('refuses the token of a session its account outlived as active (a login racing the deactivation), and ends it', async () => {
      const { user, grant } = await domain.signedInUser();
      // What a login that read the account just before its deactivation committed leaves behind.
      await domain.repositories.users.update(user.id, (current) => ({ user: { ...current, active: 0 } }));
      await expect(domain.userAuth.authenticate(grant.accessToken)).rejects.toBeInstanceOf(InvalidTokenError);
      expect((await domain.repositories.sessions.findSession(grant.sessionId))?.revoked).toEqual(domain.clock.now());
    });

    it('refuses a user token on the admin service, and an admin token on the user service, with ForbiddenError', async () => {
      const user = await domain.signedInUser();
      const admin = await domain.signedInAdmin();
      await expect(domain.adminAuth.authenticate(user.grant.accessToken)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(domain.userAuth.authenticate(admin.grant.accessToken)).rejects.toBeInstanceOf(ForbiddenError);
    });

    it('refuses a refresh token with InvalidTokenError', async () => {
      const { grant } = await domain.signedInUser();
      await expect(domain.userAuth.authenticate(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('accepts an access token until it expires, then refuses it with InvalidTokenError', async () => {
      const { grant } = await domain.signedInUser();
      domain.clock.advance(POLICY.accessTokenSeconds - 1);
      expect(await domain.isOpen(grant.accessToken)).toBe(true);
      domain.clock.advance(1);
      await expect(domain.userAuth.authenticate(grant.accessToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('refuses a token naming a session of another account', async () => {
      const alice = await domain.signedInUser();
      const bob = await domain.signedInUser();
      const forged = await forgedFrom('user_access', alice.grant.accessToken, { sid: bob.grant.sessionId });
      await expect(domain.userAuth.authenticate(forged)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('refuses a token of one kind naming a session of the other kind, on either service, and leaves that session open', async () => {
      const user = await domain.signedInUser();
      const admin = await domain.signedInAdmin();
      const asAdmin = await forgedFrom('admin_access', admin.grant.accessToken, {
        sub: user.user.id,
        sid: user.grant.sessionId,
      });
      const asUser = await forgedFrom('user_access', user.grant.accessToken, {
        sub: admin.admin.id,
        sid: admin.grant.sessionId,
      });
      await expect(domain.adminAuth.authenticateWithRole(asAdmin)).rejects.toBeInstanceOf(InvalidTokenError);
      await expect(domain.userAuth.authenticate(asUser)).rejects.toBeInstanceOf(InvalidTokenError);
      expect(await domain.isOpen(user.grant.accessToken)).toBe(true);
      expect(await domain.isOpen(admin.grant.accessToken, domain.adminAuth)).toBe(true);
    });

    it('refuses a token without sub or sid', async () => {
      const bare = await domain.forge('user_access', { email: 'a@example.com' });
      await expect(domain.userAuth.authenticate(bare)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });
});
