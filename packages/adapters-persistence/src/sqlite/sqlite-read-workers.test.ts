import { afterEach, describe, expect, it } from 'vitest';
import { sampleUser } from '@uas/domain/testing';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';
import { SqliteReadWorkers } from './sqlite-read-workers';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds, for at most `ms`. */
async function until(done: () => boolean, ms: number, step: () => Promise<unknown> = () => delay(20)) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await step();
}

describe('SqliteReadWorkers', () => {
  let file: TemporarySqliteFile | undefined;
  let workers: SqliteReadWorkers | undefined;
  afterEach(async () => {
    await workers?.close();
    file?.remove();
  });

  it('starts one thread, a second while the first is busy, and stops it again after a quiet spell', async () => {
    file = createTemporarySqliteFile();
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
    await database.migrate();
    await database.repositories.users.insertMany(Array.from({ length: 2000 }, () => sampleUser()));
    await database.close();
    workers = new SqliteReadWorkers({ path: file.path, busyTimeoutMs: 5000, mmapBytes: 0 }, 2, {
      windowMs: 100,
      quietWindowsToRetire: 3,
    });
    const pool = workers;
    expect(pool.threads).toBe(0);
    // Two characters: too short for the trigram index, so every query reads every email.
    const query = { page: 3, size: 20, emailContains: '1@' };
    const answer = pool.list(query);
    expect(pool.threads).toBe(1);
    const first = await answer;
    expect(first.page.total).toBeGreaterThan(0);

    // Queries queued without a pause keep the thread busy all the time.
    await until(
      () => pool.threads === 2,
      20_000,
      () => Promise.all(Array.from({ length: 16 }, () => pool.list(query))),
    );
    expect(pool.threads).toBe(2);

    await until(() => pool.threads === 1, 20_000);
    expect(pool.threads).toBe(1);
    expect((await pool.list(query)).page).toEqual(first.page);
  });
});
