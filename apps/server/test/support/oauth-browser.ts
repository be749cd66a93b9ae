import { createHash, randomBytes } from 'node:crypto';
import type { TestApplication } from './test-application';

/** The service as providers and browsers know it: the callback registered at a provider is PUBLIC_URL's. */
export const PUBLIC_URL = 'http://127.0.0.1:3000/';
/** The app that signs its users in, listed in REDIRECT_ALLOW_LIST. */
export const APP_ORIGIN = 'https://app.example';

/** What every identity-provider suite starts the service with: providers on loopback over http. */
export const LOOPBACK_PROVIDERS_ENV = {
  PUBLIC_URL,
  REDIRECT_ALLOW_LIST: APP_ORIGIN,
  IDENTITY_PROVIDER_ALLOW_HTTP: 'true',
  IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES: 'true',
  // Each suite starts far more sign-ins from one address than a person would; the limit has its own tests.
  OAUTH_STARTS_PER_MINUTE: '1000',
};

/** An app's PKCE pair, as a browser app makes one per sign-in. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where a trip through a provider ended: the app's URL the browser was sent to, and each hop. */
export interface Landing {
  /** The first URL outside the service and the providers (the app's `redirect_to`), or null. */
  url: URL | null;
  /** The last response, when the trip ended at the service itself (a 400, a 422). */
  last: Response;
}

const HOPS = 10;

/**
 * A browser without a script engine: follows redirects by hand, keeps the service's cookies (sent
 * only to the service, a POST from another site's page without them, as SameSite=Lax does),
 * submits a provider's auto-posting form (Apple's `form_post`), and stops at the first URL that
 * is neither the service (PUBLIC_URL, reached through `service`'s `app.request`) nor a provider
 * on loopback, 127.0.0.1 or localhost (reached over the network).
 */
export class OAuthBrowser {
  readonly cookies = new Map<string, string>();
  /** Every answer of the service (status, headers, body), to check what none of them may carry. */
  readonly seen: string[] = [];

  constructor(private service: TestApplication) {}

  /** Another instance of the same service behind the same PUBLIC_URL, as a load balancer would pick. */
  via(service: TestApplication): this {
    this.service = service;
    return this;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Navigates to `start` (a service path or any URL) and follows the trip to its end. */
  async navigate(start: string): Promise<Landing> {
    let url = new URL(start, PUBLIC_URL);
    let post: URLSearchParams | null = null;
    for (let hop = 0; hop < HOPS; hop++) {
      const answer = await this.load(url, post);
      post = null;
      const location = answer.headers.get('location');
      if (location !== null) {
        url = new URL(location, url);
      } else {
        const form = answer.status === 200 ? autoPostingForm(await answer.clone().text()) : null;
        if (!form) return { url: null, last: answer };
        url = new URL(form.action, url);
        post = form.fields;
      }
      const loopback = url.hostname === 'localhost' || url.hostname.startsWith('127.');
      if (url.origin !== new URL(PUBLIC_URL).origin && !loopback) {
        return { url, last: answer };
      }
      // A same-origin `redirect_to` path: the app is the service's own origin, and the trip ends there.
      if (url.origin === new URL(PUBLIC_URL).origin && !url.pathname.startsWith('/v1/oauth/')) {
        return { url, last: answer };
      }
    }
    throw new Error(`more than ${HOPS} redirects from ${start}`);
  }

  private async load(url: URL, form: URLSearchParams | null): Promise<Response> {
    const method = form ? 'POST' : 'GET';
    if (url.origin !== new URL(PUBLIC_URL).origin) {
      return fetch(url, { method, body: form ?? undefined, redirect: 'manual' });
    }
    const headers: Record<string, string> = form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {};
    // SameSite=Lax: a cross-site POST (a provider's form) comes without the cookie.
    if (!form && this.cookies.size > 0) headers.Cookie = this.cookieHeader;
    const answer = await this.service.app.request(`${url.pathname}${url.search}`, {
      method,
      headers,
      body: form?.toString(),
    });
    this.seen.push(`${answer.status} ${[...answer.headers].join(' ')} ${await answer.clone().text()}`);
    for (const line of answer.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const gone = value === '' || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute));
      if (gone) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return answer;
  }
}

function autoPostingForm(html: string): { action: string; fields: URLSearchParams } | null {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return null;
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields.set(name!, decodeHtml(value!));
  }
  return { action: decodeHtml(action), fields };
}

const decodeHtml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
