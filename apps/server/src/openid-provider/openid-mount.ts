import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { addressMatcher, clientAddressOf, logRequest, requestIdOf, storableUserAgent } from '@uas/adapters-http';
import type { Logger } from '@uas/domain';
import type Provider from 'oidc-provider';
import { isPostedRequest, redirectPostedRequest } from './posted-requests';
import { rememberRequest } from './engine-requests';
import { RETRY_AFTER_SECONDS, UNAVAILABLE, type OpenIdEngine } from './openid-engine';

/** What the engine answers: its endpoints under `/oidc/`, and discovery. */
const ENGINE_PATH = /^\/(?:oidc(?:\/|$)|\.well-known\/openid-configuration$)/;

/**
 * The engine's pages (errors, the sign-out question, form_post) load nothing from elsewhere, are
 * never framed, and never leak a code in a Referer. The engine adds the hash of a form_post
 * page's inline script to `script-src` itself.
 */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;

export interface EngineMount {
  /** Whether the request is the engine's (else it is the Hono app's). */
  handles(req: IncomingMessage): boolean;
  listener: RequestListener;
}

export interface EngineMountOptions {
  /** PUBLIC_URL, ending with `/`: the engine serves as if every request were addressed to it. */
  publicUrl: string;
  trustedProxies: readonly string[];
  logger: Logger;
}

/**
 * Hands the engine's requests to it in the service's Node listener (it needs the raw request),
 * as they reached PUBLIC_URL: its path prefix is the engine's mount path, and its scheme and host
 * are what the engine builds URLs and secure cookies from, whatever Host or X-Forwarded-* the
 * client sent. The client's address is the service's own reading of it (trusted proxies only).
 */
export function engineMount(
  engine: OpenIdEngine,
  { publicUrl, trustedProxies, logger }: EngineMountOptions,
): EngineMount {
  const publicAddress = new URL(publicUrl);
  const prefix = publicAddress.pathname.replace(/\/$/, '');
  const isTrusted = addressMatcher(trustedProxies);
  const callbacks = new WeakMap<Provider, RequestListener>();
  const callbackOf = (provider: Provider) => {
    let callback = callbacks.get(provider);
    if (!callback) callbacks.set(provider, (callback = provider.callback()));
    return callback;
  };
  return {
    handles: (req) => ENGINE_PATH.test(pathOf(req)),
    listener: (req, res) => {
      const startedAt = performance.now();
      const requestId = requestIdOf(single(req.headers['x-request-id']));
      res.setHeader('X-Request-Id', requestId);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      const clientAddress = clientAddressOf(
        req.socket.remoteAddress ?? '',
        single(req.headers['x-forwarded-for']),
        isTrusted,
      );
      // In the service's request log as the Hono app's requests are, the path without its query
      // (an authorization's parameters, a logout's id_token_hint).
      const method = req.method ?? 'GET';
      const path = pathOf(req);
      res.once('close', () =>
        logRequest(logger, { requestId, method, path, status: res.statusCode, startedAt, clientAddress }),
      );
      rememberRequest(req, {
        requestId,
        clientAddress,
        userAgent: storableUserAgent(single(req.headers['user-agent'])),
      });
      req.headers['x-forwarded-proto'] = publicAddress.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = publicAddress.host;
      req.headers['x-forwarded-for'] = clientAddress;
      (req as IncomingMessage & { originalUrl: string }).originalUrl = `${prefix}${req.url}`;
      if (isPostedRequest(req, path)) {
        redirectPostedRequest(req, res, new URL(path.slice(1), publicUrl).href).catch(() => res.destroy());
        return;
      }
      engine.provider().then(
        (provider) => callbackOf(provider)(req, res),
        (error: unknown) => unavailable(res, logger, error),
      );
    },
  };
}

const pathOf = (req: IncomingMessage) => (req.url ?? '').split('?', 1)[0]!;
const single = (header: string | string[] | undefined) => (Array.isArray(header) ? header.join(',') : header);

/** The engine could not be built (its keys could not be read): the OAuth error shape, no cause. */
function unavailable(res: ServerResponse, logger: Logger, error: unknown): void {
  logger.error('openid engine unavailable', { error: (error as Error)?.message ?? String(error) });
  if (res.headersSent) return void res.destroy();
  res
    .writeHead(503, {
      'Content-Type': 'application/json',
      'Retry-After': String(RETRY_AFTER_SECONDS),
      'Cache-Control': 'no-store',
    })
    .end(JSON.stringify(UNAVAILABLE));
}
