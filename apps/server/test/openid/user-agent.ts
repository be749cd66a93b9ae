import { expect } from 'vitest';
import { postForms, refreshTarget, submission } from '../../../../scripts/html-pages';
import { CookieJar } from '../support/cookie-jar';

/** Where a trip through the service ended. */
export type Stop =
  /** The browser was sent out of the service: to the client's redirect URI (a code or an error), or a logout's return. */
  | { kind: 'left'; url: URL }
  /** A page of the service (a sign-in form, a consent page, an error page), with the last answer. */
  | { kind: 'page'; url: URL; status: number; html: string; headers: Headers };

const HOPS = 12;

/**
 * A browser without a script engine, over real HTTP: follows the service's redirects and meta
 * refreshes by hand and keeps its cookies (each by name, as the service set them), stops at the
 * first address outside the service or at a page.
 */
export class UserAgent {
  /**
   * `origin`: the service's, as PUBLIC_URL names it. `via`: the origin of the instance its
   * requests reach instead, behind that same PUBLIC_URL (a load balancer's pick).
   */
  constructor(
    readonly origin: string,
    private via = origin,
    private readonly cookies = new CookieJar(),
  ) {}

  /** The same browser's request going out at the same time to the instance at `via`, with the cookies it holds now. */
  twin(via: string): UserAgent {
    return new UserAgent(this.origin, via, this.cookies.copy());
  }

  /** The value of its cookie `name`, if it holds one. */
  cookie(name: string): string | undefined {
    return this.cookies.value(name);
  }

  /** From now on its requests reach the instance at `origin`. */
  switchTo(origin: string): this {
    this.via = origin;
    return this;
  }

  /** One request to the service, its cookies sent and kept, redirects not followed. */
  async request(url: string | URL, form?: URLSearchParams): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = this.cookies.header;
    // A form of the service's pages, posted from them: the browser says so with Origin.
    if (form) Object.assign(headers, { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.origin });
    // Another instance, reached at its own address here, cannot match that Origin to where it
    // listens; Sec-Fetch-Site, which a browser sends too, holds behind any load balancer.
    if (form && this.via !== this.origin) headers['Sec-Fetch-Site'] = 'same-origin';
    const target = new URL(url);
    const response = await fetch(
      target.origin === this.origin ? new URL(`${target.pathname}${target.search}`, this.via) : target,
      { method: form ? 'POST' : 'GET', headers, body: form?.toString(), redirect: 'manual' },
    );
    this.cookies.keep(response);
    return response;
  }

  /** Navigates to `start` (or posts `form` to it) and follows the service's redirects to a stop. */
  async navigate(start: string | URL, form?: URLSearchParams): Promise<Stop> {
    let url = new URL(start, this.origin);
    let body = form;
    for (let hop = 0; hop < HOPS; hop++) {
      const response = await this.request(url, body);
      body = undefined;
      const redirect = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      let location = redirect;
      if (redirect === null) {
        const html = await response.text();
        location = response.status === 200 ? refreshTarget(html) : null;
        if (location === null) return { kind: 'page', url, status: response.status, html, headers: response.headers };
      } else await response.body?.cancel();
      url = new URL(location!, url);
      if (url.origin !== this.origin) return { kind: 'left', url };
    }
    throw new Error(`more than ${HOPS} redirects from ${start}`);
  }

  /** Submits the page's form (the one whose button reads `button`, else the first) with `values` filled in. */
  submit(page: Stop, values: Record<string, string> = {}, button?: string): Promise<Stop> {
    if (page.kind !== 'page') throw new Error(`no page to submit: the browser left for ${page.url}`);
    const { action, body } = submission(page.html, values, button);
    return this.navigate(new URL(action || page.url.href, page.url), body);
  }
}

/** The address the browser was sent to outside the service; fails the test on a page. */
export function left(stop: Stop): URL {
  expect(stop.kind, stop.kind === 'page' ? `${stop.status} at ${stop.url}: ${stop.html.slice(0, 500)}` : '').toBe(
    'left',
  );
  return (stop as Extract<Stop, { kind: 'left' }>).url;
}

/** A user of the tests: the address and password the sign-in page is given. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/**
 * Walks the browser through an authorization: `start` (the authorization request), the sign-in
 * page if the service shows one (filled with `user`'s email and password), the consent page if
 * it shows one (allowed), to where the service sends the browser back. Answers that address and
 * whether each page was shown.
 */
export async function authorize(agent: UserAgent, start: URL, user: TestUser) {
  let stop = await agent.navigate(start);
  const shown = { signIn: false, consent: false };
  if (stop.kind === 'page' && isSignInPage(stop)) {
    shown.signIn = true;
    stop = await agent.submit(stop, { email: user.email, password: user.password });
  }
  if (stop.kind === 'page' && isConsentPage(stop)) {
    shown.consent = true;
    stop = await agent.submit(stop, {}, consentButton(stop, /allow/i));
  }
  return { callback: left(stop), shown };
}

const isSignInPage = (stop: Stop & { kind: 'page' }) => stop.status === 200 && /name="password"/.test(stop.html);
const isConsentPage = (stop: Stop & { kind: 'page' }) => stop.status === 200 && stop.url.pathname.endsWith('/consent');
function consentButton(stop: Stop & { kind: 'page' }, label: RegExp): string {
  const button = postForms(stop.html)
    .flatMap((form) => [...form.buttons.keys()])
    .find((text) => label.test(text));
  if (!button) throw new Error(`no ${label} button on the consent page: ${stop.html.slice(0, 500)}`);
  return button;
}
