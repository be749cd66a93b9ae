import './heap-flags';
import { API_REFERENCE_PATH, PANEL_PATH } from '@uas/adapters-http';
import { ConfigError, loadConfig } from './config';
import { createApplication } from './application';
import { JsonLogger } from './adapters/json-logger';
import { AdminKeyFileError } from './admin-key-file';
import { stopGracefullyOnSignals } from './graceful-stop';
import { createHttpServer, listenFailure, openableUrl } from './http-server';
import { unsupportedNodeWarning } from './node-support';
import { strayRejectionListener } from './stray-rejections';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new JsonLogger(config.logLevel);
  process.on('unhandledRejection', strayRejectionListener(logger));
  const nodeWarning = unsupportedNodeWarning();
  if (nodeWarning) logger.warn(nodeWarning);
  const { app, openId, readiness, close } = await createApplication(config, logger);
  const server = createHttpServer(app.fetch, config.http, openId);
  server.once('error', (error: NodeJS.ErrnoException) => {
    // A port in use is the operator's to fix: say so plainly, without a stack trace.
    process.stderr.write(`${listenFailure(error, config.host, config.port)}\n`);
    void close().finally(() => process.exit(1));
  });
  stopGracefullyOnSignals(server, {
    graceMs: config.shutdownGraceMs,
    logger,
    onStopping: () => readiness.markStopping(),
    close,
  });
  server.listen(config.port, config.host, () => {
    const { address, port } = server.address() as { address: string; port: number };
    const url = openableUrl(address, port);
    logger.info('listening', { url, panel: `${url}${PANEL_PATH}/`, docs: `${url}${API_REFERENCE_PATH}` });
  });
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof AdminKeyFileError;
  // Known start-up problems are the operator's to fix: say what, without a stack trace.
  process.stderr.write(
    `${known ? (error as Error).message : `The service could not start: ${(error as Error)?.message ?? error}`}\n`,
  );
  process.exit(1);
});
