import { initiatorOf, type Initiator, type RequestContext } from '@uas/domain';
import type { Context } from 'hono';
import type { AppEnv, AuthenticatedEnv } from '../app-env';

/** Where the request came from, as the audit trail records it beside a change. */
export function requestContext<E extends AppEnv>(c: Context<E>): RequestContext {
  const { address, userAgent } = c.get('client');
  return { requestId: c.get('requestId'), clientAddress: address, userAgent };
}

/** The authenticated caller and their request: who the audit trail names as the actor. */
export function caller<E extends AuthenticatedEnv>(c: Context<E>): Initiator {
  return initiatorOf(c.get('identity'), requestContext(c));
}
