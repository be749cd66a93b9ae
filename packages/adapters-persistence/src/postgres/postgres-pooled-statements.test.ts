import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestPostgresSchema,
  startTestPgBouncer,
  testPostgresServerUrl,
  type TestPgBouncer,
  type TestPostgresSchema,
} from '../testing';

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
  /** Two instances' pools, each of several client connections. */
  let instances: postgres.Sql[];

  beforeAll(async () => {
    pooler = await startTestPgBouncer(await testPostgresServerUrl());
    schema = await createTestPostgresSchema({ pooler });
    instances = [0, 1].map(() => postgres(schema.url, { prepare: 'shared', max: 5, onnotice: () => {} }));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((sql) => sql.end({ timeout: 5 })));
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

  it("fails a statement with the statement's own error, and serves the next", async () => {
    const [sql] = instances;
    await expect(sql!.unsafe('select 1 / $1::int as q', [0], { prepare: true })).rejects.toMatchObject({
      code: '22012',
    });
    expect(await sql!.unsafe('select 4 / $1::int as q', [2], { prepare: true })).toEqual([{ q: 2 }]);
  });
});
