import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { errorDocument, type ApiErrorCode } from '@uas/adapters-http';
import type { HttpTimeouts } from './config';

/**
 * How often Node looks for connections past their headers or request timeout. Its default, 30 s,
 * let a connection trickling header bytes live up to 30 s past the timeout.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

interface Refusal {
  status: number;
  reason: string;
  code: ApiErrorCode;
  detail: string;
}

const MALFORMED: Refusal = {
  status: 400,
  reason: 'Bad Request',
  code: 'malformed_request',
  detail: 'The request is not valid HTTP.',
};
const UNROUTABLE: Refusal = { ...MALFORMED, detail: 'The request target is not a valid path.' };
const TOO_LARGE: Refusal = {
  status: 431,
  reason: 'Request Header Fields Too Large',
  code: 'headers_too_large',
  detail: 'The request line and headers are too large.',
};
const FAULT: Refusal = {
  status: 500,
  reason: 'Internal Server Error',
  code: 'internal_error',
  detail: 'An unexpected error occurred.',
};
const TOO_SLOW: Refusal = {
  status: 408,
  reason: 'Request Timeout',
  code: 'request_timeout',
  detail: 'The request was not received in time.',
};
const EXPECTATION: Refusal = {
  status: 417,
  reason: 'Expectation Failed',
  code: 'expectation_failed',
  detail: 'Only "Expect: 100-continue" is supported.',
};

/** Every refusal closes the connection: after a broken or unwanted request, what follows on it cannot be trusted. */
const refusalHeaders = (refusal: Refusal) => {
  const body = JSON.stringify(errorDocument(refusal.status, [{ code: refusal.code, detail: refusal.detail }]));
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
  socket.end([`HTTP/1.1 ${refusal.status} ${refusal.reason}`, ...head, '', body].join('\r\n'));
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
export function createHttpServer(fetch: Parameters<typeof getRequestListener>[0], timeouts: HttpTimeouts): Server {
  const listener = getRequestListener(fetch, {
    // Only for a request that could not become a Request (a backslash in its path, a bad Host);
    // the app answers every other error itself.
    errorHandler: (error) => {
      const refusal = error instanceof RequestError ? UNROUTABLE : FAULT;
      const { body, headers } = refusalHeaders(refusal);
      return new Response(body, { status: refusal.status, headers });
    },
  });
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
    response.writeHead(EXPECTATION.status, headers).end(body);
  });
  return server;
}
