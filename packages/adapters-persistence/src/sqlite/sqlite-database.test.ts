import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleUser } from '@uas/domain/testing';
import { describeDatabaseContract } from '../database.contract';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';
import { connectSqlite } from './sqlite-database';
import { selectUserPage } from './sqlite-user.repository';

describeDatabaseContract('SQLite', async () => {
  const file = createTemporarySqliteFile();
  return { location: parseDatabaseUrl(`sqlite:${file.path}`), remove: async () => file.remove() };
});

describe('SQLite database', () => {
  let file: TemporarySqliteFile | undefined;
  afterEach(() => file?.remove());

  it('runs in WAL mode, syncs every commit and enforces foreign keys', () => {
    file = createTemporarySqliteFile();
    const client = connectSqlite(file.path);
    try {
      expect(client.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(client.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(client.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(client.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
    } finally {
      client.close();
    }
  });

  it('creates the directory of the database file when it is missing', async () => {
    file = createTemporarySqliteFile();
    const path = join(file.path, '..', 'nested', 'deeper', 'app.db');
    const database = await openDatabase(parseDatabaseUrl(`file:${path}`));
    await database.migrate();
    await database.close();
    const reopened = connectSqlite(path);
    expect(reopened.prepare("select name from sqlite_master where name = 'users'").get()).toEqual({ name: 'users' });
    reopened.close();
  });

  it('creates the database and its WAL files readable by the service\'s user only, in a private directory', async () => {
    file = createTemporarySqliteFile();
    const dir = join(file.path, '..', 'private');
    const path = join(dir, 'app.db');
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${path}`));
    await database.migrate();
    const modes = await Promise.all([dir, path, `${path}-wal`, `${path}-shm`].map(async (p) => (await stat(p)).mode & 0o777));
    await database.close();
    expect(modes).toEqual([0o700, 0o600, 0o600, 0o600]);
  });

  it('serves the list order from the (created, id) index, never sorting in a temporary B-tree', async () => {
    file = createTemporarySqliteFile();
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
    await database.migrate();
    await database.close();
    const client = connectSqlite(file.path);
    try {
      for (const query of [{ page: 3, size: 20 }, { page: 1, size: 20, emailContains: 'a%b' }]) {
        const { sql, params } = selectUserPage(drizzle(client), query).toSQL();
        const plan = client
          .prepare(`explain query plan ${sql}`)
          .all(...params)
          .map((step) => (step as { detail: string }).detail)
          .join('\n');
        expect(plan).toContain('users_created_id_idx');
        expect(plan).not.toContain('TEMP B-TREE');
      }
    } finally {
      client.close();
    }
  });

  it('opens sqlite::memory: for throw-away use', async () => {
    file = undefined;
    const database = await openDatabase(parseDatabaseUrl('sqlite::memory:'));
    await database.migrate();
    const user = sampleUser();
    await database.repositories.users.insert(user);
    expect(await database.withStartupLock(() => database.repositories.users.findById(user.id))).toEqual(user);
    await database.close();
  });
});
