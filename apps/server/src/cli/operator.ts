import { openDatabase, type Database } from '@uas/adapters-persistence';
import type { DependencyContainer } from 'tsyringe';
import { loadConfig, type Config } from '../config';
import { buildContainer } from '../container';

export interface Operator {
  config: Config;
  database: Database;
  container: DependencyContainer;
}

/**
 * The configuration the server would use (environment and `.env`), its database and container,
 * for the length of one command. Unless told otherwise the database is migrated first, under the
 * lock instances take at start, so a command may run before the first start.
 */
export async function withOperator<T>(work: (operator: Operator) => Promise<T>, { migrate = true } = {}): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config.database, {
    poolSize: 2,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    schema: config.databaseSchema,
    memoryMap: false,
  });
  try {
    if (migrate) await database.withStartupLock(() => database.migrate());
    return await work({ config, database, container: buildContainer(config, database) });
  } finally {
    await database.close();
  }
}
