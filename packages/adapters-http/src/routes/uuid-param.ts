import { isUuid, NotFoundError } from '@uas/domain';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { withFragment } from '../openapi/route-description';

/**
 * 404 for an `:id` (or another path parameter) that is not a UUID: no such resource can exist,
 * and the question never reaches a database that might choke on it. Runs before the body is validated.
 */
export const requireUuidParam = (resource: string, param = 'id') =>
  withFragment(
    createMiddleware<AppEnv>(async (c, next) => {
      if (!isUuid(c.req.param(param) ?? '')) throw new NotFoundError(resource);
      await next();
    }),
    {
      pathParameters: [
        { name: param, description: `The ${resource}'s id.`, schema: { type: 'string', format: 'uuid' } },
      ],
      errors: ['not_found'],
    },
  );
