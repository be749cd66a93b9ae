import type { AuthService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { sessionDocument } from '../presenters/session.presenter';
import { parseLogin, parseRefreshTokenBody } from '../schemas/session.schemas';
import { jsonBody } from '../schemas/validation';
import { bodyRefreshToken } from '../session/presented-refresh-token';

/** End-user login, refresh and revocation: the admin rules without the panel's cookie. */
export function userSessionRoutes({ userAuth }: { userAuth: AuthService }) {
  const refreshTokenBody = jsonBody(parseRefreshTokenBody);
  return new Hono<AppEnv>()
    .post('/v1/login', jsonBody(parseLogin), async (c) => {
      const { email, password } = c.req.valid('json');
      return c.json(sessionDocument(await userAuth.login(email, password, c.get('client').address)), 200);
    })
    .post('/v1/refresh', refreshTokenBody, async (c) => {
      return c.json(sessionDocument(await userAuth.refresh(bodyRefreshToken('refresh', c.req.valid('json')))), 200);
    })
    .delete('/v1/refresh', bearerAuth(userAuth), refreshTokenBody, async (c) => {
      await userAuth.revoke(bodyRefreshToken('revoke', c.req.valid('json')), c.get('identity'));
      return c.body(null, 204);
    });
}
