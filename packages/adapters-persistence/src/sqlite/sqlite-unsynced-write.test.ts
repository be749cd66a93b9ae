import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSqlite } from './sqlite-database';
import { unsyncedWrite } from './sqlite-unsynced-write';

const FULL = 2;

describe('unsyncedWrite', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  function open() {
    const directory = mkdtempSync(join(tmpdir(), 'uas-unsynced-'));
    directories.push(directory);
    const client = connectSqlite(join(directory, 'test.db'));
    const db = drizzle(client);
    db.run(sql`create table t (n integer)`);
    return { client, db };
  }

  it('commits the write, and leaves the connection syncing every other commit as before', () => {
    const { client, db } = open();
    expect(client.pragma('synchronous', { simple: true })).toBe(FULL);
    unsyncedWrite(db, () => db.transaction((tx) => tx.run(sql`insert into t values (1)`)));
    expect(client.pragma('synchronous', { simple: true })).toBe(FULL);
    expect(client.prepare('select count(*) as n from t').get()).toEqual({ n: 1 });
    client.close();
  });

  it('sets FULL again when the write fails, and the failed write leaves nothing', () => {
    const { client, db } = open();
    expect(() =>
      unsyncedWrite(db, () =>
        db.transaction((tx) => {
          tx.run(sql`insert into t values (1)`);
          throw new Error('refused');
        }),
      ),
    ).toThrow('refused');
    expect(client.pragma('synchronous', { simple: true })).toBe(FULL);
    expect(client.prepare('select count(*) as n from t').get()).toEqual({ n: 0 });
    client.close();
  });
});
