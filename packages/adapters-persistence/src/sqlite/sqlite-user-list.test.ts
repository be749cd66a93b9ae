import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleUser } from '@uas/domain/testing';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { MatchCache } from '../shared/match-cache';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';
import { connectSqlite } from './sqlite-database';
import { SqliteUserList } from './sqlite-user-list';

describe('SqliteUserList', () => {
  let file: TemporarySqliteFile | undefined;
  afterEach(() => file?.remove());

  it('serves every page of a search it has read on the event loop, from the ids it keeps', async () => {
    file = createTemporarySqliteFile();
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
    await database.migrate();
    // 2,000 of 3,000 match: 200 pages of 10, far more than the first and last few.
    const seed = Array.from({ length: 3000 }, (_, n) =>
      sampleUser({ email: `s${n}@${n % 3 ? 'kept' : 'other'}.example` }),
    );
    await database.repositories.users.insertMany(seed);
    await database.close();
    const client = connectSqlite(file.path);
    try {
      const list = new SqliteUserList(drizzle(client));
      const cache = new MatchCache();
      const term = '@kept.';
      const read = list.list({ page: 1, size: 10, emailContains: term }, cache);
      const { found } = read!;
      cache.set(found!.term, found!.generation, found!.matches);
      const expected = seed.filter((user) => user.email.includes(term)).map((user) => user.id);
      const wrong: unknown[] = [];
      for (let page = 1; page <= 200; page++) {
        // Cheap only: undefined would send it to a read worker.
        const reply = list.list({ page, size: 10, emailContains: term }, cache, true);
        const ids = reply?.page.users.map((user) => user.id).join();
        if (reply?.page.total !== 2000 || ids !== expected.slice((page - 1) * 10, page * 10).join())
          wrong.push({ page, served: reply !== undefined });
      }
      expect(wrong).toEqual([]);
    } finally {
      client.close();
    }
  });
});
