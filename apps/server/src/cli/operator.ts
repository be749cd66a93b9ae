import { openDatabase, type Database } from '@uas/adapters-persistence';
import type { UseCases } from '@uas/domain';
import { KeyRing } from '../adapters/key-ring';
import { SecretKeyRing } from '../adapters/secret-key-ring';
import { JsonLogger } from '../adapters/json-logger';
import { loadConfig, type Config } from '../config';
import { buildContainer, openIdProviderOf, useCasesOf } from '../container';
import type { RsaCompanionKeys } from '../openid-provider/rsa-companion-keys';
import { cannotOpenDatabase } from '../database-open-error';
import type { MailService } from '@uas/domain';

export interface Operator {
  config: Config;
  database: Database;
  useCases: UseCases;
  keyRing: KeyRing;
  /** The RS256 keys beside the signing keys, for OpenID clients asking for RS256. */
  companionKeys: RsaCompanionKeys;
  secretKeyRing: SecretKeyRing;
  mail: MailService;
}

/**
 * The configuration the server would use (environment and `.env`), its database, use cases and key ring,
 * for the length of one command. Unless told otherwise the database is migrated first, under the
 * lock instances take at start, so a command may run before the first start.
 */
export async function withOperator<T>(work: (operator: Operator) => Promise<T>, { migrate = true } = {}): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config.database, {
    poolSize: 2,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
    schema: config.databaseSchema,
    memoryMap: false,
  }).catch(cannotOpenDatabase(config.database));
  try {
    // Connecting is lazy: a server that is not there is named here, with DATABASE_URL, as at start.
    await database.ping().catch(cannotOpenDatabase(config.database));
    if (migrate) await database.withStartupLock(() => database.migrate());
    const container = buildContainer(config, database);
    const silent = new JsonLogger('silent');
    const useCases = useCasesOf(container, config, silent);
    return await work({
      config,
      database,
      useCases,
      keyRing: container.resolve(KeyRing),
      companionKeys: openIdProviderOf(container, config, silent).companions,
      secretKeyRing: container.resolve(SecretKeyRing),
      // The command says what it queued itself.
      mail: useCases.mail,
    });
  } finally {
    await database.close();
  }
}
