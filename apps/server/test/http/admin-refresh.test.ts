import { describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '@uas/adapters-http';
import { BACKENDS } from '../support/test-application';
import { errorsLike, expectError } from '../support/error-expectations';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  adminSessionRecord,
  BEARER_CHALLENGE,
  CLOCK_TOLERANCE_SECONDS,
  REFRESH_REUSE_GRACE_SECONDS,
  refreshCookie,
  SAME_ORIGIN,
} from '../support/wire';
import { jsonInit, responseCookies } from '@uas/adapters-http/testing';
import { scenarioApplication } from '../support/scenario';
import { type Session, sessionOf } from '../support/admin-api';
import type { AdminClient } from '../support/admin-client';

const REFRESH_PATHS = ['/v1/admin/refresh', '/v1/admin/token/refresh'] as const;
const REFRESH_TTL = 3600;

const canList = async (client: AdminClient, accessToken: string) =>
  (await client.get('/v1/admin/users', accessToken)).status;

describe.each(BACKENDS)('admin refresh on %s', (backend) => {
  describe.each(REFRESH_PATHS)('POST %s', (path) => {
    const s = scenarioApplication(backend, { env: { REFRESH_TOKEN_TTL_SECONDS: String(REFRESH_TTL) } });

    const refreshed = async (session: Session, headers: Record<string, string> = {}) =>
      sessionOf(await s.client.refresh(session.refreshToken, path, headers));

    it('returns the session record with a new access token and a new refresh token, also in the cookie', async () => {
      const session = await s.client.adminSession();
      s.t.clock.advance(1);
      const response = await s.client.refresh(session.refreshToken, path);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body).toEqual(adminSessionRecord(s.t, session.id));
      const { access_token: accessToken, refresh_token: refreshToken } = body.data.attributes;
      expect(accessToken).not.toBe(session.accessToken);
      expect(refreshToken).not.toBe(session.refreshToken);
      expect(responseCookies(response).get(REFRESH_COOKIE)?.value).toBe(refreshToken);
      expect(await canList(s.client, accessToken)).toBe(200);
    });

    it('retires the old refresh token: presenting it again after the grace window is reuse (401)', async () => {
      const session = await s.client.adminSession();
      await refreshed(session);
      s.t.clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);
      const reuse = await s.client.refresh(session.refreshToken, path);
      await expectError(reuse, 401, 'refresh_token_reused');
    });

    it('revokes the whole family on reuse: the newest refresh token and every access token of that session stop working', async () => {
      const bystander = await s.client.adminSession();
      const first = await s.client.adminSession();
      const second = await refreshed(first);
      const third = await refreshed(second);
      s.t.clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);
      expect((await s.client.refresh(first.refreshToken, path)).status).toBe(401);

      const newest = await s.client.refresh(third.refreshToken, path);
      expect(newest.status).toBe(401);
      for (const { accessToken } of [first, second, third]) expect(await canList(s.client, accessToken)).toBe(401);
      expect(await canList(s.client, bystander.accessToken)).toBe(200);
      expect((await s.client.refresh(bystander.refreshToken, path)).status).toBe(200);
    });

    it('lets two concurrent refreshes with one token (two tabs) both succeed within the grace window; the session lives on', async () => {
      const session = await s.client.adminSession();
      const responses = await Promise.all([
        s.client.refresh(session.refreshToken, path),
        s.client.refresh(session.refreshToken, path),
      ]);
      const [one, two] = await Promise.all(responses.map(sessionOf));
      for (const tab of [one!, two!]) expect(await canList(s.client, tab.accessToken)).toBe(200);
      expect(await canList(s.client, (await refreshed(two!)).accessToken)).toBe(200);
    });

    it('answers a retired token presented again at the end of the grace window with the current session, not a new branch', async () => {
      const session = await s.client.adminSession();
      const current = await refreshed(session);
      s.t.clock.advance(REFRESH_REUSE_GRACE_SECONDS);
      const late = await refreshed(session);
      expect(await canList(s.client, late.accessToken)).toBe(200);
      // Both hold the session's one current refresh token: whichever is used first rotates it.
      const next = await refreshed(current);
      expect(await canList(s.client, next.accessToken)).toBe(200);
      s.t.clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);
      await expectError(await s.client.refresh(late.refreshToken, path), 401, 'refresh_token_reused');
      expect(await canList(s.client, next.accessToken)).toBe(401);
    });

    it('refreshes with an expired access token in the Authorization header', async () => {
      const session = await s.client.adminSession();
      s.t.clock.advance(ACCESS_TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS + 1);
      expect(await canList(s.client, session.accessToken)).toBe(401);
      const renewed = await refreshed(session, { Authorization: `Bearer ${session.accessToken}` });
      expect(await canList(s.client, renewed.accessToken)).toBe(200);
    });

    it('refreshes from the session cookie alone when the request comes from the same origin', async () => {
      const session = await s.client.adminSession();
      const response = await s.client.request(path, {
        method: 'POST',
        headers: { ...refreshCookie(session.refreshToken), Origin: SAME_ORIGIN },
      });
      expect(response.status).toBe(200);
      const { data } = await response.json();
      expect(responseCookies(response).get(REFRESH_COOKIE)?.value).toBe(data.attributes.refresh_token);
    });

    it.each([
      ['no Origin', {}],
      ['a foreign Origin', { Origin: 'https://evil.example' }],
      ['Origin null', { Origin: 'null' }],
    ])('refuses the session cookie alone with %s (CSRF: 403), leaving the token unspent', async (_, headers) => {
      const session = await s.client.adminSession();
      const response = await s.client.request(path, {
        method: 'POST',
        headers: { ...refreshCookie(session.refreshToken), ...headers },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(errorsLike([403, 'cross_site_request']));
      await refreshed(session);
    });

    it('refuses a refresh token past REFRESH_TOKEN_TTL_SECONDS (401), and accepts it just before', async () => {
      const early = await s.client.adminSession();
      const late = await s.client.adminSession();
      s.t.clock.advance(REFRESH_TTL - 10);
      await refreshed(early);
      s.t.clock.advance(10 + CLOCK_TOLERANCE_SECONDS + 1);
      await expectError(await s.client.refresh(late.refreshToken, path), 401, 'invalid_token');
    });

    it.each([
      ['a string that is no token', () => 'not-a-refresh-token-at-all'],
      ['an admin access token', (session: Session) => session.accessToken],
      ['a three-part string of garbage', () => 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
    ])('refuses %s with 401 invalid_token', async (_, token) => {
      const presented = token(await s.client.adminSession());
      await expectError(await s.client.refresh(presented, path), 401, 'invalid_token');
    });

    it('refuses an end user refresh token (401)', async () => {
      const email = `refresh-user-${path.length}@example.com`;
      await s.client.createUser({ email });
      const user = await s.client.userSession(email);
      expect((await s.client.refresh(user.refreshToken, path)).status).toBe(401);
    });

    it('answers a request with neither a body token nor a cookie as one without credentials: 401 with a challenge', async () => {
      const response = await s.client.request(path, jsonInit('POST', {}));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(BEARER_CHALLENGE);
      expect(await response.json()).toEqual(errorsLike([401, 'missing_token']));
    });

    it('answers a refresh token that is not a string with 422 pointing at it', async () => {
      const response = await s.client.request(path, jsonInit('POST', { refreshToken: 42 }));
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(errorsLike([422, 'invalid_attribute', { pointer: '/refreshToken' }]));
    });
  });
});

describe.each(BACKENDS)('admin refresh with REFRESH_REUSE_GRACE_SECONDS=0 on %s', (backend) => {
  const s = scenarioApplication(backend, { env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });

  it('lets exactly one of two concurrent refreshes with one token win, and then ends the session (reuse)', async () => {
    const session = await s.client.adminSession();
    const responses = await Promise.all([
      s.client.refresh(session.refreshToken),
      s.client.refresh(session.refreshToken),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 401]);
    const winner = await sessionOf(responses.find((response) => response.status === 200)!);
    expect((await s.client.refresh(winner.refreshToken)).status).toBe(401);
    expect(await canList(s.client, winner.accessToken)).toBe(401);
  });
});
