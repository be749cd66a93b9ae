import { PostgresAuditTrail, postgresChainingPass } from './postgres-audit-trail';
import { AuditSequencer } from '../shared/audit-sequencer';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Database, DatabaseOptions } from '../shared/database-handle';
import { guarded, guardedRepositories } from '../shared/driver-errors';
import { migrationStatus } from '../shared/migration-status';
import { withAdvisoryLock, type ConnectionSettings } from './postgres-advisory-lock';
import { PostgresActivityRepository } from './postgres-activity.repository';
import { PostgresAdminRepository } from './postgres-admin.repository';
import { PostgresFactorRepository } from './postgres-factor.repository';
import { PostgresSignInChallengeRepository } from './postgres-sign-in-challenge.repository';
import type { PostgresDb } from './postgres-db';
import { PostgresLoginAttemptRepository } from './postgres-login-attempt.repository';
import { PostgresSessionRepository } from './postgres-session.repository';
import { PostgresSigningKeyRepository } from './postgres-signing-key.repository';
import { PostgresSecretRepository } from './postgres-secret.repository';
import { PostgresMailRequestQueue } from './postgres-mail-request-queue';
import { PostgresRateCounterRepository } from './postgres-rate-counter.repository';
import { PostgresActionTokenRepository } from './postgres-action-token.repository';
import { PostgresWebhookRepository } from './postgres-webhook.repository';
import { PostgresAdminInvitationRepository } from './postgres-admin-invitation.repository';
import { PostgresInvitationRepository } from './postgres-invitation.repository';
import { PostgresMailQueue } from './postgres-mail-queue';
import { PostgresWebhookDeliveryRepository } from './postgres-webhook-delivery.repository';
import { PostgresIdentityProviderRepository } from './postgres-identity-provider.repository';
import { PostgresOAuthClientRepository } from './postgres-oauth-client.repository';
import { PostgresOpenIdRecordRepository } from './postgres-openid-record.repository';
import { PostgresExternalIdentityRepository } from './postgres-external-identity.repository';
import { PostgresOAuthAttemptRepository } from './postgres-oauth-attempt.repository';
import { preparingClient } from './postgres-prepared-client';
import { PostgresPasswordRehashRepository } from './postgres-password-rehash.repository';
import { PostgresUserImportRepository } from './postgres-user-import.repository';
import { PostgresUserRepository } from './postgres-user.repository';

const MIGRATIONS = fileURLToPath(new URL('../../migrations/postgres', import.meta.url));
// Migrations install pg_trgm, which is one per database, so they take turns database-wide.
const MIGRATION_LOCK = 'uas:migrate';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const CONNECT_TIMEOUT_SECONDS = 5;
const reconnectDelaySeconds = (attempts: number) => Math.min(0.05 * 2 ** attempts, 1);

/** Whether `name` may name the schema: a lower-case SQL identifier short enough not to be truncated. */
export function isPostgresSchemaName(name: string): boolean {
  return SCHEMA_NAME.test(name);
}

function checkedSchema(schema: string | undefined): string | undefined {
  if (schema !== undefined && !isPostgresSchemaName(schema)) {
    throw new Error('The PostgreSQL schema must be a lower-case SQL identifier of at most 63 characters.');
  }
  return schema;
}

export function connectionSettings(url: string, options: DatabaseOptions): ConnectionSettings {
  const schema = checkedSchema(options.schema);
  const preparedStatements = options.preparedStatements ?? true;
  return {
    url,
    schema,
    preparedStatements,
    options: {
      max: options.poolSize ?? 10,
      // 'shared' is patches/postgres@3.4.9.patch's: a statement named by its text (statementName).
      prepare: preparedStatements === 'pooled' ? 'shared' : preparedStatements,
      // Behind a transaction pooler (pooled or unprepared), nothing is sent while a connection
      // awaits an answer: PgBouncer 1.18 may give what follows another server connection, and was
      // seen to stall such a statement, and to run a transaction begun so inside another's.
      ...(preparedStatements === true ? {} : { max_pipeline: 0 }),
      // A server that is gone must turn into a 503 within a request's patience, not after 30 s.
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
      // postgres.js waits before reconnecting, 3^n / 100 s after n failed attempts (up to 20 s),
      // and a request waits with it: a database back after a few seconds would still hold
      // requests for many more. At most a second between attempts, so each request gets its
      // answer (rows or a 503) at once and service resumes within a second of the return.
      backoff: reconnectDelaySeconds,
      onnotice: () => {}, // "already exists, skipping" and the like are not worth a log line
      connection: {
        application_name: 'user-account-service',
        statement_timeout: options.statementTimeoutMs ?? 5000,
        ...(schema === undefined ? {} : { search_path: schema }),
      },
    },
  };
}

/**
 * The pool's statements name tables without their schema, so its connections must search the
 * schema first. Direct, the search path is sent when each connection opens; a pooler in
 * transaction mode drops it (PgBouncer: ignore_startup_parameters), and the role's own setting
 * must say it (`ALTER ROLE … SET search_path`). Checked once the tables exist, so that an
 * instance never writes into another schema than the one it migrated.
 */
async function expectSchema(client: postgres.Sql, schema: string | undefined): Promise<void> {
  if (schema === undefined) return;
  const [found] = await guarded('database.searchPath', () => client`select current_schema() as name`);
  if (found?.name === schema) return;
  throw new Error(
    `The connections search the schema ${found?.name ?? '(none)'}, not DATABASE_SCHEMA ${schema}: a pooler in transaction mode does not pass on the search path, so set it on the role (ALTER ROLE <user> SET search_path = ${schema}).`,
  );
}

function postgresRepositories(db: PostgresDb, sequencer: AuditSequencer) {
  return guardedRepositories({
    users: new PostgresUserRepository(db),
    admins: new PostgresAdminRepository(db),
    sessions: new PostgresSessionRepository(db),
    attempts: new PostgresLoginAttemptRepository(db),
    signingKeys: new PostgresSigningKeyRepository(db),
    rehash: new PostgresPasswordRehashRepository(db),
    imports: new PostgresUserImportRepository(db),
    activity: new PostgresActivityRepository(db),
    secrets: new PostgresSecretRepository(db),
    mail: new PostgresMailQueue(db),
    tokens: new PostgresActionTokenRepository(db),
    rateCounters: new PostgresRateCounterRepository(db),
    mailRequests: new PostgresMailRequestQueue(db),
    invitations: new PostgresInvitationRepository(db),
    adminInvitations: new PostgresAdminInvitationRepository(db),
    audit: new PostgresAuditTrail(db, sequencer),
    factors: new PostgresFactorRepository(db),
    signInChallenges: new PostgresSignInChallengeRepository(db),
    webhooks: new PostgresWebhookRepository(db),
    webhookDeliveries: new PostgresWebhookDeliveryRepository(db),
    identityProviders: new PostgresIdentityProviderRepository(db),
    externalIdentities: new PostgresExternalIdentityRepository(db),
    oauthAttempts: new PostgresOAuthAttemptRepository(db),
    oauthClients: new PostgresOAuthClientRepository(db),
    openIdRecords: new PostgresOpenIdRecordRepository(db),
  });
}

/** Opens a pool on the PostgreSQL database at `url`; connections are made when first needed. */
export async function openPostgresDatabase(url: string, options: DatabaseOptions): Promise<Database> {
  const settings = connectionSettings(url, options);
  const client = postgres(url, settings.options);
  let closing: Promise<void> | undefined;
  const db = drizzle(settings.preparedStatements ? preparingClient(client) : client);
  const sequencer = new AuditSequencer(postgresChainingPass(db));
  return {
    dialect: 'postgres',
    repositories: postgresRepositories(db, sequencer),
    migrate: async () => {
      await guarded('database.migrate', () =>
        withAdvisoryLock(settings, MIGRATION_LOCK, (tx) =>
          // With a schema, the bookkeeping table lives beside the tables it describes.
          migrate(drizzle(tx), { migrationsFolder: MIGRATIONS, migrationsSchema: settings.schema }),
        ),
      );
      await expectSchema(client, settings.schema);
      // A process that migrates serves (or imports): its ticks chain what its writes record.
      sequencer.start();
    },
    migrationStatus: () =>
      guarded('database.migrationStatus', async () => {
        // Drizzle keeps its bookkeeping in the `drizzle` schema, or beside the tables when given one.
        const table = `${settings.schema ?? 'drizzle'}.__drizzle_migrations`;
        const [found] = await client`select to_regclass(${table}) is not null as present`;
        const [counted] = found?.present
          ? await client`select count(*)::int as n from ${client(settings.schema ?? 'drizzle')}.__drizzle_migrations`
          : [{ n: 0 }];
        return migrationStatus(MIGRATIONS, counted?.n ?? 0);
      }),
    withStartupLock: (fn) => withAdvisoryLock(settings, `uas:startup:${settings.schema ?? ''}`, () => fn()),
    ping: () => guarded('database.ping', async () => void (await client`select 1`)),
    close: () => (closing ??= sequencer.stop().then(() => client.end({ timeout: 5 }))),
  };
}
