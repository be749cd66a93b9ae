import { createHttpApp, type Logger } from '@uas/adapters-http';
import { describeDatabaseLocation, openDatabase, type DatabaseLocation } from '@uas/adapters-persistence';
import { ADMIN_PANEL_ROOT } from '@uas/admin-panel';
import type { Config } from './config';
import { buildContainer, resolve, Tokens, type ContainerOverrides } from './container';
import { PrometheusMetrics } from './adapters/prometheus-metrics';
import { Readiness } from './readiness';
import { bootstrapAdmin } from './admin-bootstrap';
import { scheduleHousekeeping } from './housekeeping-schedule';

export interface Application {
  app: ReturnType<typeof createHttpApp>;
  readiness: Readiness;
  /** Closes the database; call after the HTTP server has stopped taking requests. */
  close(): Promise<void>;
}

/**
 * Opens the database and brings it up to date, makes sure the admin and a signing key exist
 * (under a lock shared by every instance on the same database) and builds the HTTP app.
 */
export async function createApplication(
  config: Config,
  logger: Logger,
  overrides: ContainerOverrides = {},
): Promise<Application> {
  const database = await openDatabase(config.database, {
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    schema: config.databaseSchema,
    readWorkers: config.sqliteReadWorkers,
  }).catch(unreachable(config.database));
  try {
    await database.ping().catch(unreachable(config.database));
    // Metrics cost a little on every request: kept only when someone can read them.
    const metrics = config.metricsToken
      ? new PrometheusMetrics(database.dialect === 'postgres' ? config.databasePoolSize : 1)
      : null;
    const container = buildContainer(config, database, overrides, metrics);
    await database.withStartupLock(async () => {
      await database.migrate();
      await bootstrapAdmin(resolve(container, Tokens.AdminService), config.adminKeyPath, config.adminEmail, logger);
      await resolve(container, Tokens.KeyRing).ensureSigningKey();
    });
    const keyRing = resolve(container, Tokens.KeyRing);
    const readiness = new Readiness({ database, keyRing, logger });
    const app = createHttpApp({
      users: resolve(container, Tokens.UserService),
      transfer: resolve(container, Tokens.UserTransferService),
      self: resolve(container, Tokens.SelfService),
      adminAuth: resolve(container, Tokens.AdminAuth),
      userAuth: resolve(container, Tokens.UserAuth),
      jwks: () => keyRing.jwks(),
      ready: () => readiness.check(),
      metricsEndpoint: metrics && config.metricsToken ? { metrics, token: config.metricsToken } : null,
      logger,
      trustedProxies: config.trustedProxies,
      panelRoot: ADMIN_PANEL_ROOT,
    });
    const stopHousekeeping = scheduleHousekeeping(resolve(container, Tokens.Housekeeping), logger);
    return {
      app,
      readiness,
      async close() {
        stopHousekeeping();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** A database that cannot be opened stops the start with a message saying where it was looked for. */
const unreachable =
  (location: DatabaseLocation) =>
  (error: unknown): never => {
    throw new Error(
      `Cannot open the database (${describeDatabaseLocation(location)}): ${(error as Error)?.message ?? error}`,
    );
  };
