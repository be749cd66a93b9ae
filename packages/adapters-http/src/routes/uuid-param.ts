import { isUuid, NotFoundError } from '@uas/domain';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { withFragment } from '../openapi/route-description';

/**
 * 404 for an `:id` that is not a UUID: no such resource can exist, and the question never reaches
 * a database that might choke on it. Runs before the body is validated.
 */
export const requireUuidParam = (resource: string) =>
  withFragment(
    createMiddleware<AppEnv>(async (c, next) => {
      if (!isUuid(c.req.param('id') ?? '')) throw new NotFoundError(resource);
      await next();
    }),
    {
      pathParameters: [
        { name: 'id', description: `The ${resource}'s id.`, schema: { type: 'string', format: 'uuid' } },
      ],
      errors: ['not_found'],
    },
  );
