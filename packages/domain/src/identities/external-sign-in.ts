import { auditRecord, userChanges, userTarget } from '../audit/audit-records.ts';
import type { AuditChanges, RequestContext } from '../audit/audit-event.ts';
import type { FactorRepository } from '../factors/factor.repository.ts';
import type { EmailVerification } from '../sessions/auth-service.ts';
import type { Principal, PrincipalSource } from '../sessions/principal.ts';
import type { ChallengeIssuing } from '../sign-in/challenge-issuing.ts';
import type { SignInOutcome } from '../sign-in/password-step.ts';
import type { SessionGrants } from '../sign-in/session-grants.ts';
import { assertMaySignIn } from '../sign-in/sign-in-standing.ts';
import type { SignupMode } from '../signup/signup-service.ts';
import type { Clock } from '../shared/clock.ts';
import {
  DomainError,
  EmailTakenError,
  IdentityAlreadyLinkedError,
  IdentityEmailMissingError,
  IdentityNotLinkedError,
  IdentityProviderError,
  InvalidOAuthCodeError,
  InvalidOAuthStateError,
  NotFoundError,
  SignupDisabledError,
} from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Logger } from '../shared/logger.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import { newIdentity } from './external-identity.rules.ts';
import type { ExternalIdentityRepository } from './external-identity.repository.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { OAuthAttempt, UpstreamAccount } from './oauth-attempt.ts';
import type { OAuthTrips, TripRequest } from './oauth-trips.ts';
import { identityChange } from './user-identities.ts';
import { freshUser } from '../users/fresh-user.ts';

export interface ExternalSignInDeps {
  trips: OAuthTrips;
  identities: ExternalIdentityRepository;
  /** Users as they sign in. */
  principals: PrincipalSource;
  factors: FactorRepository;
  issuing: ChallengeIssuing;
  grants: SessionGrants;
  clock: Clock;
  ids: IdGenerator;
  /** Where a provider's own error text goes: never to the browser. */
  logger: Logger;
  policy: { emailVerification: EmailVerification; signup: SignupMode };
}

/** Where the browser goes to sign in at the provider, and the cookie that binds the attempt to it. */
export interface ProviderRedirect {
  readonly location: string;
  /** The cookie's value: only its digest is stored. */
  readonly browser: string;
}

/** How a callback ends once its state was spent: at `redirect_to`, with a one-time code or an error. */
export type CallbackOutcome =
  | { readonly redirectTo: string; readonly code: string; readonly error?: never }
  | { readonly redirectTo: string; readonly error: DomainError; readonly code?: never };

/** A sign-in's event names the identity it came through, on both sides: nothing about it changed. */
function signedInChange(provider: Pick<IdentityProvider, 'slug'>, subject: string): AuditChanges {
  const named = identityChange(provider, subject, true).identity?.after ?? null;
  return { identity: { before: named, after: named } };
}

/**
 * The sign-in with an identity provider (`/v1/oauth/{slug}/authorize`, its callback, then
 * `POST /v1/oauth/token`). The callback resolves the user by the identity's (provider, subject);
 * for a first sign-in it links to the user holding the email only when the provider has
 * `auto_link` and both sides vouch the address verified (else a local account made by someone
 * else with the victim's address would be taken over), or creates a new user when SIGNUP is
 * open. The code it hands `redirect_to` ends as the password step does: the session with `amr`
 * `fed`, or the second step's challenge.
 */
export class ExternalSignIn {
  constructor(private readonly deps: ExternalSignInDeps) {}

  /**
   * Starts a sign-in: the attempt, bound to a new cookie, and the provider's URL. The attempt is
   * stored only once the URL is built: a provider that cannot be reached (discovery failed, an
   * address the network guard refuses) leaves no row behind, and its reason goes to the log.
   */
  async authorize(slug: string, request: TripRequest): Promise<ProviderRedirect> {
    const { trips, logger } = this.deps;
    const provider = await trips.enabledProvider(slug);
    trips.checkRedirect(request.redirectTo, { redirectTo: { parameter: 'redirect_to' } });
    const { attempt, state, browser } = await trips.prepare(provider, 'sign_in', { ...request, userId: null });
    const location = await trips.authorizationUrl(provider, attempt, state).catch((error: unknown) => {
      if (error instanceof IdentityProviderError) {
        logger.warn('identity provider could not start a sign-in', { provider: slug, reason: error.reason });
      }
      throw error;
    });
    await trips.store(attempt);
    return { location, browser: browser ?? '' };
  }

  /**
   * The provider sends the browser back. An unusable state (unknown, spent, expired, another
   * provider's or another browser's) throws InvalidOAuthStateError: there is nothing trusted to
   * redirect to. Past it, every outcome goes to the attempt's `redirect_to`.
   */
  async callback(
    slug: string,
    params: Readonly<Record<string, string>>,
    browser: string | null,
    request: RequestContext,
  ): Promise<CallbackOutcome> {
    const { trips, logger } = this.deps;
    // A provider disabled or deleted since the start: its state is nobody's now.
    const provider = await trips.enabledProvider(slug).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    const state = params.state;
    const attempt = provider && state && browser ? await trips.useState(provider, state, browser) : null;
    if (!provider || !state || !attempt) throw new InvalidOAuthStateError();
    try {
      const account = await trips.complete(provider, attempt, params, state);
      const result =
        attempt.purpose === 'link'
          ? { userId: attempt.userId, account }
          : { userId: await this.signedInUser(provider, account, request), account: null };
      return { redirectTo: attempt.redirectTo, code: await trips.issueCode(attempt, result) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error instanceof IdentityProviderError) {
        logger.warn('identity provider refused a sign-in', { provider: slug, reason: error.reason });
      }
      return { redirectTo: attempt.redirectTo, error };
    }
  }

  /** Redeems a sign-in's code with the app's PKCE verifier: the session, or the second step's challenge. */
  async token(code: string, verifier: string, request: RequestContext): Promise<SignInOutcome> {
    const { trips, principals, factors, issuing, grants, policy } = this.deps;
    const attempt = await trips.redeem(code, verifier, 'sign_in');
    const principal = await this.principalOf(attempt);
    assertMaySignIn(principal, policy.emailVerification);
    if (await factors.hasActive('user', principal.id)) {
      return { challenge: await issuing.issue(principal.id, ['fed'], request) };
    }
    const session = await grants.open(principal, ['fed'], request);
    if (session) return { session };
    // Deactivated, banned or deleted since it was read: told as the password step tells it.
    const now = await principals.findById(principal.id);
    if (now) assertMaySignIn(now, policy.emailVerification);
    throw new InvalidOAuthCodeError();
  }

  /**
   * The user the provider's account signs in, once it may: its linked user, the user it links to
   * by email, or a new one. A concurrent first sign-in of the same account or address may win the
   * write: then the account is resolved again, as the winner left it.
   */
  private async signedInUser(
    provider: IdentityProvider,
    account: UpstreamAccount,
    request: RequestContext,
  ): Promise<string> {
    try {
      return await this.resolve(provider, account, request);
    } catch (error) {
      if (!(error instanceof IdentityAlreadyLinkedError || error instanceof EmailTakenError)) throw error;
      return this.resolve(provider, account, request);
    }
  }

  private async resolve(provider: IdentityProvider, account: UpstreamAccount, request: RequestContext) {
    const { identities, principals, clock, ids, policy } = this.deps;
    const linked = await identities.findBySubject(provider.id, account.subject);
    if (linked) {
      const principal = await this.mayHold(linked.userId);
      const by = { actor: { type: 'user', id: principal.id } as const, request };
      const now = clock.now();
      const audit = auditRecord(
        ids.next(),
        now,
        by,
        'user.identity_signed_in',
        userTarget(principal.id),
        signedInChange(provider, account.subject),
      );
      await identities.touch(linked.id, account.email, account.emailVerified, now, audit);
      return principal.id;
    }
    const holder = account.email === null ? null : await principals.findByEmail(account.email);
    if (holder) {
      // Both sides must vouch for the address: else whoever made either account could take the other.
      if (!(provider.autoLink && account.emailVerified && holder.emailVerified)) throw new IdentityNotLinkedError();
      await this.link(provider, account, holder.id, request);
      return (await this.mayHold(holder.id)).id;
    }
    if (policy.signup !== 'open') throw new SignupDisabledError();
    if (account.email === null) throw new IdentityEmailMissingError();
    const userId = await this.signUp(provider, account, account.email, request);
    return (await this.mayHold(userId)).id;
  }

  private async link(provider: IdentityProvider, account: UpstreamAccount, userId: string, request: RequestContext) {
    const { identities, clock, ids } = this.deps;
    const now = clock.now();
    const by = { actor: { type: 'user', id: userId } as const, request };
    const audit = auditRecord(
      ids.next(),
      now,
      by,
      'user.identity_linked',
      userTarget(userId),
      identityChange(provider, account.subject, true),
    );
    const identity = await identities.link(newIdentity(this.deps.ids.next(), provider, account, userId, now), audit);
    // The user was deleted meanwhile: resolved again, the account now signs up or is refused.
    if (!identity) throw new IdentityAlreadyLinkedError();
  }

  /** A new user of the account: no password (the provider is its way in), its address as vouched. */
  private async signUp(provider: IdentityProvider, account: UpstreamAccount, email: string, request: RequestContext) {
    const { identities, clock, ids } = this.deps;
    const now = clock.now();
    const user = freshUser(
      {
        id: ids.next(),
        name: account.name ?? '',
        email,
        passwordHash: NO_PASSWORD_HASH,
        emailVerified: account.emailVerified ? now : null,
      },
      now,
    );
    const by = { actor: { type: 'user', id: user.id } as const, request };
    const audit = auditRecord(ids.next(), now, by, 'user.signed_up', userTarget(user.id), userChanges(null, user));
    const identity = newIdentity(ids.next(), provider, account, user.id, now);
    await identities.createUserWithIdentity(user, identity, audit);
    return user.id;
  }

  /** The user, once the identity proved it is theirs, if it may sign in (inactive, banned, unverified: told). */
  private async mayHold(userId: string): Promise<Principal> {
    const principal = await this.deps.principals.findById(userId);
    // Deleted between the link and this read: as if the account were never found.
    if (!principal) throw new IdentityNotLinkedError();
    assertMaySignIn(principal, this.deps.policy.emailVerification);
    return principal;
  }

  private async principalOf(attempt: OAuthAttempt): Promise<Principal> {
    const principal = attempt.userId === null ? null : await this.deps.principals.findById(attempt.userId);
    if (!principal) throw new InvalidOAuthCodeError();
    return principal;
  }
}
