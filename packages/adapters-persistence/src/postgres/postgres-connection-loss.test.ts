import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestPostgresSchema, type TestPostgresSchema } from '../testing/postgres-test-database';
import { isConnectionFailure } from '../shared/driver-errors';
import { connectionSettings } from './postgres-database';
import { preparingClient } from './postgres-prepared-client';

/** Longer than any step here takes; a statement that has not settled by then never will. */
const SETTLED_WITHIN_MS = 5_000;

const settled = <T>(promise: Promise<T>) =>
  Promise.race([
    promise.then(
      (value) => ({ value }),
      // Drizzle wraps what the driver threw for a statement.
      (error: { code?: string; cause?: { code?: string } }) => ({
        error: error.code ?? error.cause?.code ?? String(error),
      }),
    ),
    sleep(SETTLED_WITHIN_MS, { pending: true } as const),
  ]);

/**
 * A transaction's statements run inside it or not at all. When the database ends a connection of
 * the pool (a failover, an administrator, a restarting pooler), the pool reconnects the same
 * connection for the next work. Nothing of the ended one may reach the next: not a statement its
 * transaction still sends, nor its fatal error; and everything it held settles. With one
 * connection in the pool, the next work is certain to get it.
 */
describe('PostgreSQL: a transaction that ends, or whose connection ends', () => {
  let schema: TestPostgresSchema;
  let client: postgres.Sql;
  let db: ReturnType<typeof drizzle>;
  const rows = async () => (await client`select step from loss_probe order by step`).map(({ step }) => step as string);

  beforeAll(async () => {
    schema = await createTestPostgresSchema({ ownRole: true });
    const settings = connectionSettings(schema.url, { ...schema.options, poolSize: 1 });
    client = postgres(schema.url, settings.options);
    db = drizzle(settings.preparedStatements ? preparingClient(client) : client);
    await client`create table loss_probe (step text not null)`;
  });
  beforeEach(async () => {
    await client`truncate loss_probe`;
  });
  afterAll(async () => {
    await client?.end({ timeout: 5 });
    await schema?.drop();
  });

  it('refuses what its callback sends afterwards: it runs neither outside a transaction nor in the next one', async () => {
    let resumeLate!: () => void;
    const resume = new Promise<void>((resolve) => (resumeLate = resolve));
    let late: Promise<unknown> | undefined;
    const first = db.transaction(async (tx) => {
      await tx.execute(sql`insert into loss_probe values ('first')`);
      await schema.endConnections();
      // The caller has its error by now; this callback goes on when the next transaction is open.
      await resume;
      late = Promise.resolve(tx.execute(sql`insert into loss_probe values ('late')`));
      await late;
    });
    expect(await settled(first)).toEqual({ error: 'CONNECTION_CLOSED' });

    const next = db.transaction(async (tx) => {
      await tx.execute(sql`insert into loss_probe values ('next 1')`);
      resumeLate();
      while (late === undefined) await sleep(5);
      // Were it not refused, the late insert would run here, inside this transaction, and the
      // first callback's end would then commit this transaction halfway.
      expect(await settled(late)).toEqual({ error: 'CONNECTION_CLOSED' });
      await tx.execute(sql`insert into loss_probe values ('next 2')`);
      throw new Error('roll back');
    });
    expect(await settled(next)).toEqual({ error: 'Error: roll back' });
    expect(await rows()).toEqual([]);
  });

  it('refuses what its callback sends after the transaction ended, as a branch of a Promise.all still running after another failed', async () => {
    let late: Promise<unknown> | undefined;
    const transaction = db.transaction(async (tx) => {
      await Promise.all([
        tx.execute(sql`insert into loss_probe values ('failing ' || 1 / 0)`),
        (async () => {
          // By now the failure has rolled the transaction back and the pool has the connection again.
          await sleep(300);
          late = Promise.resolve(tx.execute(sql`insert into loss_probe values ('late')`));
          await late;
        })(),
      ]);
    });
    expect(await settled(transaction)).toEqual({ error: '22012' });
    while (late === undefined) await sleep(5);
    // Were it sent, it would run on the pooled connection on its own, and be committed.
    expect(await settled(late)).toEqual({ error: 'TRANSACTION_ENDED' });
    expect(await rows()).toEqual([]);
  });

  it('settles the statements its transaction had queued, instead of leaving them waiting forever', async () => {
    const queued: Promise<unknown>[] = [];
    const transaction = client.begin((tx) => {
      // The first statement's parameters are described before it runs, so the second one waits
      // in the transaction's own queue rather than on the connection.
      queued.push(tx`select pg_sleep(${10})`, tx`select ${2}::int as two`);
      setTimeout(() => void schema.endConnections(), 300);
      return Promise.all(queued);
    });
    expect(await settled(transaction)).toEqual({ error: 'CONNECTION_CLOSED' });
    expect(await Promise.all(queued.map(settled))).toEqual([
      { error: 'CONNECTION_CLOSED' },
      { error: 'CONNECTION_CLOSED' },
    ]);
  });

  it('answers the next statement on the reconnected connection, not with the fatal error of the ended one', async () => {
    // Its error is taken at once: it comes while the connections are being ended.
    const ended = client`select pg_sleep(10)`.execute().then(
      () => 'answered',
      (error: unknown) => error,
    );
    await sleep(300);
    await schema.endConnections();
    expect(isConnectionFailure(await ended)).toBe(true);
    expect(await settled(client`select 1 as one`)).toEqual({ value: [{ one: 1 }] });
  });
});
