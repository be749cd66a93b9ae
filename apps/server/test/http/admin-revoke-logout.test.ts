import { describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '@uas/adapters-http';
import { BACKENDS } from '../support/test-application';
import { insertSecondAdmin } from '../support/second-admin';
import { BEARER_CHALLENGE, refreshBody, refreshCookie, SAME_ORIGIN, UNKNOWN_ID } from '../support/wire';
import { bearer, jsonInit, responseCookies } from '@uas/adapters-http/testing';
import { errorsLike } from '../support/error-expectations';
import { scenarioApplication } from '../support/scenario';

const REVOKE_PATHS = ['/v1/admin/refresh', '/v1/admin/token/refresh'] as const;

describe.each(BACKENDS)('admin revoke and logout on %s', (backend) => {
  describe.each(REVOKE_PATHS)('DELETE %s (revoke)', (path) => {
    const s = scenarioApplication(backend);
    const revoke = (refreshToken: string, accessToken?: string) =>
      s.client.send('DELETE', path, refreshBody(refreshToken), accessToken);

    it('answers 204 with no body; the revoked token can no longer refresh (401)', async () => {
      const { accessToken, refreshToken } = await s.client.adminSession();
      const response = await revoke(refreshToken, accessToken);
      expect(response.status).toBe(204);
      const refresh = await s.client.refresh(refreshToken, path);
      expect(refresh.status).toBe(401);
      expect(await refresh.json()).toEqual(errorsLike([401, 'invalid_token']));
    });

    it('answers 204 again when the token is already revoked', async () => {
      const { accessToken, refreshToken } = await s.client.adminSession();
      expect((await revoke(refreshToken, accessToken)).status).toBe(204);
      expect((await revoke(refreshToken, accessToken)).status).toBe(204);
    });

    it('leaves the other sessions of the admin alone', async () => {
      const revoked = await s.client.adminSession();
      const kept = await s.client.adminSession();
      expect((await revoke(revoked.refreshToken, kept.accessToken)).status).toBe(204);
      expect((await s.client.refresh(kept.refreshToken, path)).status).toBe(200);
    });

    it.each([
      ['a garbage string', () => 'this-is-no-refresh-token'],
      ['an access token', (accessToken: string) => accessToken],
    ])('answers %s in place of a refresh token with 401 invalid_token, never 500', async (_, token) => {
      const { accessToken } = await s.client.adminSession();
      const response = await revoke(token(accessToken), accessToken);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(errorsLike([401, 'invalid_token']));
    });

    it('answers a missing refresh token with 422', async () => {
      const { accessToken } = await s.client.adminSession();
      const response = await s.client.send('DELETE', path, {}, accessToken);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(errorsLike([422, 'invalid_attribute', { pointer: '/refreshToken' }]));
    });

    it('needs the Bearer access token: 401 with a challenge, and the token stays usable', async () => {
      const { refreshToken } = await s.client.adminSession();
      const response = await revoke(refreshToken);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(BEARER_CHALLENGE);
      expect(await response.json()).toEqual(errorsLike([401, 'missing_token']));
      expect((await s.client.refresh(refreshToken, path)).status).toBe(200);
    });

    it('revokes the session cookie token from the same origin and clears the cookie', async () => {
      const { accessToken, refreshToken } = await s.client.adminSession();
      const response = await s.client.request(path, {
        method: 'DELETE',
        headers: { ...bearer(accessToken), ...refreshCookie(refreshToken), Origin: SAME_ORIGIN },
      });
      expect(response.status).toBe(204);
      expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.get('max-age')).toBe('0');
      expect((await s.client.refresh(refreshToken, path)).status).toBe(401);
    });
  });

  describe('DELETE /v1/admin/logout/{uuid}', () => {
    const s = scenarioApplication(backend, { fresh: 'each' });
    const logout = (id: string, accessToken?: string) => s.client.delete(`/v1/admin/logout/${id}`, accessToken);

    it('answers 204 and clears the session cookie (Max-Age=0, Path=/v1/admin)', async () => {
      const { id, accessToken } = await s.client.adminSession();
      const response = await logout(id, accessToken);
      expect(response.status).toBe(204);
      const cookie = responseCookies(response).get(REFRESH_COOKIE);
      expect(cookie?.value).toBe('');
      expect(Object.fromEntries(cookie?.attributes ?? [])).toEqual({
        'max-age': '0',
        path: '/v1/admin',
        httponly: '',
        samesite: 'Strict',
      });
    });

    it('ends every session of the admin at once: access tokens and refresh tokens of each answer 401', async () => {
      const sessions = [await s.client.adminSession(), await s.client.adminSession()];
      const [first] = sessions;
      expect((await logout(first!.id, first!.accessToken)).status).toBe(204);
      for (const { accessToken, refreshToken } of sessions) {
        const listing = await s.client.get('/v1/admin/users', accessToken);
        expect(listing.status).toBe(401);
        expect(await listing.json()).toEqual(errorsLike([401, 'invalid_token']));
        expect((await s.client.refresh(refreshToken)).status).toBe(401);
      }
      expect((await s.client.login()).status).toBe(200);
    });

    it.each([
      ['an unknown uuid', () => UNKNOWN_ID],
      ['a malformed id', () => 'not-a-uuid'],
    ])('answers %s with 404 and ends nothing', async (_, id) => {
      const { accessToken } = await s.client.adminSession();
      const response = await logout(id(), accessToken);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'not_found']));
      expect((await s.client.get('/v1/admin/users', accessToken)).status).toBe(200);
    });

    it("answers the id of an end user with 403: it is another account's id, not an unknown one", async () => {
      const { accessToken } = await s.client.adminSession();
      const user = await s.client.createUser({ email: 'not-an-admin@example.com' }, accessToken);
      expect((await logout(user.id, accessToken)).status).toBe(403);
      expect((await s.client.get('/v1/admin/users', accessToken)).status).toBe(200);
    });

    it('needs the Bearer access token (401 with a challenge)', async () => {
      const { id, refreshToken } = await s.client.adminSession();
      const response = await logout(id);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(BEARER_CHALLENGE);
      expect((await s.client.refresh(refreshToken)).status).toBe(200);
    });

    it('ignores a body it does not need', async () => {
      const { id, accessToken } = await s.client.adminSession();
      const response = await s.client.request(`/v1/admin/logout/${id}`, jsonInit('DELETE', {}, bearer(accessToken)));
      expect(response.status).toBe(204);
    });
  });

  describe('between two admins', () => {
    const s = scenarioApplication(backend, { fresh: 'each' });

    it('refuses to log out another admin (403), whose sessions go on', async () => {
      const other = await insertSecondAdmin(s.t);
      const otherSession = await s.client.adminSession({}, other);
      const { accessToken } = await s.client.adminSession();
      const response = await s.client.delete(`/v1/admin/logout/${other.id}`, accessToken);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(errorsLike([403, 'forbidden']));
      expect((await s.client.get('/v1/admin/users', otherSession.accessToken)).status).toBe(200);
    });

    it("refuses to revoke another admin's refresh token (403), which goes on refreshing", async () => {
      const otherSession = await s.client.adminSession({}, await insertSecondAdmin(s.t));
      const { accessToken } = await s.client.adminSession();
      const response = await s.client.send(
        'DELETE',
        '/v1/admin/refresh',
        refreshBody(otherSession.refreshToken),
        accessToken,
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(errorsLike([403, 'forbidden']));
      expect((await s.client.refresh(otherSession.refreshToken)).status).toBe(200);
    });
  });
});
