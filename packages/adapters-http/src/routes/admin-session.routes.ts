import type { AuthService } from '@uas/domain';
import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { sessionDocument } from '../presenters/session.presenter';
import { parseLogin, parseRefreshTokenBody } from '../schemas/session.schemas';
import { jsonBody } from '../schemas/validation';
import { adminRefreshToken } from '../session/presented-refresh-token';
import { clearRefreshCookie, refreshCookie, setRefreshCookie } from '../session/refresh-cookie';
import { requireUuidParam } from './uuid-param';

const factory = createFactory<AppEnv>();

/** Admin login, refresh (two paths), revocation and logout, with the panel's session cookie. */
export function adminSessionRoutes({ adminAuth }: { adminAuth: AuthService }) {
  const authenticated = bearerAuth(adminAuth);
  const refreshTokenBody = jsonBody(parseRefreshTokenBody);

  const refresh = factory.createHandlers(refreshTokenBody, async (c) => {
    const presented = adminRefreshToken(c, 'refresh', c.req.valid('json'));
    try {
      const grant = await adminAuth.refresh(presented.token);
      setRefreshCookie(c, grant.refreshToken);
      return c.json(sessionDocument(grant), 200);
    } catch (error) {
      if (presented.fromCookie) clearRefreshCookie(c); // a dead cookie would only fail again
      throw error;
    }
  });

  const revoke = factory.createHandlers(authenticated, refreshTokenBody, async (c) => {
    const presented = adminRefreshToken(c, 'revoke', c.req.valid('json'));
    await adminAuth.revoke(presented.token, c.get('identity'));
    if (presented.token === refreshCookie(c)) clearRefreshCookie(c);
    return c.body(null, 204);
  });

  return new Hono<AppEnv>()
    .post('/v1/admin/login', jsonBody(parseLogin), async (c) => {
      const { email, password } = c.req.valid('json');
      const grant = await adminAuth.login(email, password, c.get('client').address);
      setRefreshCookie(c, grant.refreshToken);
      return c.json(sessionDocument(grant), 200);
    })
    .post('/v1/admin/refresh', ...refresh)
    .post('/v1/admin/token/refresh', ...refresh)
    .delete('/v1/admin/refresh', ...revoke)
    .delete('/v1/admin/token/refresh', ...revoke)
    .delete('/v1/admin/logout/:id', authenticated, requireUuidParam('account'), async (c) => {
      await adminAuth.logout(c.get('identity'), c.req.param('id'));
      clearRefreshCookie(c);
      return c.body(null, 204);
    });
}
