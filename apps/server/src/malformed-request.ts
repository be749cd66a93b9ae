import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node refuses before the app sees them (a broken request line, headers over Node's
 * limit) still get a JSON:API error with a request id, not Node's bare, empty-bodied answer.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const [status, reason, code, detail] = tooLarge
      ? ([431, 'Request Header Fields Too Large', 'headers_too_large', 'The request line and headers are too large.'] as const)
      : ([400, 'Bad Request', 'malformed_request', 'The request is not valid HTTP.'] as const);
    const requestId = randomUUID();
    const body = JSON.stringify({ errors: [{ status: String(status), code, title: reason, detail }] });
    socket.end(
      [
        `HTTP/1.1 ${status} ${reason}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
