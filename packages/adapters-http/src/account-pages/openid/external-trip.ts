import { OAUTH_STATE_SECONDS } from '@uas/domain';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../../app-env';

/** The PKCE verifier of a trip through an identity provider the sign-in page began. */
const VERIFIER_COOKIE = 'uas_account_pkce';

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * The sign-in page as an app of the service's own external sign-in (`/v1/oauth/{slug}/authorize`):
 * it makes the PKCE pair, keeps the verifier in an HttpOnly cookie for the trip's ten minutes
 * (SameSite=Lax: the provider's redirect back is a top-level GET), and redeems the one-time code
 * with it when the browser comes back. The code is worthless without the verifier, which never
 * leaves this browser and this service.
 */
export class ExternalTrips {
  private readonly attributes: CookieOptions;

  constructor(private readonly publicUrl: string) {
    const url = new URL('account/', publicUrl);
    this.attributes = { httpOnly: true, sameSite: 'Lax', path: url.pathname, secure: url.protocol === 'https:' };
  }

  /** Where to send the browser to sign in with `slug`, coming back to `returnPath` (under the pages). */
  async start(c: Context<AppEnv>, slug: string, returnPath: string): Promise<string> {
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
    );
    setCookie(c, VERIFIER_COOKIE, verifier, { ...this.attributes, maxAge: OAUTH_STATE_SECONDS });
    const start = new URL(`v1/oauth/${encodeURIComponent(slug)}/authorize`, this.publicUrl);
    start.searchParams.set('redirect_to', new URL(`account/${returnPath}`, this.publicUrl).href);
    start.searchParams.set('code_challenge', challenge);
    return start.href;
  }

  /** The trip's verifier, taken once: the cookie goes with this answer. */
  takeVerifier(c: Context<AppEnv>): string {
    const verifier = getCookie(c, VERIFIER_COOKIE) ?? '';
    deleteCookie(c, VERIFIER_COOKIE, this.attributes);
    return verifier;
  }
}
