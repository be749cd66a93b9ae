import { createHttpApp } from '@uas/adapters-http';
import type { Logger, UseCases } from '@uas/domain';
import { describeDatabaseLocation, openDatabase, type DatabaseLocation } from '@uas/adapters-persistence';
import { ADMIN_PANEL_ROOT } from '@uas/admin-panel';
import type { Config } from './config';
import type { DependencyContainer } from 'tsyringe';
import { KeyRing } from './adapters/key-ring';
import { SecretKeyRing } from './adapters/secret-key-ring';
import { buildContainer, mailOf, systemContainer, useCasesOf, webhooksOf } from './container';
import { startMailSender } from './mail-sender';
import { startMailRequestWorker } from './mail-request-worker';
import { startWebhookWorker } from './webhook-worker';
import { PrometheusMetrics } from './adapters/prometheus-metrics';
import { Readiness } from './readiness';
import { bootstrapAdmin } from './admin-bootstrap';
import { scheduleHousekeeping } from './housekeeping-schedule';

export interface Application {
  app: ReturnType<typeof createHttpApp>;
  readiness: Readiness;
  /** The use cases the app serves, for tests that set a scene the API has no route for. */
  useCases: UseCases;
  /** Closes the database; call after the HTTP server has stopped taking requests. */
  close(): Promise<void>;
}

/**
 * Opens the database and brings it up to date, makes sure the admin and a signing key exist
 * (under a lock shared by every instance on the same database) and builds the HTTP app. Its
 * container is a child of `parent`, whose registrations (a test's clock) it inherits.
 */
export async function createApplication(
  config: Config,
  logger: Logger,
  parent: DependencyContainer = systemContainer,
): Promise<Application> {
  const database = await openDatabase(config.database, {
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
    schema: config.databaseSchema,
    readWorkers: config.sqliteReadWorkers,
  }).catch(unreachable(config.database));
  try {
    await database.ping().catch(unreachable(config.database));
    // Metrics cost a little on every request: kept only when someone can read them.
    const metrics = config.metricsToken
      ? new PrometheusMetrics(database.dialect === 'postgres' ? config.databasePoolSize : 1)
      : null;
    const container = buildContainer(config, database, metrics, parent);
    const useCases = useCasesOf(container, config, logger);
    const keyRing = container.resolve(KeyRing);
    await database.withStartupLock(async () => {
      await database.migrate();
      await bootstrapAdmin(useCases.admins, config.adminKeyPath, config.adminEmail, logger);
      await keyRing.ensureSigningKey();
      await container.resolve(SecretKeyRing).ensureSecrets();
    });
    const mail = mailOf(container, config, logger);
    const readiness = new Readiness({ database, keyRing, logger });
    const app = createHttpApp({
      users: useCases.users,
      transfer: useCases.transfer,
      self: useCases.self,
      adminAuth: useCases.adminAuth,
      adminAccess: useCases.adminAccess,
      adminAccounts: useCases.adminAccounts,
      userAuth: useCases.userAuth,
      adminSignIn: useCases.adminSignIn,
      userSignIn: useCases.userSignIn,
      overview: useCases.overview,
      audit: useCases.audit,
      mail: useCases.mail,
      mailRequestLimit: useCases.mailRequestLimit,
      signup: useCases.signup,
      verification: useCases.verification,
      emailChange: useCases.emailChange,
      mailRequests: useCases.mailRequests,
      recovery: useCases.recovery,
      adminAccountMail: useCases.adminAccountMail,
      invitations: useCases.invitations,
      factors: useCases.factors,
      impersonation: useCases.impersonation,
      webhookDeliveries: useCases.webhookDeliveries,
      webhooks: useCases.webhooks,
      identityProviders: useCases.identityProviders,
      userIdentities: useCases.userIdentities,
      externalSignIn: useCases.externalSignIn,
      identityLinks: useCases.identityLinks,
      adminMfa: config.adminMfa,
      jwks: () => keyRing.jwks(),
      ready: () => readiness.check(),
      metricsEndpoint: metrics && config.metricsToken ? { metrics, token: config.metricsToken } : null,
      logger,
      trustedProxies: config.trustedProxies,
      corsOrigins: config.corsOrigins,
      panelRoot: ADMIN_PANEL_ROOT,
      appUrl: config.appUrl,
      publicUrl: config.publicUrl,
    });
    const stopHousekeeping = scheduleHousekeeping(useCases.housekeeping, logger);
    const sender = mail.sending && startMailSender({ ...mail.sending, logger });
    const requestWorker = startMailRequestWorker({ requests: useCases.mailRequests, logger });
    const webhooks = webhooksOf(container, config, logger, metrics);
    const webhookWorker = startWebhookWorker({ ...webhooks, logger });
    if (!sender) logger.info('no SMTP_URL: mail stays queued in the outbox (GET /v1/admin/mail)');
    return {
      app,
      readiness,
      useCases,
      async close() {
        stopHousekeeping();
        await Promise.all([
          sender?.stop(config.shutdownGraceMs),
          requestWorker.stop(config.shutdownGraceMs),
          webhookWorker.stop(config.shutdownGraceMs),
        ]);
        webhooks.sender.close();
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
    // A database that is unreachable says so in words for clients; its cause names the driver's code.
    const { message = String(error), cause } = (error ?? {}) as { message?: string; cause?: unknown };
    const because = typeof cause === 'string' ? ` ${cause}` : '';
    throw new Error(
      `Cannot open the database (${describeDatabaseLocation(location)}): ${message}${because}${databaseHint(error)}${otherNodeHint(message)}`,
    );
  };

/** What the operator can do, by the driver's code, about a PostgreSQL server that refuses the start. */
const DATABASE_HINTS: Record<string, string> = {
  '3D000':
    'That database does not exist on the server: create it (`createdb <name>`, or CREATE DATABASE <name>), or correct its name in DATABASE_URL.',
  '28P01': 'The server refused the user name or password in DATABASE_URL: correct them there.',
  ECONNREFUSED:
    'Nothing accepts connections at that host and port: start PostgreSQL there, or correct the host and port in DATABASE_URL.',
  ENOTFOUND: 'The host name in DATABASE_URL cannot be resolved: correct it there.',
  EAI_AGAIN: 'The host name in DATABASE_URL cannot be resolved now (DNS did not answer): check it, and the DNS.',
};

/** The driver's code travels as a persistence error's `driverCode`, or as the error's own `code`. */
const databaseHint = (error: unknown): string => {
  const { driverCode, code } = (error ?? {}) as { driverCode?: unknown; code?: unknown };
  const hint = DATABASE_HINTS[String(driverCode ?? code)];
  return hint ? `\n${hint}` : '';
};

/**
 * Node.js 20's SQLite driver is compiled for one Node.js version, and only a release built with
 * Node.js 20 ships it: a release started on another Node.js than the one it was built for may
 * find its driver missing or unloadable. Says what builds the right one.
 */
const otherNodeHint = (message: string): string =>
  /ERR_DLOPEN_FAILED|NODE_MODULE_VERSION|MODULE_NOT_FOUND/.test(message)
    ? `\nThis release has no SQLite driver that loads in this Node.js (${process.version}, module version ${process.versions.modules}): it was built with another Node.js version. ` +
      'Build the release with the Node.js that runs it: `npx -y pnpm@10 install && npx -y pnpm@10 build` in the repository; ' +
      'in a release folder on its own, `rm -rf node_modules && npm install` fetches and builds it.'
    : '';
