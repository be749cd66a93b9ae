import { sessionOf, type SqliteDb } from './sqlite-db';

/**
 * A statement prepared on its first use (once the migrations have made its tables) and reused
 * after: building and compiling the SQL of a look-up on every call cost as much as running it.
 */
export function preparedOnUse<Statement>(prepare: () => Statement): () => Statement {
  let statement: Statement | undefined;
  return () => (statement ??= prepare());
}

/**
 * Statements prepared once per connection, on first use, whether asked for through the handle or
 * through a transaction on it (Drizzle gives a transaction its handle's session, which runs every
 * statement on the one connection): for the writes that run inside callers' transactions, where
 * building and compiling their SQL at every call cost more than running it (issue 29).
 */
export function preparedPerConnection<Statements>(prepare: (db: SqliteDb) => Statements): (db: SqliteDb) => Statements {
  const prepared = new WeakMap<object, Statements>();
  return (db) => {
    const session = sessionOf(db);
    let statements = prepared.get(session);
    if (!statements) prepared.set(session, (statements = prepare(db)));
    return statements;
  };
}
