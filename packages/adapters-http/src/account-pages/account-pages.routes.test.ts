import { type ActionPurpose, EmailTakenError, passwordProblem, ValidationError } from '@uas/domain';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing';
import type { AccountActions } from './account-actions';

const APP_URL = 'https://app.example.com/welcome?from=account&x=<y>';
const SAME_ORIGIN = { Origin: 'http://localhost' };
const PASSWORD = 'a-new-password-1';

/** Every page, with the purpose of the tokens it takes and whether it asks for a password. */
const PAGES = [
  { page: 'verify', purpose: 'verification', password: false },
  { page: 'confirm-email', purpose: 'email_change', password: false },
  { page: 'reset-password', purpose: 'recovery', password: true },
  { page: 'accept-invitation', purpose: 'invitation', password: true },
] as const satisfies readonly { page: string; purpose: ActionPurpose; password: boolean }[];

/**
 * The pages over the domain's real single-use tokens: each action uses the token of its purpose,
 * refusing a password the rules refuse before it does (as the services promise). `taken` makes
 * the email change find its address taken.
 */
async function pagesApp({ appUrl = null as string | null } = {}) {
  const state: { t?: TestApp; taken: boolean } = { taken: false };
  const use = (purpose: ActionPurpose, token: unknown) => state.t!.actionTokens.use(purpose, token);
  const checked = (password: unknown) => {
    const problem = typeof password === 'string' ? passwordProblem(password) : 'must be a string';
    if (problem) throw new ValidationError([{ source: { pointer: '/password' }, detail: `password ${problem}` }]);
  };
  const accountActions: AccountActions = {
    async verify(token) {
      const used = await use('verification', token).catch(() => use('email_change', token));
      if (used.purpose === 'email_change' && state.taken) throw new EmailTakenError();
    },
    async resetPassword(token, password) {
      checked(password);
      await use('recovery', token);
    },
    async acceptInvitation(token, password) {
      checked(password);
      await use('invitation', token);
    },
  };
  const t = await createTestApp({ accountActions, appUrl });
  state.t = t;
  const user = await t.createUser({ email: 'ann@example.com' });
  return {
    t,
    state,
    async issue(purpose: ActionPurpose): Promise<string> {
      let token = '';
      await t.actionTokens.issue(purpose, { userId: user.id, email: user.email }, (issued) => {
        token = issued;
        return t.deps.mail.compose('test', user.email, { recipient: user.email });
      });
      return token;
    },
    open: (page: string, query = '') => t.app.request(`/account/${page}${query}`),
    post: (page: string, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) =>
      t.app.request(`/account/${page}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
  };
}

const formFields = (
  page: (typeof PAGES)[number],
  token: string,
  password = PASSWORD,
  confirmation = password,
): Record<string, string> => (page.password ? { token, password, confirmation } : { token });

function expectPageHeaders(response: Response) {
  expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'self'");
}

describe.each(PAGES)('/account/$page', (page) => {
  it('GET shows the form, with the token in a hidden field, as often as it is opened, consuming nothing', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    for (let opened = 0; opened < 3; opened++) {
      const response = await p.open(page.page, `?token=${token}`);
      expect(response.status).toBe(200);
      expectPageHeaders(response);
      const body = await response.text();
      expect(body).toContain('<html lang="en">');
      expect(body).toMatch(/<h1>[^<]+<\/h1>/);
      expect(body).toContain(`<form method="post" action="${page.page}">`);
      expect(body).toContain(`<input type="hidden" name="token" value="${token}">`);
      expect(body).toContain('<button type="submit">');
      if (page.password) {
        for (const id of ['password', 'confirmation']) {
          expect(body).toContain(`<label for="${id}">`);
          expect(body).toContain(
            `<input id="${id}" name="${id}" type="password" autocomplete="new-password" required>`,
          );
        }
      } else {
        expect(body).not.toContain('type="password"');
      }
    }
    expect((await p.post(page.page, formFields(page, token))).status).toBe(200);
  });

  it('POST acts once: the done page, then the same token is an invalid link', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    const done = await p.post(page.page, formFields(page, token));
    expect(done.status).toBe(200);
    expectPageHeaders(done);
    const body = await done.text();
    expect(body).toContain('role="status"');
    expect(body).toContain('You can close this page.');
    expect(body).not.toContain('<form');
    expect(body).not.toContain(token);

    const again = await p.post(page.page, formFields(page, token));
    expect(again.status).toBe(400);
    const refused = await again.text();
    expect(refused).toContain('<p role="alert">This link is invalid, has already been used, or has expired.</p>');
    expect(refused).toContain('<title>Error: ');
    expect(refused).not.toContain('<form');
  });

  it('leads to APP_URL once done, and only there, escaped', async () => {
    const p = await pagesApp({ appUrl: APP_URL });
    const token = await p.issue(page.purpose);
    const response = await p.post(page.page, formFields(page, token), {
      ...SAME_ORIGIN,
      Referer: 'https://evil.example/',
    });
    const body = await response.text();
    expect(body).toContain('<a class="continue" href="https://app.example.com/welcome?from=account&amp;x=&lt;y&gt;">');
    expect(body).not.toContain('evil.example');
    expect(response.headers.get('location')).toBeNull();
  });

  it.each([
    ['no token', ''],
    ['an empty token', '?token='],
    ['a token too short to be one', '?token=abc'],
    ['a hostile token', `?token=${encodeURIComponent('"><script>alert(1)</script>')}&x=<img src=x onerror=alert(1)>`],
  ])('GET with %s says the link is invalid (400), with no form', async (_case, query) => {
    const p = await pagesApp();
    const response = await p.open(page.page, query);
    expect(response.status).toBe(400);
    expectPageHeaders(response);
    const body = await response.text();
    expect(body).toContain('This link is invalid, has already been used, or has expired.');
    expect(body).not.toContain('<form');
    expect(body).not.toContain('<script');
    expect(body).not.toContain('<img');
  });

  it('POST of a well-formed token that was never issued, or of a hostile one, is an invalid link (400)', async () => {
    const p = await pagesApp();
    for (const token of ['A'.repeat(43), '"><script>alert(1)</script>', '']) {
      const response = await p.post(page.page, formFields(page, token));
      expect(response.status).toBe(400);
      const body = await response.text();
      expect(body).toContain('This link is invalid');
      expect(body).not.toContain('<script');
    }
  });

  it('refuses a post from another site (403), which leaves the token usable', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      {},
    ];
    for (const headers of crossSite) {
      const response = await p.post(page.page, formFields(page, token), headers);
      expect(response.status).toBe(403);
      expectPageHeaders(response);
      expect(await response.text()).toContain('This form was sent from another site, so nothing was done.');
    }
    const sameOrigin = await p.post(page.page, formFields(page, token), { 'Sec-Fetch-Site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
  });

  it('takes only a URL-encoded form (415 otherwise) and leaves the token usable', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    const json = await p.t.app.request(`/account/${page.page}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...SAME_ORIGIN },
      body: JSON.stringify(formFields(page, token)),
    });
    expect(json.status).toBe(415);
    expect((await p.post(page.page, formFields(page, token))).status).toBe(200);
  });

  it('never writes the token to a log line', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    await p.open(page.page, `?token=${token}`);
    await p.post(page.page, formFields(page, token));
    await p.post(page.page, formFields(page, token));
    expect(p.t.logger.text()).not.toContain(token);
  });
});

describe.each(PAGES.filter(({ password }) => password))('/account/$page, choosing a password', (page) => {
  it('two different passwords: 422, the error on the confirmation, announced and tied to it; the token kept and usable', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    const response = await p.post(page.page, formFields(page, token, PASSWORD, `${PASSWORD}x`));
    expect(response.status).toBe(422);
    expectPageHeaders(response);
    const body = await response.text();
    expect(body).toContain('<title>Error: ');
    expect(body).toContain(
      '<p class="error" id="confirmation-error" role="alert">The two passwords are not the same.</p>',
    );
    expect(body).toContain(
      '<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" required aria-invalid="true" aria-describedby="confirmation-error" autofocus>',
    );
    expect(body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(body).not.toContain(PASSWORD);
    expect((await p.post(page.page, formFields(page, token))).status).toBe(200);
  });

  it('a password the rules refuse: 422 with their reason on the password field; the token kept and usable', async () => {
    const p = await pagesApp();
    const token = await p.issue(page.purpose);
    const response = await p.post(page.page, formFields(page, token, 'short'));
    expect(response.status).toBe(422);
    const body = await response.text();
    expect(body).toContain(
      '<p class="error" id="password-error" role="alert">Password must be at least 8 bytes long.</p>',
    );
    expect(body).toContain('aria-describedby="password-error" autofocus>');
    expect(body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(body).not.toContain('value="short"');
    expect((await p.post(page.page, formFields(page, token))).status).toBe(200);
  });
});

describe('/account/confirm-email', () => {
  it('says the address was taken meanwhile (409), changing nothing', async () => {
    const p = await pagesApp();
    p.state.taken = true;
    const token = await p.issue('email_change');
    const response = await p.post('confirm-email', { token });
    expect(response.status).toBe(409);
    expectPageHeaders(response);
    expect(await response.text()).toContain('Another account uses this email address now');
  });
});

describe('the account pages beside the API', () => {
  it('serve their stylesheet from this origin', async () => {
    const p = await pagesApp();
    const response = await p.open('account.css');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('leave the API JSON-only: a form posted to an API route is still 415', async () => {
    const p = await pagesApp();
    const response = await p.t.app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com&password=x',
    });
    expect(response.status).toBe(415);
  });

  it('hold a posted form to the size limit of every body (413)', async () => {
    const p = await pagesApp();
    const response = await p.post('verify', { token: 'A'.repeat(43), padding: 'x'.repeat(1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it('answer an unknown page under /account/ with a 404', async () => {
    const p = await pagesApp();
    expect((await p.open('nothing-here')).status).toBe(404);
  });

  it('are not API operations: the OpenAPI document leaves them out', async () => {
    const p = await pagesApp();
    const document = (await (await p.t.app.request('/v1/openapi.json')).json()) as { paths: object };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/account'))).toEqual([]);
  });

  it('do not hide an unexpected failure behind an invalid-link page', async () => {
    const t = await createTestApp({
      accountActions: {
        verify: async () => {
          throw new Error('database down');
        },
      },
    });
    const response = await t.app.request('/account/verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...SAME_ORIGIN },
      body: `token=${'A'.repeat(43)}`,
    });
    expect(response.status).toBe(500);
  });
});
