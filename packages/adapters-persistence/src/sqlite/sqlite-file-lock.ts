import { setTimeout as sleep } from 'node:timers/promises';
import { openSqliteConnection, type SqliteConnection } from './sqlite-driver';
import { toDomainError } from '../shared/driver-errors';

const POLL_MS = 50;

/**
 * Runs `fn` while holding an exclusive SQLite lock on a sidecar file, so that processes starting
 * on one database file take turns. The operating system drops the lock if its holder dies. It
 * polls rather than waiting in busy_timeout, which would block the event loop meanwhile.
 */
export async function withSqliteFileLock<T>(lockPath: string, fn: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const lock = openSqliteConnection(lockPath, { timeout: 0 });
  try {
    await acquire(lock, Date.now() + timeoutMs);
    return await fn();
  } finally {
    lock.close(); // ends the transaction, and with it the lock
  }
}

async function acquire(lock: SqliteConnection, deadline: number): Promise<void> {
  for (;;) {
    try {
      lock.exec('BEGIN EXCLUSIVE');
      return;
    } catch (error) {
      const busy = (error as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() >= deadline) throw toDomainError(error, 'database.withStartupLock');
      await sleep(POLL_MS);
    }
  }
}
