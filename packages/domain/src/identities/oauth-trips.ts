import type { TokenKeys } from '../action-tokens/token-keys.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidOAuthCodeError, NotFoundError, ValidationError, type ProblemSource } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { sha256Hex } from '../shared/sha256.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { IdentityProviderRepository } from './identity-provider.repository.ts';
import {
  OAUTH_CODE_SECONDS,
  OAUTH_STATE_SECONDS,
  type OAuthAttempt,
  type OAuthAttemptPurpose,
  type UpstreamAccount,
} from './oauth-attempt.ts';
import type { OAuthAttemptRepository } from './oauth-attempt.repository.ts';
import { pkceChallenge, pkceMatches } from './pkce.ts';
import { redirectTargetProblem } from './redirect-target.ts';
import type { UpstreamClient, UpstreamProviders } from './upstream-providers.ts';
import { acceptedAccount } from './upstream-account.rules.ts';

/** The key ring's purpose that seals client secrets and the verifiers toward providers. */
const SEALING_PURPOSE = 'identity-provider-secret';

export interface OAuthTripsDeps {
  providers: IdentityProviderRepository;
  attempts: OAuthAttemptRepository;
  upstream: UpstreamProviders;
  box: SecretBox;
  /** Makes the random values (state, nonce, cookie, handle, code) and the digests they are stored under. */
  tokenKeys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  /** PUBLIC_URL (ending with `/`): the callback's base, and the origin a same-origin `redirect_to` belongs to. */
  publicUrl: string;
  /** REDIRECT_ALLOW_LIST: the other origins a trip may end at. */
  redirectAllowList: readonly string[];
}

/** Where a trip ends and what proves the app that started it: as the app sent them. */
export interface TripRequest {
  redirectTo: string;
  codeChallenge: string;
}

/** Where a request's fields were, to point a ValidationError at them. */
export interface TripRequestSources {
  redirectTo: ProblemSource;
}

/** A new attempt and the values only its holders know: the state, and the browser's cookie or a link's handle. */
export interface BegunTrip {
  attempt: OAuthAttempt;
  state: string;
  /** A sign-in's cookie value (the browser starts it). */
  browser: string | null;
  /** A link's hand-off handle (an API call starts it; the browser brings the handle). */
  handle: string | null;
}

/**
 * A link's state, from its handle: a link starts by an API call, and the state must be sent to the
 * provider only once the browser brings the handle. Who holds the handle sees the state anyway in
 * the provider's URL; the state does not tell the handle.
 */
const linkState = (handle: string): string => sha256Hex(`oauth-link-state:${handle}`);

/**
 * The steps every trip through an identity provider shares, signing in or linking: the provider
 * by its slug, the attempt with its single-use values (only their `token-hmac` digests stored),
 * the provider's authorization URL, and the one-time code handed to `redirect_to` and redeemed
 * with the app's PKCE verifier.
 */
export class OAuthTrips {
  constructor(private readonly deps: OAuthTripsDeps) {}

  /** The enabled provider of `slug`; NotFoundError for an unknown or disabled one. */
  async enabledProvider(slug: string): Promise<IdentityProvider> {
    const provider = await this.deps.providers.findBySlug(slug);
    if (!provider?.enabled) throw new NotFoundError('identity provider');
    return provider;
  }

  /** Refuses a `redirect_to` outside this origin and REDIRECT_ALLOW_LIST (nothing is redirected to it). */
  checkRedirect(redirectTo: string, sources: TripRequestSources): void {
    const { publicUrl, redirectAllowList } = this.deps;
    const problem = redirectTargetProblem(redirectTo, new URL(publicUrl).origin, redirectAllowList);
    if (problem !== null) throw new ValidationError([{ source: sources.redirectTo, detail: problem }]);
  }

  /** Stores a new attempt of `purpose` (a link names its user), its state waiting 10 minutes. */
  async begin(
    provider: IdentityProvider,
    purpose: OAuthAttemptPurpose,
    request: TripRequest & { userId: string | null },
  ): Promise<BegunTrip> {
    const trip = await this.prepare(provider, purpose, request);
    await this.store(trip.attempt);
    return trip;
  }

  /** Stores an attempt `prepare` made. */
  store(attempt: OAuthAttempt): Promise<void> {
    return this.deps.attempts.create(attempt);
  }

  /** A new attempt of `purpose` with its single-use values, not stored yet (see `store`). */
  async prepare(
    provider: IdentityProvider,
    purpose: OAuthAttemptPurpose,
    request: TripRequest & { userId: string | null },
  ): Promise<BegunTrip> {
    const { box, tokenKeys, clock, ids } = this.deps;
    const id = ids.next();
    const handle = purpose === 'link' ? tokenKeys.generate() : null;
    const browser = handle === null ? tokenKeys.generate() : null;
    const state = handle === null ? tokenKeys.generate() : linkState(handle);
    const now = clock.now();
    const attempt: OAuthAttempt = {
      id,
      providerId: provider.id,
      purpose,
      userId: request.userId,
      redirectTo: request.redirectTo,
      codeChallenge: request.codeChallenge,
      handoffDigest: handle === null ? null : await tokenKeys.digest(handle),
      stateDigest: await tokenKeys.digest(state),
      browserDigest: browser === null ? null : await tokenKeys.digest(browser),
      nonce: tokenKeys.generate(),
      providerVerifier: await box.seal(SEALING_PURPOSE, tokenKeys.generate(), id),
      created: now,
      expires: addSeconds(now, OAUTH_STATE_SECONDS),
      stateUsed: null,
      codeDigest: null,
      codeExpires: null,
      codeUsed: null,
      account: null,
    };
    return { attempt, state, browser, handle };
  }

  /**
   * A link's browser brings its handle: the attempt is bound to this browser's new cookie, once.
   * Null when the handle is unknown, spent, expired or another provider's.
   */
  async handOff(
    provider: IdentityProvider,
    handle: string,
  ): Promise<{ attempt: OAuthAttempt; state: string; browser: string } | null> {
    const { attempts, tokenKeys, clock } = this.deps;
    const browser = tokenKeys.generate();
    const browserDigest = await tokenKeys.digest(browser);
    const attempt = await this.firstFound(handle, (digest) => attempts.handOff(digest, browserDigest, clock.now()));
    if (attempt?.providerId !== provider.id) return null;
    return { attempt, state: linkState(handle), browser };
  }

  /** The provider's authorization URL for the attempt: its state, nonce, and the S256 challenge of its own verifier. */
  async authorizationUrl(provider: IdentityProvider, attempt: OAuthAttempt, state: string): Promise<string> {
    const verifier = await this.providerVerifier(attempt);
    return this.deps.upstream.authorizationUrl(await this.client(provider), {
      state,
      nonce: attempt.nonce,
      codeChallenge: pkceChallenge(verifier),
    });
  }

  /**
   * Spends the callback's state: the provider's, from the browser holding the cookie, unused and
   * unexpired. Null otherwise. The cookie was digested under the same secret as the state.
   */
  async useState(provider: IdentityProvider, state: string, browser: string): Promise<OAuthAttempt | null> {
    const { attempts, tokenKeys, clock } = this.deps;
    const [states, browsers] = await Promise.all([tokenKeys.digests(state), tokenKeys.digests(browser)]);
    for (const [index, stateDigest] of states.entries()) {
      const attempt = await attempts.useState(stateDigest, provider.id, browsers[index] ?? '', clock.now());
      if (attempt) return attempt;
    }
    return null;
  }

  /** Redeems the provider's callback at the provider: the account it vouches for (or IdentityProviderError). */
  async complete(
    provider: IdentityProvider,
    attempt: OAuthAttempt,
    params: Readonly<Record<string, string>>,
    state: string,
  ): Promise<UpstreamAccount> {
    const account = await this.deps.upstream.complete(await this.client(provider), {
      params,
      state,
      nonce: attempt.nonce,
      codeVerifier: await this.providerVerifier(attempt),
    });
    return acceptedAccount(account);
  }

  /** Gives the attempt its one-time code (60 s) with the user it signs in or the account it links: the code. */
  async issueCode(
    attempt: OAuthAttempt,
    result: { userId: string | null; account: UpstreamAccount | null },
  ): Promise<string> {
    const { attempts, tokenKeys, clock } = this.deps;
    const code = tokenKeys.generate();
    const expires = addSeconds(clock.now(), OAUTH_CODE_SECONDS);
    await attempts.issueCode(attempt.id, { digest: await tokenKeys.digest(code), expires, ...result });
    return code;
  }

  /**
   * Spends the code, then checks it is for `purpose` and that `verifier` is the app's: who only
   * saw the code in a URL cannot redeem it, nor anyone once its provider is no longer enabled.
   * InvalidOAuthCodeError otherwise; the code is spent either way.
   */
  async redeem(code: string, verifier: string, purpose: OAuthAttemptPurpose): Promise<OAuthAttempt> {
    const { attempts, clock } = this.deps;
    const attempt = await this.firstFound(code, (digest) => attempts.redeemCode(digest, clock.now()));
    if (attempt?.purpose !== purpose || !pkceMatches(verifier, attempt.codeChallenge)) {
      throw new InvalidOAuthCodeError();
    }
    // A provider disabled (or deleted) since the callback stops its sign-ins at once, codes too.
    if (!(await this.deps.providers.get(attempt.providerId))?.enabled) throw new InvalidOAuthCodeError();
    return attempt;
  }

  /** The provider as the upstream adapter talks to it: its secret opened, its callback URL. */
  private async client(provider: IdentityProvider): Promise<UpstreamClient> {
    const { box, publicUrl } = this.deps;
    const clientSecret = provider.clientSecret && (await box.open(SEALING_PURPOSE, provider.clientSecret, provider.id));
    return { provider, clientSecret, redirectUri: `${publicUrl}v1/oauth/${provider.slug}/callback` };
  }

  private providerVerifier(attempt: OAuthAttempt): Promise<string> {
    return this.deps.box.open(SEALING_PURPOSE, attempt.providerVerifier, attempt.id);
  }

  /** The first attempt `lookup` finds under the digests of `value` (the current secret first, then retired ones). */
  private async firstFound(
    value: string,
    lookup: (digest: string) => Promise<OAuthAttempt | null>,
  ): Promise<OAuthAttempt | null> {
    for (const digest of await this.deps.tokenKeys.digests(value)) {
      const attempt = await lookup(digest);
      if (attempt) return attempt;
    }
    return null;
  }
}
