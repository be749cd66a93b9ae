import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { toDomainError } from '../shared/driver-errors';
import type { PostgresTx } from './postgres-db';

/** Makes transactions that take the lock `name` take turns: it is held until `tx` ends. */
export async function takeTurns(tx: PostgresTx, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
}

export interface ConnectionSettings {
  url: string;
  schema: string | undefined;
  options: postgres.Options<Record<string, never>>;
}

/**
 * Runs `fn` while holding a session-level advisory lock named `name`, on a connection of its own:
 * a pool connection could starve `fn` of the pool, and the lock dies with its connection if the
 * process does. The lock connection has no statement timeout, since waiting for the lock is the
 * point; `fn` receives it, for work that must happen under the lock on that very connection.
 */
export async function withAdvisoryLock<T>(
  settings: ConnectionSettings,
  name: string,
  fn: (connection: postgres.Sql) => Promise<T>,
): Promise<T> {
  const { connection, ...options } = settings.options;
  const lockConnection = postgres(settings.url, {
    ...options,
    max: 1,
    connection: { ...connection, statement_timeout: 0 },
  });
  try {
    try {
      await lockConnection`select pg_advisory_lock(hashtext(${name}))`;
    } catch (error) {
      throw toDomainError(error, 'database.advisoryLock');
    }
    return await fn(lockConnection);
  } finally {
    await lockConnection.end({ timeout: 5 }); // ending the session releases the lock
  }
}
