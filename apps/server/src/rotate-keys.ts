import { openDatabase } from '@uas/adapters-persistence';
import { loadConfig } from './config';
import { buildContainer, resolve, Tokens } from './container';

/**
 * `pnpm rotate-keys`: new tokens are signed with a new key from now on (every instance picks it
 * up within a minute); tokens signed with the previous key stay valid until they expire.
 */
async function rotateKeys(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database, {
    poolSize: 1,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    schema: config.databaseSchema,
  });
  try {
    const container = buildContainer(config, database);
    const key = await database.withStartupLock(async () => {
      await database.migrate();
      return resolve(container, Tokens.KeyRing).rotate();
    });
    process.stdout.write(`New signing key ${key.kid} (${key.algorithm}) is now in use; previous keys verify until their tokens expire.\n`);
  } finally {
    await database.close();
  }
}

rotateKeys().catch((error: unknown) => {
  process.stderr.write(`Key rotation failed: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
});
