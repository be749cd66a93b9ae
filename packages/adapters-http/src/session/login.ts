import type { AuthService } from '@uas/domain';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requestContext } from '../network/request-context';
import { loginExample } from '../openapi/examples';
import type { RouteDescription } from '../openapi/route-description';
import { loginDocument } from '../schemas/session.schemas';

/** The login document both logins take, and the refusals they share, admin or user alike. */
export const LOGIN_ROUTE = {
  body: { schema: loginDocument, example: loginExample },
  errors: ['resource_conflict', 'invalid_credentials', 'account_inactive', 'too_many_attempts'],
} as const satisfies Pick<RouteDescription, 'body' | 'errors'>;

/** Logs in with a login document's credentials, throttled by the client's address. */
export function logIn(auth: AuthService, c: Context<AppEnv>, { email, password }: { email: string; password: string }) {
  return auth.login(email, password, c.get('client').address, requestContext(c));
}
