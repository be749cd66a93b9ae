import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { isConnectionFailure } from '../shared/driver-errors';
import { connectionSettings } from './postgres-database';
import { createTestPostgresSchema, type TestPostgresSchema } from '../testing/postgres-test-database';
import { startTcpRelay, startTestPgBouncer, testPostgresServerUrl, type TestPgBouncer } from '../testing';

/** Longer than PgBouncer's query_wait_timeout (5 s): an answer not come by then waits for the outage to end. */
const ANSWERED_WITHIN_MS = 7_000;

/** How a statement ended: `ok`, `unavailable` (a 503 for the client), another error, or no answer in time. */
const outcome = (call: Promise<unknown>) =>
  Promise.race([
    call.then(
      () => 'ok',
      (error: unknown) => (isConnectionFailure(error) ? 'unavailable' : String(error)),
    ),
    sleep(ANSWERED_WITHIN_MS, 'no answer in time'),
  ]);

/**
 * What a pooler in transaction mode changes, through a real PgBouncer (the contract suites run
 * through one too with TEST_DATABASE_POOLER=pgbouncer): what depends on a session.
 */
describe('PostgreSQL through PgBouncer in transaction mode', () => {
  let pooler: TestPgBouncer;
  let schema: TestPostgresSchema;

  beforeAll(async () => {
    pooler = await startTestPgBouncer(await testPostgresServerUrl());
    schema = await createTestPostgresSchema({ pooler });
  });
  afterAll(async () => {
    await schema?.drop();
    await pooler?.stop();
  });

  it('serves concurrent reads without prepared statements, client connections meeting other server ones', async () => {
    const options = { ...schema.options, preparedStatements: false, poolSize: 4 };
    const database = await openDatabase(parseDatabaseUrl(schema.url), options);
    try {
      await database.migrate();
      const { users, sessions } = database.repositories;
      for (let round = 0; round < 10; round++) {
        const calls = Array.from({ length: 20 }, (_, index) =>
          index % 2 ? users.findById(`00000000-0000-4000-8000-00000000000${round}`) : sessions.findSession(`s${index}`),
        );
        // With named prepared statements, PgBouncer 1.18 fails such rounds (26000) or stalls them.
        expect((await Promise.allSettled(calls)).filter(({ status }) => status === 'rejected')).toEqual([]);
      }
    } finally {
      await database.close();
    }
  });

  it('migrates and takes the startup lock through it, and two instances starting at once take turns', async () => {
    const location = parseDatabaseUrl(schema.url);
    const [a, b] = await Promise.all([openDatabase(location, schema.options), openDatabase(location, schema.options)]);
    try {
      const order: string[] = [];
      const start = (database: typeof a, name: string) =>
        database.withStartupLock(async () => {
          order.push(`${name} in`);
          await database.migrate();
          await new Promise((resolve) => setTimeout(resolve, 100));
          order.push(`${name} out`);
        });
      await Promise.all([start(a, 'a'), start(b, 'b')]);
      expect([order.slice(0, 2), order.slice(2)].map((pair) => pair[0]?.[0] === pair[1]?.[0])).toEqual([true, true]);
      // The lock ended with its transaction: nothing of it stays on the pooler's server connections.
      const admin = postgres(schema.serverUrl, { max: 1 });
      try {
        const held = await admin`
          select l.objid from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and a.usename = ${schema.schema}`;
        expect(held).toEqual([]);
      } finally {
        await admin.end();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("fails each statement within PgBouncer's query_wait_timeout while PostgreSQL is gone behind it, then serves again within seconds of its return", async () => {
    const serverUrl = await testPostgresServerUrl();
    const relay = await startTcpRelay(serverUrl);
    const behind = await startTestPgBouncer(relay.through(serverUrl));
    const url = behind.through(serverUrl);
    const client = postgres(url, connectionSettings(url, { preparedStatements: 'pooled', poolSize: 4 }).options);
    try {
      await client`select 1`;
      await relay.cut();
      // PgBouncer refuses each new client, or holds it until query_wait_timeout and closes it:
      // each statement must fail so, not wait in a loop of logins for the server's return.
      const during: string[] = [];
      const until = Date.now() + ANSWERED_WITHIN_MS + 2_000;
      await Promise.all(
        Array.from({ length: 6 }, async (_, caller) => {
          while (Date.now() < until) {
            during.push(await outcome(client`select ${caller}::int`));
            await sleep(100);
          }
        }),
      );
      await relay.restore();
      const after: string[] = [];
      for (const by = Date.now() + 5_000; after.at(-1) !== 'ok' && Date.now() < by; await sleep(100)) {
        after.push(await outcome(client`select 1`));
      }
      expect({ during: [...new Set(during)], after: after.at(-1) }).toEqual({ during: ['unavailable'], after: 'ok' });
    } finally {
      await client.end({ timeout: 1 });
      await behind.stop();
      await relay.close();
    }
  });

  it('refuses to start when the connections search another schema than DATABASE_SCHEMA (the role says another)', async () => {
    const admin = postgres(schema.serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`alter role "${schema.schema}" set search_path = public`);
    await schema.endConnections(); // the pooler's server connections opened with the old setting
    const database = await openDatabase(parseDatabaseUrl(schema.url), schema.options);
    try {
      await expect(database.migrate()).rejects.toThrow(/ALTER ROLE <user> SET search_path/);
    } finally {
      await database.close();
      await admin.unsafe(`alter role "${schema.schema}" set search_path = "${schema.schema}"`);
      await admin.end();
    }
  });
});
