import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '@uas/adapters-http';
import { BACKENDS } from '../support/test-application';
import { BCRYPT_PREFIX, rawBody, UNKNOWN_ID, USER_PASSWORD } from '../support/wire';
import { bearer, jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { errorsLike } from '../support/error-expectations';
import { scenarioApplication } from '../support/scenario';

const REQUEST_ID = 'client-chosen.id_42:x';

describe.each(BACKENDS)('wire rules of the admin API on %s', (backend) => {
  const s = scenarioApplication(backend);

  describe('X-Request-Id', () => {
    it.each([
      ['a 200', 200, async () => ['/v1/admin/users', { headers: bearer(await s.client.adminToken()) }]],
      ['a 401', 401, async () => ['/v1/admin/users', {}]],
      ['a 404 of an unknown route', 404, async () => ['/v1/admin/nothing-here', {}]],
      ['a 422', 422, async () => ['/v1/admin/login', jsonInit('POST', {})]],
    ] as [string, number, () => Promise<[string, RequestInit]>][])(
      'is echoed on %s when the client sent one',
      async (_, status, request) => {
        const [path, init] = await request();
        const response = await s.client.request(path, {
          ...init,
          headers: { ...init.headers, 'X-Request-Id': REQUEST_ID },
        });
        expect(response.status).toBe(status);
        expect(response.headers.get('x-request-id')).toBe(REQUEST_ID);
      },
    );

    it('is echoed on a 204', async () => {
      const user = await s.client.createUser({ email: 'request-id-204@example.com' });
      const response = await s.client.request(`/v1/admin/users/${user.id}`, {
        method: 'DELETE',
        headers: { ...bearer(await s.client.adminToken()), 'X-Request-Id': REQUEST_ID },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('x-request-id')).toBe(REQUEST_ID);
    });

    it('is a fresh id for every request that sent none', async () => {
      const ids = await Promise.all(
        [1, 2, 3].map(async () => (await s.client.get('/v1/admin/users')).headers.get('x-request-id')),
      );
      expect(new Set(ids).size).toBe(3);
    });

    it.each([
      ['one with a space, which could forge a log line', 'evil id'],
      ['one of 129 characters', 'x'.repeat(129)],
    ])('replaces %s with its own', async (_, sent) => {
      const response = await s.client.get('/v1/admin/users', undefined, { 'X-Request-Id': sent });
      expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(response.headers.get('x-request-id')).not.toBe(sent);
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/v1/admin/nothing'],
      ['GET', '/v1/nothing'],
    ])('answer %s %s with a JSON 404', async (method, path) => {
      const response = await s.client.request(path, { method, headers: bearer(await s.client.adminToken()) });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'route_not_found']));
    });

    it.each([
      ['PUT', '/v1/admin/users', 'GET, HEAD, POST'],
      ['POST', `/v1/admin/users/${UNKNOWN_ID}`, 'DELETE, GET, HEAD, PATCH'],
      ['GET', '/v1/admin/logout/x', 'DELETE'],
    ])('answer %s %s, a path served with other methods, with 405 and Allow: %s', async (method, path, allow) => {
      const response = await s.client.request(path, { method, headers: bearer(await s.client.adminToken()) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect(await response.json()).toEqual(errorsLike([405, 'method_not_allowed']));
    });
  });

  describe('request bodies of the user routes', () => {
    const oversized = JSON.stringify(
      usersDocument({ email: 'big@example.com', password: USER_PASSWORD, name: 'x'.repeat(MAX_BODY_BYTES) }),
    );
    it.each([
      ['malformed JSON', () => rawBody('POST', '{"data": {', 'application/json'), 400, 'malformed_json'],
      [
        'a form-encoded body',
        () => rawBody('POST', 'email=a%40b.io&password=password-123', 'application/x-www-form-urlencoded'),
        415,
        'unsupported_media_type',
      ],
      ['a body over 1 MiB', () => rawBody('POST', oversized, 'application/json'), 413, 'payload_too_large'],
      [
        'a JSON array',
        () => jsonInit('POST', [usersDocument({ email: 'array@example.com', password: USER_PASSWORD })]),
        422,
        'invalid_attribute',
      ],
    ])('POST /v1/admin/users answers %s with %i', async (_, init, status, code) => {
      const request = init();
      const response = await s.client.request('/v1/admin/users', {
        ...request,
        headers: { ...request.headers, ...bearer(await s.client.adminToken()) },
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual(errorsLike([status, code]));
    });

    it('PATCH /v1/admin/users/{uuid} answers a wrong content type with 415 and changes nothing', async () => {
      const user = await s.client.createUser({ email: 'patch-415@example.com' });
      const token = await s.client.adminToken();
      const response = await s.client.request(`/v1/admin/users/${user.id}`, {
        ...rawBody('PATCH', JSON.stringify(usersDocument({ name: 'Changed' })), 'text/plain'),
        headers: { 'Content-Type': 'text/plain', ...bearer(token) },
      });
      expect(response.status).toBe(415);
      expect((await (await s.client.get(`/v1/admin/users/${user.id}`, token)).json()).data).toEqual(user);
    });
  });

  describe('hostile input', () => {
    it.each([
      [
        'a login with an email of 20,000 characters',
        401,
        () => s.client.login(`${'a'.repeat(20_000)}@example.com`, 'wrong-password-1'),
      ],
      [
        'a login with a password of 100,000 characters',
        401,
        () => s.client.login(s.t.admin.email, 'p'.repeat(100_000)),
      ],
      ['a refresh token of 500,000 characters', 401, () => s.client.refresh('a'.repeat(500_000))],
      ['a Bearer token of 100,000 characters', 401, () => s.client.get('/v1/admin/users', 'a'.repeat(100_000))],
      [
        'a search term with a bare %',
        200,
        async () => s.client.get('/v1/admin/users?search[email]=a%b', await s.client.adminToken()),
      ],
      [
        'a user id with broken percent-encoding',
        404,
        async () => s.client.get('/v1/admin/users/%E0%A4%A', await s.client.adminToken()),
      ],
      [
        'a page number far past any listing',
        200,
        async () => s.client.get('/v1/admin/users?page[number]=90071992547409', await s.client.adminToken()),
      ],
    ] as [string, number, () => Promise<Response>][])('answers %s with %i, never a 500', async (_, status, send) => {
      expect((await send()).status).toBe(status);
    });
  });

  it('writes no password, bcrypt hash or token into any log line, however the requests go', async () => {
    const admin = await s.client.adminSession();
    await s.client.login(s.t.admin.email, 'not-the-password-1');
    const user = await s.client.createUser({ email: 'logged@example.com' });
    await s.client.send(
      'PATCH',
      `/v1/admin/users/${user.id}`,
      usersDocument({ password: 'another-password-2' }),
      admin.accessToken,
    );
    await s.client.send(
      'POST',
      '/v1/admin/users',
      usersDocument({ email: 'bad', password: 'short' }),
      admin.accessToken,
    );
    await s.client.refresh(admin.refreshToken);
    await s.client.refresh(admin.refreshToken); // reuse
    await s.client.get('/v1/admin/users', 'Bearer-garbage-token-1234567890');
    const lines = s.t.logs.join('\n');
    expect(lines).toContain('"path":"/v1/admin/users"');
    for (const secret of [
      s.t.admin.password,
      'not-the-password-1',
      USER_PASSWORD,
      'another-password-2',
      admin.accessToken,
      admin.refreshToken,
      BCRYPT_PREFIX,
    ]) {
      expect(lines).not.toContain(secret);
    }
  });
});
