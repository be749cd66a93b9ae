import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config';
import { createApplication } from './application';
import { JsonLogger } from './adapters/json-logger';
import { AdminKeyFileError } from './admin-key-file';
import { answerMalformedRequests } from './malformed-request';

/** How long a stop waits for in-flight requests before closing their connections. */
const DRAIN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new JsonLogger(config.logLevel);
  const { app, close } = await createApplication(config, logger);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info('listening', { url: `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}` });
  });
  answerMalformedRequests(server as Server);
  (server as Server).once('error', (error: NodeJS.ErrnoException) => {
    // A port in use is the operator's to fix: say so plainly, without a stack trace.
    process.stderr.write(`The service could not listen on ${config.host}:${config.port}: ${error.code ?? error.message}\n`);
    void close().finally(() => process.exit(1));
  });

  let stopping = false;
  // Once stopping, every response closes its connection: a keep-alive connection left open would
  // hold the stop until the client hangs up, and could carry it new requests meanwhile.
  const unfinished = new Set<ServerResponse>();
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  };
  (server as Server).prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) return closeAfter(response);
    unfinished.add(response);
    response.once('close', () => unfinished.delete(response));
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping: finishing in-flight requests', { signal });
    unfinished.forEach(closeAfter);
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing their connections');
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }, DRAIN_TIMEOUT_MS);
    force.unref();
    server.close(async () => {
      await close();
      logger.info('stopped');
      process.exit(0);
    });
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof AdminKeyFileError;
  // Known start-up problems are the operator's to fix: say what, without a stack trace.
  process.stderr.write(`${known ? (error as Error).message : `The service could not start: ${(error as Error)?.message ?? error}`}\n`);
  process.exit(1);
});
