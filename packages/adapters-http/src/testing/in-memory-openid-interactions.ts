import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { InteractionSignIn, OpenIdInteraction, OpenIdInteractions } from '../openid/openid-interactions';

/** The cookie that binds an interaction to its browser, as the engine's does. */
export const TEST_INTERACTION_COOKIE = '_interaction';

/** How the fake engine ended an interaction: whom it signed in, or what the user decided. */
export type FinishedInteraction =
  | { readonly uid: string; readonly outcome: 'signed_in'; readonly signIn: InteractionSignIn }
  | { readonly uid: string; readonly outcome: 'consented' | 'declined' };

/**
 * The engine's interactions in memory, for the pages' route tests: `start` plays an application
 * sending a browser to the engine (the interaction, and the cookie its browser holds); each
 * finishing call records its outcome and answers the engine's resume address, as the real
 * engine does. The real engine is proven by the browser test.
 */
export class InMemoryOpenIdInteractions implements OpenIdInteractions {
  private readonly pending = new Map<string, { interaction: OpenIdInteraction; browser: string }>();
  readonly finished: FinishedInteraction[] = [];
  private count = 0;

  /** `publicUrl`: where the engine's resume addresses are (PUBLIC_URL). */
  constructor(private readonly publicUrl: string) {}

  start({
    prompt = 'login',
    client = { id: 'client-1', name: 'Example App' },
    scopes = ['openid', 'email'],
    accountId = null,
    loginHint = null,
  }: Partial<Omit<OpenIdInteraction, 'uid'>> = {}): { uid: string; cookie: string } {
    this.count += 1;
    const uid = `interaction-${this.count}`;
    const browser = `browser-${this.count}-${crypto.randomUUID()}`;
    this.pending.set(uid, { interaction: { uid, prompt, client, scopes, accountId, loginHint }, browser });
    return { uid, cookie: `${TEST_INTERACTION_COOKIE}=${browser}` };
  }

  async details(c: Context, uid: string): Promise<OpenIdInteraction | null> {
    const entry = this.pending.get(uid);
    return entry && getCookie(c, TEST_INTERACTION_COOKIE) === entry.browser ? entry.interaction : null;
  }

  async signedIn(c: Context, uid: string, signIn: InteractionSignIn): Promise<string> {
    this.finish(c, uid, { uid, outcome: 'signed_in', signIn });
    return this.resume(uid);
  }

  async consented(c: Context, uid: string): Promise<string> {
    this.finish(c, uid, { uid, outcome: 'consented' });
    return this.resume(uid);
  }

  async declined(c: Context, uid: string): Promise<string> {
    this.finish(c, uid, { uid, outcome: 'declined' });
    return this.resume(uid);
  }

  private resume(uid: string): string {
    return `${this.publicUrl}oidc/auth/${uid}`;
  }

  private finish(c: Context, uid: string, outcome: FinishedInteraction): void {
    const entry = this.pending.get(uid);
    if (!entry || getCookie(c, TEST_INTERACTION_COOKIE) !== entry.browser)
      throw new Error(`no interaction ${uid} here`);
    this.pending.delete(uid);
    this.finished.push(outcome);
  }
}
