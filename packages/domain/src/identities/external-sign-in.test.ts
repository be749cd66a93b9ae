import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  IdentityProviderError,
  InvalidOAuthCodeError,
  InvalidOAuthStateError,
  NotFoundError,
  ValidationError,
  type ErrorCode,
} from '../shared/errors.ts';
import { APP_ORIGIN, buildDomain, POLICY, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import {
  account,
  addProvider,
  CHALLENGE,
  codeOf,
  REQUEST,
  signInThrough,
  stateIn,
  VERIFIER,
} from '../testing/identity-fixture.ts';
import { hasPassword } from '../users/password-match.ts';
import type { CallbackOutcome } from './external-sign-in.ts';
import type { IdentityProvider } from './identity-provider.ts';

const errorOf = (outcome: CallbackOutcome): ErrorCode | undefined => outcome.error?.code;

describe('signing in with an identity provider', () => {
  let domain: Domain;
  let provider: IdentityProvider;
  beforeEach(async () => {
    domain = buildDomain({ policy: { ...POLICY, emailVerification: 'optional' } });
    provider = await addProvider(domain);
  });

  const identities = () => [...domain.repositories.externalIdentities.rows.values()];
  const actions = () => domain.repositories.audit.events.map((event) => event.action);
  const redeem = (code: string, verifier = VERIFIER) => domain.externalSignIn.token(code, verifier, REQUEST);

  it('signs a new account up (no password, the address as vouched) and its code in to a session with amr fed', async () => {
    const outcome = await signInThrough(domain, 'acme', account());
    expect(outcome.redirectTo).toBe('/signed-in');
    const { session } = await redeem(codeOf(outcome));
    const user = await domain.repositories.users.findByEmail('ann@example.com');
    expect(session?.principal.id).toBe(user?.id);
    expect(user).toMatchObject({ name: 'Ann', emailVerified: domain.clock.now() });
    expect(hasPassword(user?.passwordHash ?? '')).toBe(false);
    expect(await domain.claimsOf(session?.accessToken ?? '')).toMatchObject({ amr: ['fed'], aal: 'aal1' });
    expect(identities()).toMatchObject([{ userId: user?.id, providerId: provider.id, subject: 'subject-1' }]);
    expect(actions()).toContain('user.signed_up');
  });

  it('stores no attempt when the provider cannot be reached, and logs why', async () => {
    domain.upstream.unreachable = 'discovery: forbidden address (loopback)';
    const start = domain.externalSignIn.authorize('acme', {
      redirectTo: '/signed-in',
      codeChallenge: CHALLENGE,
    });
    await rejectionOf(start, IdentityProviderError);
    expect(domain.repositories.oauthAttempts.rows.size).toBe(0);
    expect(domain.logger.entries).toMatchObject([
      { level: 'warn', fields: { provider: 'acme', reason: 'discovery: forbidden address (loopback)' } },
    ]);
  });

  it('signs the linked user in again by (provider, subject), whatever email the provider now gives', async () => {
    const first = await redeem(codeOf(await signInThrough(domain, 'acme', account())));
    const again = await signInThrough(domain, 'acme', account({ email: 'renamed@example.com' }));
    const { session } = await redeem(codeOf(again));
    expect(session?.principal.id).toBe(first.session?.principal.id);
    expect(identities()).toHaveLength(1);
    expect(identities()[0]).toMatchObject({ email: 'renamed@example.com' });
    const signedIn = domain.repositories.audit.events.find((event) => event.action === 'user.identity_signed_in');
    expect(signedIn?.changes).toEqual({
      identity: {
        before: { provider: 'acme', subject: 'subject-1' },
        after: { provider: 'acme', subject: 'subject-1' },
      },
    });
  });

  describe('a first sign-in with an email a user has already', () => {
    it('never links to a local account whose address is unverified, even with auto_link (pre-account takeover)', async () => {
      const linking = await addProvider(domain, { slug: 'linking', autoLink: true });
      const squatter = await domain.createUser({ email: 'ann@example.com', emailVerified: false });
      const outcome = await signInThrough(domain, linking.slug, account());
      expect(errorOf(outcome)).toBe('identity_not_linked');
      expect(identities()).toEqual([]);
      expect(await domain.repositories.users.findById(squatter.id)).toMatchObject({ emailVerified: null });
    });

    it('does not link when the provider does not vouch for the email', async () => {
      const linking = await addProvider(domain, { slug: 'linking', autoLink: true });
      await domain.createUser({ email: 'ann@example.com' });
      expect(errorOf(await signInThrough(domain, linking.slug, account({ emailVerified: false })))).toBe(
        'identity_not_linked',
      );
      expect(identities()).toEqual([]);
    });

    it('does not link when the provider has auto_link off', async () => {
      await domain.createUser({ email: 'ann@example.com' });
      expect(errorOf(await signInThrough(domain, 'acme', account()))).toBe('identity_not_linked');
      expect(identities()).toEqual([]);
    });

    it('links with auto_link when both sides vouch for the address, and signs that user in', async () => {
      const linking = await addProvider(domain, { slug: 'linking', autoLink: true });
      const ann = await domain.createUser({ email: 'ann@example.com' });
      const { session } = await redeem(codeOf(await signInThrough(domain, linking.slug, account())));
      expect(session?.principal.id).toBe(ann.id);
      expect(identities()).toMatchObject([{ userId: ann.id, subject: 'subject-1' }]);
      const linked = domain.repositories.audit.events.find((event) => event.action === 'user.identity_linked');
      expect(linked).toMatchObject({ actor: { type: 'user', id: ann.id }, target: { type: 'users', id: ann.id } });
    });
  });

  it.each(['invite-only', 'closed'] as const)('makes no account while SIGNUP is %s', async (signup) => {
    domain = buildDomain({ signup });
    await addProvider(domain);
    expect(errorOf(await signInThrough(domain, 'acme', account()))).toBe('signup_disabled');
    expect(await domain.repositories.users.findByEmail('ann@example.com')).toBeNull();
  });

  it('makes no account without an email from the provider', async () => {
    expect(errorOf(await signInThrough(domain, 'acme', account({ email: null })))).toBe('identity_email_missing');
    expect(identities()).toEqual([]);
  });

  it('tells a banned or deactivated user so, at the callback and at the redemption of a code issued before', async () => {
    const code = codeOf(await signInThrough(domain, 'acme', account()));
    const userId = identities()[0]?.userId ?? '';
    await domain.users.ban(userId, { reason: 'spam', until: null });
    expect(errorOf(await signInThrough(domain, 'acme', account()))).toBe('account_banned');
    expect((await rejectionOf(redeem(code), Error)).message).toMatch(/banned/);
    await domain.users.unban(userId);
    await domain.users.update(userId, { active: 0 });
    expect(errorOf(await signInThrough(domain, 'acme', account()))).toBe('account_inactive');
  });

  it('with EMAIL_VERIFICATION=required, a new user the provider did not vouch for is made but not signed in', async () => {
    domain = buildDomain();
    await addProvider(domain);
    expect(errorOf(await signInThrough(domain, 'acme', account({ emailVerified: false })))).toBe('email_not_verified');
    expect(await domain.repositories.users.findByEmail('ann@example.com')).toMatchObject({ emailVerified: null });
  });

  it('spends the code even when the verifier is wrong: the right one cannot redeem it afterwards', async () => {
    const code = codeOf(await signInThrough(domain, 'acme', account()));
    await rejectionOf(redeem(code, `${VERIFIER}-wrong`), InvalidOAuthCodeError);
    await rejectionOf(redeem(code), InvalidOAuthCodeError);
  });

  it('redeems a code once, and not after its 60 seconds', async () => {
    const code = codeOf(await signInThrough(domain, 'acme', account()));
    await redeem(code);
    await rejectionOf(redeem(code), InvalidOAuthCodeError);
    const late = codeOf(await signInThrough(domain, 'acme', account()));
    domain.clock.advance(61);
    await rejectionOf(redeem(late), InvalidOAuthCodeError);
  });

  it('ends in the second step for a user with a factor, the challenge carrying fed', async () => {
    const { session } = await redeem(codeOf(await signInThrough(domain, 'acme', account())));
    await domain.enrol.totp('user', session?.principal.id ?? '', domain.clock.now());
    const outcome = await redeem(codeOf(await signInThrough(domain, 'acme', account())));
    expect(outcome.session).toBeUndefined();
    expect(outcome.challenge?.kinds).toContain('totp');
  });

  describe('the callback', () => {
    async function started(slug = 'acme') {
      const { location, browser } = await domain.externalSignIn.authorize(slug, {
        redirectTo: `${APP_ORIGIN}/done?tab=1`,
        codeChallenge: CHALLENGE,
      });
      return { state: stateIn(location), browser };
    }

    it('spends the state once: the same callback again has nothing to redirect to', async () => {
      const { state, browser } = await started();
      const params = domain.upstream.consent(state, account());
      expect(await domain.externalSignIn.callback('acme', params, browser, REQUEST)).toMatchObject({
        redirectTo: `${APP_ORIGIN}/done?tab=1`,
      });
      await rejectionOf(domain.externalSignIn.callback('acme', params, browser, REQUEST), InvalidOAuthStateError);
    });

    it("refuses provider A's state at B's callback, another browser's, none, and an expired one", async () => {
      await addProvider(domain, { slug: 'other' });
      const { state, browser } = await started();
      const params = domain.upstream.consent(state, account());
      const refused = (slug: string, cookie: string | null, query = params) =>
        rejectionOf(domain.externalSignIn.callback(slug, query, cookie, REQUEST), InvalidOAuthStateError);
      await refused('other', browser);
      await refused('acme', 'another-browser');
      await refused('acme', null);
      await refused('acme', browser, { code: params.code ?? '' });
      domain.clock.advance(601);
      await refused('acme', browser);
    });

    it("sends the provider's refusal to redirect_to as identity_provider_error, the reason only to the log", async () => {
      const { state, browser } = await started();
      const outcome = await domain.externalSignIn.callback(
        'acme',
        { state, error: 'access_denied', error_description: 'The user said no' },
        browser,
        REQUEST,
      );
      expect(errorOf(outcome)).toBe('identity_provider_error');
      expect(domain.logger.entries).toMatchObject([
        { level: 'warn', fields: { provider: 'acme', reason: 'authorization answered an error' } },
      ]);
    });

    it('ends with identity_provider_error when the provider does not redeem its code', async () => {
      const { state, browser } = await started();
      const outcome = await domain.externalSignIn.callback('acme', { state, code: 'forged' }, browser, REQUEST);
      expect(errorOf(outcome)).toBe('identity_provider_error');
    });
  });

  it('refuses to start at an unknown or disabled provider, or toward a foreign redirect_to, without an attempt', async () => {
    await addProvider(domain, { slug: 'off', enabled: false });
    const start = (slug: string, redirectTo = '/ok') =>
      domain.externalSignIn.authorize(slug, { redirectTo, codeChallenge: CHALLENGE });
    await rejectionOf(start('nope'), NotFoundError);
    await rejectionOf(start('off'), NotFoundError);
    for (const hostile of ['https://evil.example/', '//evil.example', 'javascript:alert(1)']) {
      const error = await rejectionOf(start('acme', hostile), ValidationError);
      expect(error.issues.map((issue) => issue.source)).toEqual([{ parameter: 'redirect_to' }]);
    }
    expect(domain.repositories.oauthAttempts.rows.size).toBe(0);
  });
});
