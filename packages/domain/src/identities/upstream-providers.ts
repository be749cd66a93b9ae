import { token } from '../shared/token.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { UpstreamAccount } from './oauth-attempt.ts';

/** A provider as the flow talks to it: its record, and its client secret opened for this call. */
export interface UpstreamClient {
  readonly provider: IdentityProvider;
  readonly clientSecret: string | null;
  /** Where the provider sends the browser back: `PUBLIC_URL/v1/oauth/{slug}/callback`. */
  readonly redirectUri: string;
}

/**
 * The OAuth 2 / OpenID Connect client side toward identity providers (openid-client in the
 * server), each kind with its preset's quirks. Every failure at the provider (unreachable, an
 * error answer, an ID token with a bad signature, nonce, issuer or audience) throws
 * IdentityProviderError; nothing it says is trusted beyond what it verified.
 */
export interface UpstreamProviders {
  /** The provider's authorization URL with this state, nonce and PKCE challenge (S256). */
  authorizationUrl(
    client: UpstreamClient,
    request: { state: string; nonce: string; codeChallenge: string },
  ): Promise<string>;
  /**
   * Redeems the callback's parameters at the provider: checks the state it expects, exchanges the
   * code with the verifier, verifies the ID token (nonce, issuer, audience, signature) where the
   * kind has one, and answers the account it vouches for with its rule for `emailVerified`.
   */
  complete(
    client: UpstreamClient,
    callback: { params: Readonly<Record<string, string>>; state: string; nonce: string; codeVerifier: string },
  ): Promise<UpstreamAccount>;
  /** Checks a provider can be reached and discovered (an admin creating or changing one); throws IdentityProviderError. */
  check(client: UpstreamClient): Promise<void>;
}
export const UpstreamProviders = token<UpstreamProviders>('UpstreamProviders');
