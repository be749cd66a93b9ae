import type { AddressRequestLimit } from '@uas/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { withFragment } from '../openapi/route-description';

/**
 * Route middleware for the endpoints a per-address limit guards (those that send mail, the passkey
 * options): counts the request against its client address (TRUSTED_PROXIES aware, see
 * clientInfo) before anything else of the route runs, and refuses it with 429
 * `too_many_attempts` and `Retry-After` once the address is over the limit. The body is not read
 * first, so the answer is the same whatever address it names. The OpenAPI description of a route
 * it guards gains the 429 by itself.
 *
 *     .post('/v1/signup', describeRoute({ … }), limitPerAddress(deps.mailRequestLimit), jsonBody(…), handler)
 */
export function limitPerAddress(limit: AddressRequestLimit): MiddlewareHandler<AppEnv> {
  return withFragment<MiddlewareHandler<AppEnv>>(
    async (c, next) => {
      await limit.enter(c.get('client').address);
      await next();
    },
    { errors: ['too_many_attempts'] },
  );
}
