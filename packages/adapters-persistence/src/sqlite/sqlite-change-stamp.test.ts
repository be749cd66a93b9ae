import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyUserPatch, type User } from '@uas/domain';
import { sampleUser } from '@uas/domain/testing';
import { openDatabase } from '../database';
import type { Database } from '../shared/database-handle';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';

// Lists and failure counts read again are answered from memory while nothing in the file has
// changed (see HeldWhileUnchanged): these prove that any write, of any column, through this instance or
// another, is seen by the next read.
describe.each([
  ['on the event loop', 0],
  ['on a read worker', 1],
])('SQLite reads held until the file changes (lists %s)', (_, readWorkers) => {
  let file: TemporarySqliteFile;
  let here: Database;
  let there: Database;
  beforeEach(async () => {
    file = createTemporarySqliteFile();
    const location = { dialect: 'sqlite', url: `sqlite:${file.path}`, path: file.path } as const;
    here = await openDatabase(location, { readWorkers });
    await here.migrate();
    there = await openDatabase(location, { readWorkers });
  });
  afterEach(async () => {
    await there.close();
    await here.close();
    file.remove();
  });

  const firstPage = async (database: Database) => (await database.repositories.users.list({ page: 1, size: 20 })).users;
  const rename = (name: string) => (current: User) => ({ user: applyUserPatch(current, { name }, current.updated) });

  it('lists a change of any column made through this instance or another', async () => {
    const user = sampleUser();
    await here.repositories.users.insert(user);
    expect((await firstPage(here)).map(({ name }) => name)).toEqual([user.name]);
    expect((await firstPage(here)).map(({ name }) => name)).toEqual([user.name]);

    await there.repositories.users.update(user.id, rename('Renamed elsewhere'));
    expect((await firstPage(here)).map(({ name }) => name)).toEqual(['Renamed elsewhere']);

    await here.repositories.users.update(user.id, rename('Renamed here'));
    expect((await firstPage(here)).map(({ name }) => name)).toEqual(['Renamed here']);
    expect((await firstPage(there)).map(({ name }) => name)).toEqual(['Renamed here']);

    const search = { page: 1, size: 20, emailContains: user.email.slice(0, 6) };
    expect((await here.repositories.users.list(search)).total).toBe(1);
    await there.repositories.users.delete(user.id, user.updated);
    expect(await here.repositories.users.list(search)).toEqual({ total: 0, users: [] });
    expect(await firstPage(here)).toEqual([]);
  });

  it('counts a failure recorded through this instance or another, after keys were found with none', async () => {
    const since = new Date('2026-01-01T00:00:00Z');
    const keys = ['account:user:a@example.com', 'account:user:b@example.com'];
    const counts = (database: Database, from = since) => database.repositories.attempts.failureCounts(keys, from);
    expect(await counts(here)).toEqual(new Map());

    await there.repositories.attempts.record('attempt-1', [keys[0]!], new Date('2026-01-01T00:01:00Z'));
    expect(await counts(here)).toEqual(new Map([[keys[0], 1]]));
    // Later than the failure: none, and none again from memory, until the next write.
    expect(await counts(here, new Date('2026-01-01T00:02:00Z'))).toEqual(new Map());
    expect(await counts(here, new Date('2026-01-01T00:03:00Z'))).toEqual(new Map());

    await here.repositories.attempts.record('attempt-2', [keys[1]!], new Date('2026-01-01T00:04:00Z'));
    expect(await counts(here, new Date('2026-01-01T00:03:00Z'))).toEqual(new Map([[keys[1], 1]]));
    expect(await counts(there)).toEqual(
      new Map([
        [keys[0], 1],
        [keys[1], 1],
      ]),
    );

    await there.repositories.attempts.withdraw('attempt-2');
    expect(await counts(here, new Date('2026-01-01T00:03:00Z'))).toEqual(new Map());
  });
});
