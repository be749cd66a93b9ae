import type { SealedText } from '../secrets/secret.ts';

/** What an attempt is for: signing in (or up) with a provider, or linking one to a signed-in user. */
export const OAUTH_ATTEMPT_PURPOSES = ['sign_in', 'link'] as const;
export type OAuthAttemptPurpose = (typeof OAUTH_ATTEMPT_PURPOSES)[number];

/** How long an attempt's state waits for the provider's callback: 10 minutes. */
export const OAUTH_STATE_SECONDS = 10 * 60;
/** How long the one-time code handed to `redirect_to` may be redeemed: 60 seconds. */
export const OAUTH_CODE_SECONDS = 60;

/** The account the provider vouched for at the callback, as a link keeps it until its code is redeemed. */
export interface UpstreamAccount {
  /** The provider's stable id for the account (`sub`; GitHub's numeric id). */
  readonly subject: string;
  /** Normalised, or null when the provider gave none. */
  readonly email: string | null;
  /** Whether the provider vouched for the email, by its own rule (see each preset). */
  readonly emailVerified: boolean;
  readonly name: string | null;
}

/**
 * One trip through a provider, stored server-side from its start to the redemption of its code
 * (every instance on one database serves any step). Found only by HMAC digests (`token-hmac`) of
 * the random values it handed out, each single use: the state sent to the provider, the browser's
 * cookie that must come back with it, and the one-time code given to `redirect_to`.
 */
export interface OAuthAttempt {
  readonly id: string;
  readonly providerId: string;
  readonly purpose: OAuthAttemptPurpose;
  /** A link: the signed-in user who asked. A sign-in: the user the callback resolved, null before. */
  readonly userId: string | null;
  /** Where the browser is sent at the end, with `code` or `error`: a same-origin path or an allowed origin's URL. */
  readonly redirectTo: string;
  /** The app's PKCE challenge (S256, base64url): only who holds its verifier redeems the code. */
  readonly codeChallenge: string;
  /**
   * A link starts by an API call, not in the browser: the digest of the handle the browser brings
   * to `/authorize` to take the attempt over (single use). Null for a sign-in.
   */
  readonly handoffDigest: string | null;
  /** Digest of the state sent to the provider (unique). */
  readonly stateDigest: string;
  /** Digest of the random value in the browser's cookie; null until a link's browser takes it over. */
  readonly browserDigest: string | null;
  /** The OpenID Connect nonce the ID token must carry. */
  readonly nonce: string;
  /** The PKCE verifier toward the provider, sealed (`identity-provider-secret`, context the attempt's id). */
  readonly providerVerifier: SealedText;
  readonly created: Date;
  /** The state's expiry: created + OAUTH_STATE_SECONDS. */
  readonly expires: Date;
  /** When the callback used the state; null before. */
  readonly stateUsed: Date | null;
  /** Digest of the one-time code given to `redirect_to` (unique); null before the callback. */
  readonly codeDigest: string | null;
  readonly codeExpires: Date | null;
  readonly codeUsed: Date | null;
  /** What the provider vouched for, kept by a link's callback for the redemption; null otherwise. */
  readonly account: UpstreamAccount | null;
}
