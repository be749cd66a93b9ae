import type { MailRequestLimit } from '@uas/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { withFragment } from '../openapi/route-description';

/**
 * Route middleware for every endpoint that sends mail (sign-up, recover, resend verification,
 * email change): counts the request against its client address (TRUSTED_PROXIES aware, see
 * clientInfo) before anything else of the route runs, and refuses it with 429
 * `too_many_attempts` and `Retry-After` once the address is over MAIL_REQUESTS_PER_MINUTE. The
 * body is not read first, so the answer is the same whatever address it names. The OpenAPI
 * description of a route it guards gains the 429 by itself.
 *
 *     .post('/v1/signup', describeRoute({ … }), limitMailRequests(deps.mailRequestLimit), jsonBody(…), handler)
 */
export function limitMailRequests(limit: MailRequestLimit): MiddlewareHandler<AppEnv> {
  return withFragment<MiddlewareHandler<AppEnv>>(
    async (c, next) => {
      await limit.enter(c.get('client').address);
      await next();
    },
    { errors: ['too_many_attempts'] },
  );
}
