import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config';
import { createApplication } from './application';
import { JsonLogger } from './adapters/json-logger';
import { AdminKeyFileError } from './admin-key-file';

/** How long a stop waits for in-flight requests before closing their connections. */
const DRAIN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new JsonLogger(config.logLevel);
  const { app, close } = await createApplication(config, logger);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info('listening', { url: `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}` });
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping: finishing in-flight requests', { signal });
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
