import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { testPostgresServerUrl } from '../testing';

const POOL = 4;

/** One statement, prepared on a connection the first time it goes out there. */
const statement = (sql: postgres.Sql, seconds: number, n: number) =>
  sql<{ pid: number; n: number }[]>`select pg_sleep(${seconds}::float8), pg_backend_pid() as pid, ${n}::int as n`;

/** A pool whose connections are all open, idle and know the statement, as under load between two requests. */
async function warmPool() {
  const sql = postgres(await testPostgresServerUrl(), { max: POOL, onnotice: () => {} });
  // Held at once, so each opens a connection of its own and prepares the statement there.
  await Promise.all(Array.from({ length: POOL }, (_, n) => statement(sql, 0.05, n)));
  return sql;
}

/** The server processes that answered statements sent in the same turn of the event loop. */
async function backendsOf(sql: postgres.Sql, count: number): Promise<number[]> {
  const rows = await Promise.all(Array.from({ length: count }, (_, n) => statement(sql, 0, n)));
  // Each statement gets its own answer, in the order sent.
  expect(rows.map(([row]) => row!.n)).toEqual(Array.from({ length: count }, (_, n) => n));
  return rows.map(([row]) => row!.pid);
}

/**
 * The patched driver: a statement that comes while a connection just taken for another still holds
 * its unsent write joins that write, instead of waking another connection and server process for
 * a write of its own (under PATCH load a quarter of the service's time on PostgreSQL went to
 * socket writes).
 */
describe('statements sent together share a connection and its write', () => {
  let sql: postgres.Sql | undefined;
  afterEach(async () => {
    await sql?.end({ timeout: 5 });
    sql = undefined;
  });

  it('sends up to three prepared statements of one turn on one connection, each with its own answer', async () => {
    sql = await warmPool();
    const [first, second, third, fourth] = await backendsOf(sql, 4);
    expect([second, third]).toEqual([first, first]);
    // At most three in flight on one connection: the next wakes another.
    expect(fourth).not.toBe(first);
  });

  it('does not queue a statement behind one whose write has gone out', async () => {
    sql = await warmPool();
    const slow = statement(sql, 0.3, 0);
    // The next turn of the event loop: the slow statement's write has been made.
    await new Promise((resolve) => setImmediate(resolve));
    const [quick] = await statement(sql, 0, 1);
    const [held] = await slow;
    expect(quick!.pid).not.toBe(held!.pid);
  });

  it('leaves unprepared statements (behind a pooler) each on a connection of its own', async () => {
    sql = postgres(await testPostgresServerUrl(), { max: POOL, prepare: false, onnotice: () => {} });
    await Promise.all(Array.from({ length: POOL }, () => sql!`select pg_sleep(0.05)`));
    // Without parameters: those with parameters never share a connection's write unprepared.
    const rows = await Promise.all(Array.from({ length: 3 }, () => sql!`select pg_backend_pid() as pid`));
    expect(new Set(rows.map(([row]) => row!.pid)).size).toBe(3);
  });
});
