import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { ERROR_CATALOGUE, errorDocument, type ApiErrorCode } from '@uas/adapters-http';
import type { HttpTimeouts } from './config';
import type { EngineMount } from './openid-provider/openid-mount';

/**
 * How often Node looks for connections past their headers or request timeout. Its default, 30 s,
 * let a connection trickling header bytes live up to 30 s past the timeout.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** A refusal before routing; its status is its code's, from the error catalogue. */
interface Refusal {
  code: ApiErrorCode;
  detail: string;
}

const MALFORMED: Refusal = { code: 'malformed_request', detail: 'The request is not valid HTTP.' };
const UNROUTABLE: Refusal = { ...MALFORMED, detail: 'The request target is not a valid path.' };
const TOO_LARGE: Refusal = { code: 'headers_too_large', detail: 'The request line and headers are too large.' };
const FAULT: Refusal = { code: 'internal_error', detail: 'An unexpected error occurred.' };
const TOO_SLOW: Refusal = { code: 'request_timeout', detail: 'The request was not received in time.' };
const EXPECTATION: Refusal = { code: 'expectation_failed', detail: 'Only "Expect: 100-continue" is supported.' };

const statusOf = (refusal: Refusal) => ERROR_CATALOGUE[refusal.code].status;

/** Every refusal closes the connection: after a broken or unwanted request, what follows on it cannot be trusted. */
const refusalHeaders = (refusal: Refusal) => {
  const body = JSON.stringify(errorDocument(statusOf(refusal), [{ code: refusal.code, detail: refusal.detail }]));
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': randomUUID(),
    Connection: 'close',
  };
  return { body, headers };
};

/** Written straight to the socket: Node has no request object for a request it could not parse. */
function refuseOnSocket(socket: Duplex, refusal: Refusal): void {
  const { body, headers } = refusalHeaders(refusal);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  socket.end([`HTTP/1.1 ${statusOf(refusal)} ${STATUS_CODES[statusOf(refusal)]}`, ...head, '', body].join('\r\n'));
}

const CLIENT_ERRORS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: TOO_LARGE,
  ERR_HTTP_REQUEST_TIMEOUT: TOO_SLOW,
};

/**
 * The Node HTTP server of the app, with deliberate timeouts, and a JSON:API error for every
 * request it refuses before the app sees it (a broken request line, headers over Node's limit
 * or sent too slowly, an `Expect` other than 100-continue, a target that is not a path), where
 * Node and @hono/node-server would give a bare, empty answer.
 */
export function createHttpServer(
  fetch: Parameters<typeof getRequestListener>[0],
  timeouts: HttpTimeouts,
  openId?: EngineMount,
): Server {
  const app = getRequestListener(fetch, {
    // Only for a request that could not become a Request (a backslash in its path, a bad Host);
    // the app answers every other error itself.
    errorHandler: (error) => {
      const refusal = error instanceof RequestError ? UNROUTABLE : FAULT;
      const { body, headers } = refusalHeaders(refusal);
      return new Response(body, { status: statusOf(refusal), headers });
    },
  });
  // The OpenID engine's requests go to it (it needs the raw request); every other one to the app.
  const listener = openId
    ? (req: IncomingMessage, res: ServerResponse) => (openId.handles(req) ? openId.listener(req, res) : app(req, res))
    : app;
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    refuseOnSocket(socket, CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED);
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const { body, headers } = refusalHeaders(EXPECTATION);
    response.writeHead(statusOf(EXPECTATION), headers).end(body);
  });
  return server;
}

/**
 * The service's address as someone on this machine can open it: a wildcard host (every
 * interface) is reached as localhost, which `http://0.0.0.0:3002` is not in every browser.
 */
export function openableUrl(address: string, port: number): string {
  const host = address === '0.0.0.0' || address === '::' ? 'localhost' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What stops the server listening, by Node's code, as the setting to change and how. */
const LISTEN_HINTS: Record<string, (host: string, port: number) => string> = {
  EADDRINUSE: (host, port) =>
    `port ${port} on ${host} is already in use by another process: stop it, or set PORT to a free port`,
  EACCES: (_, port) => `port ${port} needs privileges this process lacks: set PORT to 1024 or above`,
  EADDRNOTAVAIL: (host) =>
    `${host} is not an address of this machine: set HOST to one of its addresses, or to 0.0.0.0 for all of them`,
  ENOTFOUND: (host) => `${host} is not a host name this machine can resolve: set HOST to one of its addresses`,
};

/** The sentence an operator gets when the server cannot listen: the cause, the setting, the remedy. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): string {
  const hint = LISTEN_HINTS[error.code ?? '']?.(host, port);
  const cause = error.code ?? error.message;
  return `The service could not listen on ${host}:${port} (${cause})${hint ? `: ${hint}.` : '.'}`;
}
