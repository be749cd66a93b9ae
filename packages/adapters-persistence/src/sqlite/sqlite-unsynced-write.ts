import { preparedPerConnection } from './prepared-on-use';
import { connectionOf, type SqliteDb } from './sqlite-db';

/** The two pragmas, prepared once per connection: compiling them on every write cost as much as the write. */
const pragmas = preparedPerConnection((db) => {
  const connection = connectionOf(db);
  return {
    normal: connection.prepare('pragma synchronous = NORMAL'),
    full: connection.prepare('pragma synchronous = FULL'),
  };
});

/**
 * Runs `write` (statements or a transaction, synchronous as every SQLite write here) with
 * `synchronous = NORMAL` instead of the connection's FULL, then sets FULL again. Its commit is
 * not flushed to disk on its own: each FULL commit costs an fsync (about 5 ms on the benchmark's
 * disk, with the event loop held), which the endpoints anyone may call (recover, sign-up's
 * counters) cannot afford for every request. WAL frames are appended in order, so the next FULL
 * commit on the file flushes this one too; until then a power loss or an OS crash (not a crash of
 * the process) may lose it, and only it, whole. Only for writes whose loss means no more than a
 * user asking again: a send-limit hit, a token and the message that carries it (the sender's
 * claim of the message is a FULL commit, so nothing is mailed before the token is on disk).
 */
export function unsyncedWrite<T>(db: SqliteDb, write: () => T): T {
  // Outside any transaction: SQLite refuses to change the setting inside one.
  const { normal, full } = pragmas(db);
  normal.run();
  try {
    return write();
  } finally {
    full.run();
  }
}
