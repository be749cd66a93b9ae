import { groupAudit, SqliteAuditTrail, sqliteChainingPass } from './sqlite-audit-trail';
import { AuditSequencer } from '../shared/audit-sequencer';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteConnection, type SqliteConnection } from './sqlite-driver';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { Database, DatabaseOptions } from '../shared/database-handle';
import { guarded, guardedRepositories } from '../shared/driver-errors';
import { migrationStatus } from '../shared/migration-status';
import { SqliteActivityRepository } from './sqlite-activity.repository';
import { SqliteAdminRepository } from './sqlite-admin.repository';
import { SqliteFactorRepository } from './sqlite-factor.repository';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { SqliteSignInChallengeRepository } from './sqlite-sign-in-challenge.repository';
import type { SqliteDb } from './sqlite-db';
import { SqliteLoginAttemptRepository } from './sqlite-login-attempt.repository';
import { SqliteSessionRepository } from './sqlite-session.repository';
import { SqliteSigningKeyRepository } from './sqlite-signing-key.repository';
import { SqliteSecretRepository } from './sqlite-secret.repository';
import { SqliteMailRequestQueue } from './sqlite-mail-request-queue';
import { SqliteRateCounterRepository } from './sqlite-rate-counter.repository';
import { SqliteActionTokenRepository } from './sqlite-action-token.repository';
import { SqliteWebhookRepository } from './sqlite-webhook.repository';
import { SqliteAdminInvitationRepository } from './sqlite-admin-invitation.repository';
import { SqliteInvitationRepository } from './sqlite-invitation.repository';
import { SqliteMailQueue } from './sqlite-mail-queue';
import { SqliteWebhookDeliveryRepository } from './sqlite-webhook-delivery.repository';
import { SqliteIdentityProviderRepository } from './sqlite-identity-provider.repository';
import { SqliteOAuthClientRepository } from './sqlite-oauth-client.repository';
import { SqliteOpenIdRecordRepository } from './sqlite-openid-record.repository';
import { SqliteExternalIdentityRepository } from './sqlite-external-identity.repository';
import { SqliteOAuthAttemptRepository } from './sqlite-oauth-attempt.repository';
import { SqlitePasswordRehashRepository } from './sqlite-password-rehash.repository';
import { SqliteUserImportRepository } from './sqlite-user-import.repository';
import { withSqliteFileLock } from './sqlite-file-lock';
import { MMAP_BYTES, SqliteReadWorkers } from './sqlite-read-workers';
import { SqliteUserRepository } from './sqlite-user.repository';

const MIGRATIONS = fileURLToPath(new URL('../../migrations/sqlite', import.meta.url));
const BUSY_TIMEOUT_MS = 5000;
const IN_MEMORY = ':memory:';

/** A better-sqlite3 connection configured for durability; exported for its tests. */
export function connectSqlite(path: string, mmapBytes = 0): SqliteConnection {
  if (path !== IN_MEMORY) {
    // The file holds password hashes and the private signing keys: only the service's user may
    // read it. SQLite gives the -wal and -shm files the mode of the database file.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  }
  const client = openSqliteConnection(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // WAL lets readers run beside the writer. In WAL mode synchronous=NORMAL may lose the last
    // commits on power loss; FULL syncs every commit, so an acknowledged write survives a kill.
    client.pragma('journal_mode = WAL');
    client.pragma('synchronous = FULL');
    client.pragma('foreign_keys = ON');
    // A group commit's savepoints keep the pages its writes change in a statement journal; past
    // 64 KiB SQLite moves that journal to a temporary file, created, written and removed at every
    // group under load. In memory it costs at most the pages one transaction changes. Sorts and
    // temporary b-trees stay in memory too: no statement here sorts without an index, and the
    // migrations, whose index builds do, run with temporary files (see migrate).
    client.pragma('temp_store = MEMORY');
    client.pragma(`mmap_size = ${mmapBytes}`);
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}

function sqliteRepositories(db: SqliteDb, workers: SqliteReadWorkers | undefined, sequencer: AuditSequencer) {
  // One group for the database: a user's change and a sign-in's session arriving together share
  // one commit (one fsync) too.
  const writes = new SqliteGroupCommit(db, groupAudit);
  return guardedRepositories({
    users: new SqliteUserRepository(db, writes, workers),
    admins: new SqliteAdminRepository(db),
    sessions: new SqliteSessionRepository(db, writes),
    attempts: new SqliteLoginAttemptRepository(db),
    signingKeys: new SqliteSigningKeyRepository(db),
    rehash: new SqlitePasswordRehashRepository(db),
    imports: new SqliteUserImportRepository(db),
    activity: new SqliteActivityRepository(db),
    secrets: new SqliteSecretRepository(db),
    mail: new SqliteMailQueue(db),
    tokens: new SqliteActionTokenRepository(db),
    rateCounters: new SqliteRateCounterRepository(db),
    mailRequests: new SqliteMailRequestQueue(db),
    invitations: new SqliteInvitationRepository(db),
    adminInvitations: new SqliteAdminInvitationRepository(db),
    audit: new SqliteAuditTrail(db, sequencer),
    factors: new SqliteFactorRepository(db),
    signInChallenges: new SqliteSignInChallengeRepository(db),
    webhooks: new SqliteWebhookRepository(db),
    webhookDeliveries: new SqliteWebhookDeliveryRepository(db),
    identityProviders: new SqliteIdentityProviderRepository(db),
    externalIdentities: new SqliteExternalIdentityRepository(db),
    oauthAttempts: new SqliteOAuthAttemptRepository(db),
    oauthClients: new SqliteOAuthClientRepository(db),
    openIdRecords: new SqliteOpenIdRecordRepository(db, writes),
  });
}

/**
 * Opens (creating it and its directory if needed) the SQLite database at `path`, or ':memory:'.
 * With `readWorkers`, list queries on a file run on that many worker threads.
 */
export async function openSqliteDatabase(
  path: string,
  { readWorkers = 0, memoryMap = true }: DatabaseOptions = {},
): Promise<Database> {
  const mmapBytes = memoryMap ? MMAP_BYTES : 0;
  const onWorkers = readWorkers > 0 && path !== IN_MEMORY;
  // The map serves the connections that run lists: the workers', or this one when there are none.
  const client = await guarded('database.open', () => connectSqlite(path, onWorkers ? 0 : mmapBytes));
  const db = drizzle(client);
  const workers = onWorkers
    ? new SqliteReadWorkers({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes }, readWorkers)
    : undefined;
  const sequencer = new AuditSequencer(sqliteChainingPass(db));
  return {
    dialect: 'sqlite',
    repositories: sqliteRepositories(db, workers, sequencer),
    migrate: async () => {
      client.pragma('temp_store = DEFAULT');
      try {
        await guarded('database.migrate', () => migrate(db, { migrationsFolder: MIGRATIONS }));
      } finally {
        client.pragma('temp_store = MEMORY');
      }
      // A process that migrates serves (or imports): its ticks chain what its writes record.
      sequencer.start();
    },
    migrationStatus: () =>
      guarded('database.migrationStatus', () => {
        const table = client
          .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
          .get();
        const applied = table
          ? (client.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n
          : 0;
        return migrationStatus(MIGRATIONS, applied);
      }),
    withStartupLock: (fn) => (path === IN_MEMORY ? fn() : withSqliteFileLock(`${path}-startup.lock`, fn)),
    ping: () => guarded('database.ping', () => void client.prepare('select 1').get()),
    close: async () => {
      await sequencer.stop();
      await workers?.close();
      if (client.open) client.close();
    },
  };
}
