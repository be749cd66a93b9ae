import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, fromAddress, jsonInit, loginDocument, type TestApp, usersDocument } from '../testing';

const APP_URL = 'https://app.example.com/welcome?from=account&x=<y>';
const SAME_ORIGIN = { Origin: 'http://localhost' };
const PASSWORD = 'first-password-1';
const NEW_PASSWORD = 'a-new-password-2';

interface MailedLink {
  token: string;
  /** Whether the page's action took effect for the account the link was sent about. */
  done(): Promise<boolean>;
}

/**
 * Each page served, with the real flow that mails its link (through the API, read back from the
 * outbox) and what its action changes. A password page also asks for `password`, `confirmation`.
 */
interface PageCase {
  page: string;
  choosesPassword: boolean;
  mailLink(t: TestApp): Promise<MailedLink>;
}

/** The token of the newest message to `recipient`, read through the admin API as the Mail page does. */
async function mailedToken(t: TestApp, recipient: string, page: string): Promise<string> {
  const { accessToken } = await t.loginAdmin();
  const list = (await (
    await t.app.request('/v1/admin/mail?page[size]=100', { headers: bearer(accessToken) })
  ).json()) as {
    data: { id: string; attributes: { recipient: string } }[];
  };
  const message = list.data.find(({ attributes }) => attributes.recipient === recipient);
  if (!message) throw new Error(`no message to ${recipient}`);
  const read = (await (
    await t.app.request(`/v1/admin/mail/${message.id}`, { headers: bearer(accessToken) })
  ).json()) as {
    data: { attributes: { body: { text: string } } };
  };
  const link = new URL(
    /https?:\/\/\S+\/account\/[a-z-]+\?token=[\w-]+/.exec(read.data.attributes.body.text)?.[0] ?? '',
  );
  expect(link.pathname).toBe(`/account/${page}`);
  return link.searchParams.get('token') ?? '';
}

const PAGES: readonly PageCase[] = [
  {
    page: 'verify',
    choosesPassword: false,
    async mailLink(t) {
      const email = 'vera@example.com';
      const signUp = await t.app.request('/v1/signup', jsonInit('POST', usersDocument({ email, password: PASSWORD })));
      expect(signUp.status).toBe(202);
      const token = await mailedToken(t, email, 'verify');
      return { token, done: async () => (await t.loginUser(email, PASSWORD)).response.status === 200 };
    },
  },
  {
    page: 'confirm-email',
    choosesPassword: false,
    async mailLink(t) {
      const user = await t.createUser({ email: 'carl@example.com', password: PASSWORD });
      const { accessToken } = await t.loginUser(user.email, PASSWORD);
      const newEmail = 'carl.new@example.com';
      const change = await t.app.request(
        '/v1/users/me/email',
        jsonInit('POST', { email: newEmail, current_password: PASSWORD }, bearer(accessToken)),
      );
      expect(change.status).toBe(202);
      const token = await mailedToken(t, newEmail, 'confirm-email');
      return { token, done: async () => (await t.loginUser(newEmail, PASSWORD)).response.status === 200 };
    },
  },
  {
    page: 'reset-password',
    choosesPassword: true,
    async mailLink(t) {
      const user = await t.createUser({ email: 'rosa@example.com', password: PASSWORD });
      const recover = await t.app.request('/v1/recover', jsonInit('POST', { email: user.email }));
      expect(recover.status).toBe(202);
      // The request is resolved off the request path, by the worker the server runs.
      await t.deps.mailRequests.resolveDue(10);
      const token = await mailedToken(t, user.email, 'reset-password');
      return { token, done: async () => (await t.loginUser(user.email, NEW_PASSWORD)).response.status === 200 };
    },
  },
  {
    page: 'accept-invitation',
    choosesPassword: true,
    async mailLink(t) {
      const email = 'ines@example.com';
      const { accessToken } = await t.loginAdmin();
      const invite = await t.app.request(
        '/v1/admin/invitations',
        jsonInit('POST', { data: { type: 'invitations', attributes: { email } } }, bearer(accessToken)),
      );
      expect(invite.status).toBe(201);
      const token = await mailedToken(t, email, 'accept-invitation');
      return { token, done: async () => (await t.loginUser(email, NEW_PASSWORD)).response.status === 200 };
    },
  },
  {
    page: 'admin-invitation',
    choosesPassword: true,
    async mailLink(t) {
      const email = 'ada.admin@example.com';
      const { accessToken } = await t.loginAdmin();
      const invite = await t.app.request(
        '/v1/admin/admins',
        jsonInit('POST', { data: { type: 'admins', attributes: { email, role: 'support' } } }, bearer(accessToken)),
      );
      expect(invite.status).toBe(201);
      const token = await mailedToken(t, email, 'admin-invitation');
      const adminLogin = () => t.app.request('/v1/admin/login', jsonInit('POST', loginDocument(email, NEW_PASSWORD)));
      return { token, done: async () => (await adminLogin()).status === 200 };
    },
  },
];

async function pagesApp({ appUrl = null as string | null } = {}) {
  const t = await createTestApp({ appUrl });
  return {
    t,
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
  page: PageCase,
  token: string,
  password = NEW_PASSWORD,
  confirmation = password,
): Record<string, string> => (page.choosesPassword ? { token, password, confirmation } : { token });

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
    const link = await page.mailLink(p.t);
    for (let opened = 0; opened < 3; opened++) {
      const response = await p.open(page.page, `?token=${link.token}`);
      expect(response.status).toBe(200);
      expectPageHeaders(response);
      const body = await response.text();
      expect(body).toContain('<html lang="en">');
      expect(body).toMatch(/<h1>[^<]+<\/h1>/);
      expect(body).toContain(`<form method="post" action="${page.page}">`);
      expect(body).toContain(`<input type="hidden" name="token" value="${link.token}">`);
      expect(body).toContain('<button type="submit">');
      if (page.choosesPassword) {
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
    expect(await link.done()).toBe(false);
    expect((await p.post(page.page, formFields(page, link.token))).status).toBe(200);
    expect(await link.done()).toBe(true);
  });

  it('POST acts once: the done page, then the same token is an invalid link', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    const done = await p.post(page.page, formFields(page, link.token));
    expect(done.status).toBe(200);
    expectPageHeaders(done);
    const body = await done.text();
    expect(body).toContain('role="status"');
    expect(body).toContain('You can close this page.');
    expect(body).not.toContain('<form');
    expect(body).not.toContain(link.token);

    const again = await p.post(page.page, formFields(page, link.token));
    expect(again.status).toBe(400);
    const refused = await again.text();
    expect(refused).toContain('<p role="alert">This link is invalid, has already been used, or has expired.</p>');
    expect(refused).toContain('<title>Error: ');
    expect(refused).not.toContain('<form');
  });

  it('leads to APP_URL once done, and only there, escaped', async () => {
    const p = await pagesApp({ appUrl: APP_URL });
    const link = await page.mailLink(p.t);
    const response = await p.post(page.page, formFields(page, link.token), {
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
    const link = await page.mailLink(p.t);
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      {},
    ];
    for (const headers of crossSite) {
      const response = await p.post(page.page, formFields(page, link.token), headers);
      expect(response.status).toBe(403);
      expectPageHeaders(response);
      expect(await response.text()).toContain('This form was sent from another site, so nothing was done.');
    }
    expect(await link.done()).toBe(false);
    const sameOrigin = await p.post(page.page, formFields(page, link.token), { 'Sec-Fetch-Site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
  });

  it('takes only a URL-encoded form (415 otherwise) and leaves the token usable', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    const json = await p.t.app.request(`/account/${page.page}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...SAME_ORIGIN },
      body: JSON.stringify(formFields(page, link.token)),
    });
    expect(json.status).toBe(415);
    expect((await p.post(page.page, formFields(page, link.token))).status).toBe(200);
  });

  it('an expired link is an invalid link (400), though its GET still shows the form', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    p.t.clock.advance(8 * 24 * 60 * 60);
    expect((await p.open(page.page, `?token=${link.token}`)).status).toBe(200);
    const response = await p.post(page.page, formFields(page, link.token));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This link is invalid, has already been used, or has expired.');
  });

  it("records the page's request with the change in the audit trail, as the API records its own", async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    await p.t.app.request(
      `/account/${page.page}`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Sec-Fetch-Site': 'same-origin',
          'User-Agent': 'PageBrowser/1.0',
          'X-Request-Id': 'page-request-1',
        },
        body: new URLSearchParams(formFields(page, link.token)).toString(),
      },
      fromAddress('198.51.100.9'),
    );
    const { accessToken } = await p.t.loginAdmin();
    const events = (await (
      await p.t.app.request('/v1/admin/audit-events?page[size]=100', { headers: bearer(accessToken) })
    ).json()) as {
      data: { attributes: { request_id: string | null; client_address: string | null; user_agent: string | null } }[];
    };
    const recorded = events.data.filter(({ attributes }) => attributes.request_id === 'page-request-1');
    expect(recorded.length).toBeGreaterThan(0);
    for (const { attributes } of recorded) {
      expect(attributes).toMatchObject({ client_address: '198.51.100.9', user_agent: 'PageBrowser/1.0' });
    }
    expect(JSON.stringify(events)).not.toContain(link.token);
  });

  it('never writes the token to a log line', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    await p.open(page.page, `?token=${link.token}`);
    await p.post(page.page, formFields(page, link.token));
    await p.post(page.page, formFields(page, link.token));
    expect(p.t.logger.text()).not.toContain(link.token);
  });
});

describe.each(PAGES.filter(({ choosesPassword }) => choosesPassword))('/account/$page, choosing a password', (page) => {
  it('two different passwords: 422, the error on the confirmation, announced and tied to it; the token kept and usable', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    const response = await p.post(page.page, formFields(page, link.token, NEW_PASSWORD, `${NEW_PASSWORD}x`));
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
    expect(body).toContain(`<input type="hidden" name="token" value="${link.token}">`);
    expect(body).not.toContain(NEW_PASSWORD);
    expect(await link.done()).toBe(false);
    expect((await p.post(page.page, formFields(page, link.token))).status).toBe(200);
    expect(await link.done()).toBe(true);
  });

  it('a password the rules refuse: 422 with their reason on the password field; the token kept and usable', async () => {
    const p = await pagesApp();
    const link = await page.mailLink(p.t);
    const response = await p.post(page.page, formFields(page, link.token, 'short'));
    expect(response.status).toBe(422);
    const body = await response.text();
    expect(body).toContain(
      '<p class="error" id="password-error" role="alert">The password must be at least 8 bytes long.</p>',
    );
    expect(body).toContain('aria-describedby="password-error" autofocus>');
    expect(body).toContain(`<input type="hidden" name="token" value="${link.token}">`);
    expect(body).not.toContain('value="short"');
    expect((await p.post(page.page, formFields(page, link.token))).status).toBe(200);
  });
});

describe('/account/confirm-email', () => {
  it('says the address was taken meanwhile (409), changing nothing and leaving the link usable', async () => {
    const p = await pagesApp();
    const [confirmEmail] = PAGES.filter(({ page }) => page === 'confirm-email');
    const link = await confirmEmail!.mailLink(p.t);
    const taker = await p.t.createUser({ email: 'carl.new@example.com', password: 'the-takers-password' });
    const response = await p.post('confirm-email', { token: link.token });
    expect(response.status).toBe(409);
    expectPageHeaders(response);
    expect(await response.text()).toContain('Another account uses this email address now');
    expect(await link.done()).toBe(false);
    await p.t.deps.users.delete(taker.id);
    expect((await p.post('confirm-email', { token: link.token })).status).toBe(200);
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
});
