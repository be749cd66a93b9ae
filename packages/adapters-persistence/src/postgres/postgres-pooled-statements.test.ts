import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestPostgresSchema,
  startTestPgBouncer,
  testPostgresServerUrl,
  type TestPgBouncer,
  type TestPostgresSchema,
} from '../testing';
import { connectionSettings } from './postgres-database';

const ROUNDS = 30;
const AT_ONCE = 40;
const STATEMENT = 'select $1::int as n, pg_backend_pid() as pid';

/**
 * DATABASE_PREPARED_STATEMENTS=pooled, through a real PgBouncer 1.18 in transaction mode: each
 * transaction may meet any server connection, which may or may not hold a statement that some
 * client connection prepared there (patches/postgres@3.4.9.patch, statementName).
 */
describe('pooled prepared statements through PgBouncer in transaction mode', () => {
  let pooler: TestPgBouncer;
  let schema: TestPostgresSchema;
  /** Two instances' pools, each of several client connections, with the service's settings. */
  let instances: postgres.Sql[];
  /** The schema's owner, directly on the server: changes the schema under the instances. */
  let owner: postgres.Sql;

  beforeAll(async () => {
    pooler = await startTestPgBouncer(await testPostgresServerUrl());
    schema = await createTestPostgresSchema({ pooler });
    const { options } = connectionSettings(schema.url, { ...schema.options, poolSize: 5 });
    expect(schema.options.preparedStatements).toBe('pooled');
    instances = [0, 1].map(() => postgres(schema.url, options));
    owner = postgres(schema.serverUrl, { max: 1, onnotice: () => {} });
    await owner.unsafe(`set search_path = ${schema.schema}`);
  });
  afterAll(async () => {
    await Promise.all([...(instances ?? []), owner].map((sql) => sql?.end({ timeout: 5 })));
    await schema?.drop();
    await pooler?.stop();
  });

  /** Rounds of calls at once from both instances: the answers that were not the call's own, and the server connections met. */
  async function rounds(count = ROUNDS) {
    const wrong: unknown[] = [];
    const pids = new Set<number>();
    for (let round = 0; round < count; round++) {
      const calls = Array.from({ length: AT_ONCE }, (_, index) =>
        instances[index % 2]!.unsafe(STATEMENT, [round * AT_ONCE + index], { prepare: true }),
      );
      const settled = await Promise.allSettled(calls);
      settled.forEach((result, index) => {
        if (result.status === 'rejected') wrong.push(result.reason);
        else if (result.value[0]?.n !== round * AT_ONCE + index) wrong.push(result.value[0]);
        else pids.add(result.value[0].pid as number);
      });
    }
    return { wrong, pids };
  }

  /** What server connections say they hold of STATEMENT: how many copies, by server connection. */
  async function copiesByServerConnection() {
    const look = postgres(schema.url, { prepare: false, max: 10, onnotice: () => {} });
    try {
      const seen = new Map<number, number>();
      for (let pass = 0; pass < 10; pass++) {
        const rows = await Promise.all(
          Array.from(
            { length: 20 },
            () =>
              look<{ pid: number; copies: number }[]>`
                select pg_backend_pid() as pid,
                  (select count(*)::int from pg_prepared_statements where statement = ${STATEMENT}) as copies`,
          ),
        );
        for (const [row] of rows) seen.set(row!.pid, row!.copies);
      }
      return seen;
    } finally {
      await look.end({ timeout: 5 });
    }
  }

  it('answers each call with its own row, and each server connection parses the statement once, whoever prepared it there', async () => {
    const { wrong, pids } = await rounds();
    expect(wrong).toEqual([]);
    // Ten client connections met several server connections.
    expect(pids.size).toBeGreaterThan(1);
    const copies = await copiesByServerConnection();
    const served = [...copies].filter(([pid]) => pids.has(pid));
    expect(served.length).toBeGreaterThan(0);
    // One copy on each: with names of each client connection's own, there would be one per client connection met.
    expect(served.map(([, count]) => count)).toEqual(served.map(() => 1));
  });

  it('serves again after the server connections lost their statements: ended, or deallocated', async () => {
    await rounds(3);
    await schema.endConnections();
    expect((await rounds()).wrong).toEqual([]);
    // Deallocated on whichever server connection each call meets, between rounds of calls.
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 5 }, () => instances[round % 2]!.unsafe('deallocate all')));
      expect((await rounds(2)).wrong).toEqual([]);
    }
  });

  it('sends statements inside a transaction unnamed, where a missing statement would abort it', async () => {
    for (let round = 0; round < 10; round++) {
      // A fresh server connection for every round: none holds the statement when a transaction begins.
      if (round % 3 === 0) await schema.endConnections();
      const transactions = Array.from({ length: 10 }, (_, index) =>
        instances[index % 2]!.begin(async (tx) => {
          const [first] = await tx.unsafe(STATEMENT, [index], { prepare: true });
          const [second] = await tx.unsafe(STATEMENT, [index + 1], { prepare: true });
          return [first?.n, second?.n];
        }),
      );
      const settled = await Promise.allSettled(transactions);
      expect(settled.map((result) => (result.status === 'fulfilled' ? result.value : result.reason))).toEqual(
        Array.from({ length: 10 }, (_, index) => [index, index + 1]),
      );
    }
  });

  it('reads rows by the columns of now after a change of the schema, whichever client connection prepared it since', async () => {
    await owner.unsafe(`create table ${schema.schema}.shape (id int primary key, a int, b text)`);
    await owner.unsafe(`grant all on ${schema.schema}.shape to "${schema.schema}"`);
    await owner.unsafe(`insert into ${schema.schema}.shape values (1, 42, 'hello')`);
    // One connection each, called in turn: PgBouncer hands each call the server connection it took back last.
    const { options } = connectionSettings(schema.url, { ...schema.options, poolSize: 1 });
    const [x, y] = [0, 1].map(() => postgres(schema.url, options));
    const read = (sql: postgres.Sql) => sql.unsafe('select * from shape where id = $1', [1], { prepare: true });
    try {
      const seen = [await read(x!), await read(y!)];
      await owner.unsafe(`alter table ${schema.schema}.shape drop column a, add column c int`);
      await owner.unsafe(`update ${schema.schema}.shape set c = 7`);
      // y meets the copy planned before and parses it anew; then x, which knew the old columns, meets that.
      seen.push(await read(y!), await read(x!), await read(x!));
      await owner.unsafe(`alter table ${schema.schema}.shape alter column c type text using 'v' || c`);
      const [at] = await owner<{ changed: Date }[]>`select clock_timestamp() as changed`;
      seen.push(await read(x!), await read(y!), await read(x!));
      expect(seen.map((rows) => JSON.stringify(rows))).toEqual([
        ...Array(2).fill('[{"id":1,"a":42,"b":"hello"}]'),
        ...Array(3).fill('[{"id":1,"b":"hello","c":7}]'),
        ...Array(3).fill('[{"id":1,"b":"hello","c":"v7"}]'),
      ]);
      // The copy planned before the change was closed and parsed anew, not left to fail every call.
      const held = await x!.unsafe(
        'select prepare_time >= $1::timestamptz as fresh from pg_prepared_statements where statement = $2',
        [at!.changed, 'select * from shape where id = $1'],
      );
      expect(held).toEqual([{ fresh: true }]);
    } finally {
      await Promise.all([x, y].map((sql) => sql!.end({ timeout: 5 })));
    }
  });

  it('settles every call while unprepared calls without parameters run beside shared ones that fail', async () => {
    const [sql] = instances;
    let running = true;
    const beside = (async () => {
      while (running) await sql!.unsafe('select 1');
    })();
    const calls = Array.from({ length: 400 }, (_, index) =>
      index % 2
        ? sql!.unsafe(`select 1 / $1::int as q${index % 50}`, [0], { prepare: true }).catch((error) => error.code)
        : sql!.unsafe(`select $1::int as n, ${index % 50} as k`, [index], { prepare: true }).then((rows) => rows[0]?.n),
    );
    const settled = await Promise.race([
      Promise.all(calls),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 20 s'), 20_000)),
    ]);
    running = false;
    await beside;
    expect(settled).toEqual(Array.from({ length: 400 }, (_, index) => (index % 2 ? '22012' : index)));
  });

  it("fails a statement with the statement's own error, having run it once, and serves the next", async () => {
    await owner.unsafe(`create sequence ${schema.schema}.tries`);
    await owner.unsafe(`grant usage on ${schema.schema}.tries to "${schema.schema}"`);
    const [sql] = instances;
    // nextval is not rolled back: the sequence counts how many times the failing statement ran.
    await expect(sql!.unsafe(`select nextval('tries') / $1::int as q`, [0], { prepare: true })).rejects.toMatchObject({
      code: '22012',
    });
    expect(await owner.unsafe(`select last_value, is_called from ${schema.schema}.tries`)).toEqual([
      { last_value: '1', is_called: true },
    ]);
    expect(await sql!.unsafe('select 4 / $1::int as q', [2], { prepare: true })).toEqual([{ q: 2 }]);
  });
});
