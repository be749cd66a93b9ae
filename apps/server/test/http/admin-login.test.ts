import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, REFRESH_COOKIE } from '@uas/adapters-http';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { adminSessionRecord, BEARER_CHALLENGE, rawBody } from '../support/wire';
import { attribute, errorsLike } from '../support/error-expectations';
import { jsonInit, loginDocument, responseCookies } from '@uas/adapters-http/testing';
import { scenarioApplication } from '../support/scenario';

const LOGIN = '/v1/admin/login';
const WRONG_PASSWORD = 'wrong-password-1';
const ATTACKER = '203.0.113.9';
const OFFICE = '198.51.100.7';

/** A login document padded with spaces to exactly `bytes` bytes: still valid JSON. */
function paddedLogin(t: TestApplication, bytes: number): string {
  const json = JSON.stringify(loginDocument(t.admin.email, t.admin.password));
  return `${json}${' '.repeat(bytes - Buffer.byteLength(json))}`;
}

interface RefusedLogin {
  name: string;
  init: (t: TestApplication) => RequestInit;
  status: number;
  body: unknown;
}

const refusedLogins: RefusedLogin[] = [
  {
    name: 'a document without email and password: 422, one error per missing attribute',
    init: () => jsonInit('POST', { data: { type: 'users', attributes: {} } }),
    status: 422,
    body: errorsLike([422, 'invalid_attribute', attribute('email')], [422, 'invalid_attribute', attribute('password')]),
  },
  {
    name: 'an email with a NUL character, which no account can have: 401 like any unknown email',
    init: (t) => jsonInit('POST', loginDocument(`${t.admin.email}\u0000`, t.admin.password)),
    status: 401,
    body: errorsLike([401, 'invalid_credentials']),
  },
  {
    name: 'a missing password: 422 pointing at it',
    init: (t) => jsonInit('POST', { data: { type: 'users', attributes: { email: t.admin.email } } }),
    status: 422,
    body: errorsLike([422, 'invalid_attribute', attribute('password')]),
  },
  {
    name: 'a missing email: 422 pointing at it',
    init: (t) => jsonInit('POST', { data: { type: 'users', attributes: { password: t.admin.password } } }),
    status: 422,
    body: errorsLike([422, 'invalid_attribute', attribute('email')]),
  },
  {
    name: 'a body without data: 422 pointing at /data',
    init: () => jsonInit('POST', {}),
    status: 422,
    body: errorsLike([422, 'invalid_attribute', { pointer: '/data' }]),
  },
  {
    name: 'data.type other than users: 409',
    init: (t) =>
      jsonInit('POST', { data: { type: 'admins', attributes: { email: t.admin.email, password: t.admin.password } } }),
    status: 409,
    body: errorsLike([409, 'resource_conflict', { pointer: '/data/type' }]),
  },
  {
    name: 'malformed JSON: 400',
    init: (t) =>
      rawBody(
        'POST',
        `{"data":{"type":"users","attributes":{"email":"${t.admin.email}","password":"${t.admin.password}"}}`,
        'application/json',
      ),
    status: 400,
    body: errorsLike([400, 'malformed_json']),
  },
  {
    name: 'a JSON body sent as text/plain: 415',
    init: (t) => rawBody('POST', JSON.stringify(loginDocument(t.admin.email, t.admin.password)), 'text/plain'),
    status: 415,
    body: errorsLike([415, 'unsupported_media_type']),
  },
  {
    name: 'a JSON body sent without a content type: 415',
    init: (t) => rawBody('POST', JSON.stringify(loginDocument(t.admin.email, t.admin.password))),
    status: 415,
    body: errorsLike([415, 'unsupported_media_type']),
  },
  {
    name: 'a body of one byte over 1 MiB: 413',
    init: (t) => rawBody('POST', paddedLogin(t, MAX_BODY_BYTES + 1), 'application/json'),
    status: 413,
    body: errorsLike([413, 'payload_too_large']),
  },
];

describe.each(BACKENDS)('POST /v1/admin/login on %s', (backend) => {
  describe('with the right credentials', () => {
    const s = scenarioApplication(backend);

    it('returns the session record, never cached: admin id, name, email, created, a JWT pair and the access expiry in seconds', async () => {
      const response = await s.client.login();
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(body).toEqual(adminSessionRecord(s.t));
      const { data } = body;
      const access = decodeJwt(data.attributes.access_token);
      expect(data.attributes.access_token_expiry).toBe(access.exp);
      expect(access.sub).toBe(data.id);
      expect(decodeJwt(data.attributes.refresh_token).sub).toBe(data.id);
      expect(data.attributes.refresh_token).not.toBe(data.attributes.access_token);
    });

    it('sets the refresh token as an HttpOnly, SameSite=Strict cookie scoped to /v1/admin, living as long as the token', async () => {
      const response = await s.client.login();
      const { data } = await response.json();
      const cookie = responseCookies(response).get(REFRESH_COOKIE);
      expect(cookie?.value).toBe(data.attributes.refresh_token);
      expect(Object.fromEntries(cookie?.attributes ?? [])).toEqual({
        'max-age': '2592000',
        path: '/v1/admin',
        httponly: '',
        samesite: 'Strict',
      });
    });

    it('marks the cookie Secure when served over HTTPS', async () => {
      const response = await s.client.request(
        `https://localhost${LOGIN}`,
        jsonInit('POST', loginDocument(s.t.admin.email, s.t.admin.password)),
      );
      expect(response.status).toBe(200);
      expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.has('secure')).toBe(true);
    });

    it('accepts the email in another case and with surrounding blanks', async () => {
      const response = await s.client.login(`  ${s.t.admin.email.toUpperCase()} `);
      expect(response.status).toBe(200);
    });

    it('accepts application/vnd.api+json, and a body of exactly 1 MiB', async () => {
      const vnd = await s.client.request(
        LOGIN,
        rawBody('POST', JSON.stringify(loginDocument(s.t.admin.email, s.t.admin.password)), 'application/vnd.api+json'),
      );
      expect(vnd.status).toBe(200);
      const full = await s.client.request(LOGIN, rawBody('POST', paddedLogin(s.t, MAX_BODY_BYTES), 'application/json'));
      expect(full.status).toBe(200);
    });
  });

  describe('with bad credentials or a bad request', () => {
    const s = scenarioApplication(backend, {
      env: { LOGIN_FAILURES_PER_ACCOUNT: '1000', LOGIN_FAILURES_PER_ADDRESS: '1000' },
    });

    it('answers a wrong password and an unknown email with the same 401, a Bearer challenge and no cookie', async () => {
      const wrongPassword = await s.client.login(s.t.admin.email, WRONG_PASSWORD);
      const unknownEmail = await s.client.login('nobody@example.com', s.t.admin.password);
      for (const response of [wrongPassword, unknownEmail]) {
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe(BEARER_CHALLENGE);
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      const body = await wrongPassword.json();
      expect(body).toEqual(errorsLike([401, 'invalid_credentials']));
      expect(await unknownEmail.json()).toEqual(body);
    });

    it('does not let an end user log in as admin', async () => {
      await s.client.createUser({ email: 'plain.user@example.com' });
      const response = await s.client.login('plain.user@example.com', 'user-password-1');
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(errorsLike([401, 'invalid_credentials']));
    });

    it.each(refusedLogins.map((refusal) => [refusal.name, refusal] as const))(
      'refuses %s',
      async (_, { init, status, body }) => {
        const response = await s.client.request(LOGIN, init(s.t));
        expect(response.status).toBe(status);
        expect(await response.json()).toEqual(body);
        expect(response.headers.getSetCookie()).toEqual([]);
      },
    );
  });

  describe('brute force on one account', () => {
    const s = scenarioApplication(backend, { fresh: 'each' });

    it('after 10 failures from one address, the 11th attempt gets 429 with Retry-After, even with the right password', async () => {
      for (let failure = 1; failure <= 10; failure += 1) {
        expect((await s.client.login(s.t.admin.email, WRONG_PASSWORD, { address: ATTACKER })).status).toBe(401);
      }
      const throttled = await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('900');
      expect(await throttled.json()).toEqual(errorsLike([429, 'too_many_attempts']));
      expect(throttled.headers.getSetCookie()).toEqual([]);
    });

    it('lets the account in from another address while one address is throttled', async () => {
      for (let failure = 1; failure <= 10; failure += 1)
        await s.client.login(s.t.admin.email, WRONG_PASSWORD, { address: ATTACKER });
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: OFFICE })).status).toBe(200);
    });

    it('lets the address in again once Retry-After seconds have passed', async () => {
      for (let failure = 1; failure <= 10; failure += 1)
        await s.client.login(s.t.admin.email, WRONG_PASSWORD, { address: ATTACKER });
      const throttled = await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER });
      s.t.clock.advance(Number(throttled.headers.get('retry-after')) - 1);
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER })).status).toBe(429);
      s.t.clock.advance(1);
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER })).status).toBe(200);
    });
  });

  describe('brute force across accounts (LOGIN_FAILURES_PER_ADDRESS=4)', () => {
    const s = scenarioApplication(backend, { env: { LOGIN_FAILURES_PER_ADDRESS: '4' }, fresh: 'each' });

    it('after 4 failures on different accounts from one address, that address is refused with 429 for every account', async () => {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
        expect((await s.client.login(email, WRONG_PASSWORD, { address: ATTACKER })).status).toBe(401);
      }
      const throttled = await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('900');
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: OFFICE })).status).toBe(200);
      s.t.clock.advance(900);
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER })).status).toBe(200);
    });

    it('counts 3 failures as still under the limit', async () => {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
        await s.client.login(email, WRONG_PASSWORD, { address: ATTACKER });
      expect((await s.client.login(s.t.admin.email, s.t.admin.password, { address: ATTACKER })).status).toBe(200);
    });
  });
});
