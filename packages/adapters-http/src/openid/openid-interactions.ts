import type { Context } from 'hono';

/** What the OpenID engine asks of the browser at an interaction: who signs in, or what they allow. */
export interface OpenIdInteraction {
  readonly uid: string;
  /** `login`: sign the user in; `consent`: ask them to let the application in. */
  readonly prompt: 'login' | 'consent';
  /** The application asking, as an admin registered it. */
  readonly client: { readonly id: string; readonly name: string };
  /** For `consent`: the scopes asked that the user has not granted this application yet. */
  readonly scopes: readonly string[];
  /** The user already signed in (at `consent`), else null. */
  readonly accountId: string | null;
  /** The application's `login_hint`, if any: an email to fill the form with. */
  readonly loginHint: string | null;
}

/** How a browser signed in at an interaction: the user and the sign-in's `amr`. */
export interface InteractionSignIn {
  readonly accountId: string;
  readonly amr: readonly string[];
}

/**
 * The OpenID engine's interactions, as the `/account/` pages drive them. Each call reads the
 * interaction's cookie from the request, so only the browser that started an authorization can
 * see or finish it; each finishing call answers where to send the browser next (back to the
 * engine, which answers the application).
 */
export interface OpenIdInteractions {
  /** Null when this browser has no such interaction (another browser's, expired, finished). */
  details(c: Context, uid: string): Promise<OpenIdInteraction | null>;
  signedIn(c: Context, uid: string, signIn: InteractionSignIn): Promise<string>;
  /** The user let the application in with the scopes it asked. */
  consented(c: Context, uid: string): Promise<string>;
  /** The user declined: the application gets `access_denied`. */
  declined(c: Context, uid: string): Promise<string>;
}
