import { rolesWith, type AdminAccess, type AdminPermission } from '@uas/domain';
import { createMiddleware } from 'hono/factory';
import type { AdminEnv } from '../app-env';
import { withFragment } from '../openapi/route-description';
import { bearerToken } from './bearer-auth';

/**
 * Guards an admin operation: a valid admin access token (401 otherwise) of an admin whose role,
 * read at this request, holds `permission` (403 `forbidden` otherwise). The document lists the
 * roles allowed as the operation's `x-roles`, from the same matrix.
 */
export function adminAccess(access: AdminAccess, permission: AdminPermission) {
  const middleware = createMiddleware<AdminEnv>(async (c, next) => {
    const { identity, role } = await access.authorize(bearerToken(c), permission);
    c.set('identity', identity);
    c.set('role', role);
    await next();
  });
  return withFragment(middleware, {
    security: [{ bearer: [] }],
    errors: ['missing_token', 'invalid_token', 'forbidden'],
    roles: rolesWith(permission),
  });
}
