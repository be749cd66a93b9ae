import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { toDomainError } from '../shared/driver-errors';
import type { PreparedStatements } from '../shared/database-handle';
import type { PostgresTx } from './postgres-db';

/**
 * The key of the lock `name` in the schema the connection searches first: advisory locks are the
 * whole database's, and services in other schemas of it (other deployments, test suites running
 * side by side) must neither wait for this one's turns nor close a cycle of waits with them.
 */
const lockKey = (name: string) => sql`hashtext(current_schema() || ':' || ${name})`;

/** Makes transactions that take the lock `name` take turns: it is held until `tx` ends. */
export async function takeTurns(tx: PostgresTx, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(name)})`);
}

export interface ConnectionSettings {
  url: string;
  schema: string | undefined;
  preparedStatements: PreparedStatements;
  options: postgres.Options<Record<string, never>>;
}

/**
 * `tx` as Drizzle can take it, in place of a pool: with the pool's options (its type parsers),
 * and a nested `begin` as a savepoint, since Drizzle's migrator begins a transaction of its own.
 */
function asPool(tx: postgres.TransactionSql, pool: postgres.Sql): postgres.Sql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'begin') return (fn: (sql: postgres.TransactionSql) => unknown) => target.savepoint(fn);
      if (property === 'options') return pool.options;
      return Reflect.get(target, property, receiver);
    },
  }) as unknown as postgres.Sql;
}

/**
 * Runs `fn` while holding the advisory lock named `name`, in a transaction on a connection of its
 * own: a pool connection could starve `fn` of the pool. The lock is the transaction's, not the
 * session's: behind a pooler in transaction mode a session lock would stay on a server connection
 * that the pooler hands to other clients, while a transaction keeps its server connection until
 * it ends, and ends (releasing the lock) if the process dies. Settings are made per transaction
 * for the same reason: no statement timeout, since waiting for the lock is the point, and the
 * schema searched first. `fn` receives the transaction (as a pool), for work that must happen under the lock
 * on that very connection.
 */
export async function withAdvisoryLock<T>(
  settings: ConnectionSettings,
  name: string,
  fn: (tx: postgres.Sql) => Promise<T>,
): Promise<T> {
  const lockConnection = postgres(settings.url, { ...settings.options, max: 1 });
  try {
    return (await lockConnection.begin(async (tx) => {
      try {
        await tx`select set_config('statement_timeout', '0', true)`;
        if (settings.schema !== undefined) await tx`select set_config('search_path', ${settings.schema}, true)`;
        // As lockKey, on this connection's own client. Before the first migration the schema
        // does not exist and current_schema() is null, which would take no lock at all (the
        // function is strict), and instances starting together would all create it: its name then.
        await tx`select pg_advisory_xact_lock(hashtext(coalesce(current_schema(), ${settings.schema ?? ''}) || ':' || ${name}))`;
      } catch (error) {
        throw toDomainError(error, 'database.advisoryLock');
      }
      return fn(asPool(tx, lockConnection));
    })) as T;
  } finally {
    await lockConnection.end({ timeout: 5 });
  }
}
