import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { constants } from 'node:os';
import type { Logger } from '@uas/domain';

/**
 * How long a connection with no request in progress is kept after the stop begins: a request a
 * client has just sent on it is still read and answered, rather than lost with the connection.
 */
const IDLE_CONNECTION_LINGER_MS = 1_000;

export interface GracefulStopOptions {
  /** Longest the stop waits for requests in flight before it closes their connections. */
  graceMs: number;
  logger: Logger;
  /** Called as the stop begins (readiness turns 503). */
  onStopping(): void;
  /** Releases what the app holds (the database); called once no connection is left. */
  close(): Promise<void>;
}

/**
 * On SIGTERM or SIGINT: stop listening, answer every request already received (each answer
 * closing its connection), close the database and exit 0; requests still running after the grace
 * period lose their connections. A second signal exits at once, with 128 + the signal's number.
 */
export function stopGracefullyOnSignals(
  server: Server,
  { graceMs, logger, onStopping, close }: GracefulStopOptions,
): void {
  let stopping = false;
  const unfinished = new Set<ServerResponse>();
  // Once stopping, every response closes its connection: a keep-alive connection left open would
  // hold the stop until the client hangs up, and could carry it new requests meanwhile.
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  };
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) return closeAfter(response);
    unfinished.add(response);
    response.once('close', () => unfinished.delete(response));
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn('second signal: exiting at once', { signal });
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    onStopping();
    logger.info('stopping: finishing in-flight requests', { signal, graceMs });
    unfinished.forEach(closeAfter);
    const linger = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_CONNECTION_LINGER_MS, graceMs));
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish within the grace period; closing their connections');
      server.closeAllConnections();
    }, graceMs);
    // net.Server's close, not http.Server's: that one also drops idle keep-alive connections at
    // once, and with them any request just sent on one. The callback runs when none is left.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(linger);
      clearTimeout(force);
      void close()
        .then(() => {
          logger.info('stopped');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error('the database did not close cleanly', { error: (error as Error)?.message });
          process.exit(1);
        });
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
