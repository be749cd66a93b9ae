import type { IncomingMessage } from 'node:http';
import { NO_REQUEST, type RequestContext } from '@uas/domain';
import Provider from 'oidc-provider';

/** Where each request the engine serves came from, as the mount worked it out (trusted proxies included). */
const contexts = new WeakMap<IncomingMessage, RequestContext>();

export function rememberRequest(req: IncomingMessage, context: RequestContext): void {
  contexts.set(req, context);
}

/** Where the engine's current request came from, for the audit trail. */
export function currentRequestContext(): RequestContext {
  const req = Provider.ctx?.req;
  return (req && contexts.get(req)) ?? NO_REQUEST;
}

/** An object that lives as long as the engine's current request: what per-request work is keyed by. */
export function currentRequestKey(): object {
  return Provider.ctx ?? {};
}
