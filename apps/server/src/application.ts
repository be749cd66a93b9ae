import { createHttpApp } from '@uas/adapters-http';
import type { Logger, UseCases } from '@uas/domain';
import { openDatabase } from '@uas/adapters-persistence';
import { ADMIN_PANEL_ROOT } from '@uas/admin-panel';
import type { Config } from './config';
import type { DependencyContainer } from 'tsyringe';
import { KeyRing } from './adapters/key-ring';
import { SecretKeyRing } from './adapters/secret-key-ring';
import { buildContainer, mailOf, openIdProviderOf, systemContainer, useCasesOf, webhooksOf } from './container';
import type { EngineMount } from './openid-provider/openid-mount';
import { startMailSender } from './mail-sender';
import { startMailRequestWorker } from './mail-request-worker';
import { startWebhookWorker } from './webhook-worker';
import { PrometheusMetrics } from './adapters/prometheus-metrics';
import { Readiness } from './readiness';
import { bootstrapAdmin } from './admin-bootstrap';
import { cannotOpenDatabase } from './database-open-error';
import { scheduleHousekeeping } from './housekeeping-schedule';

export interface Application {
  app: ReturnType<typeof createHttpApp>;
  /** The OpenID Connect engine's requests, which the Node listener hands it beside the app. */
  openId: EngineMount;
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
  }).catch(cannotOpenDatabase(config.database));
  try {
    await database.ping().catch(cannotOpenDatabase(config.database));
    // Metrics cost a little on every request: kept only when someone can read them.
    const metrics = config.metricsToken
      ? new PrometheusMetrics(database.dialect === 'postgres' ? config.databasePoolSize : 1)
      : null;
    const container = buildContainer(config, database, metrics, parent);
    const useCases = useCasesOf(container, config, logger);
    const keyRing = container.resolve(KeyRing);
    const openId = openIdProviderOf(container, config, logger);
    await database.withStartupLock(async () => {
      await database.migrate();
      await bootstrapAdmin(useCases.admins, config.adminKeyPath, config.adminEmail, logger);
      await keyRing.ensureSigningKey();
      await openId.companions.sync((await keyRing.usable()).keys);
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
      oauthClients: useCases.oauthClients,
      applicationGrants: useCases.applicationGrants,
      tokenKeys: container.resolve(SecretKeyRing),
      openIdInteractions: openId.interactions,
      oauthStartLimit: useCases.oauthStartLimit,
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
      openId: openId.mount,
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
