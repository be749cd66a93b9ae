import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpRelay, testPostgresServerUrl, type TcpRelay } from '../testing';

/** What the client sent while `fn` ran, in writes (TcpRelay.clientWrites). */
async function writesDuring(relay: TcpRelay, fn: () => Promise<unknown>): Promise<number> {
  const before = relay.clientWrites;
  await fn();
  return relay.clientWrites - before;
}

/**
 * Without prepared statements (behind PgBouncer in transaction mode), a statement with parameters
 * went out in two round trips every time: the server described its parameters, then it was bound.
 * The patched driver keeps what a connection learnt and sends the same statement again in one.
 */
describe('unnamed statements (DATABASE_PREPARED_STATEMENTS=false)', () => {
  let relay: TcpRelay;
  let sql: postgres.Sql;

  beforeAll(async () => {
    const serverUrl = await testPostgresServerUrl();
    relay = await startTcpRelay(serverUrl);
    sql = postgres(relay.through(serverUrl), { max: 1, prepare: false, onnotice: () => {} });
    await sql`select 1`;
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await relay?.close();
  });

  // The same kinds of values each time: postgres.js tells a Date from a string, so each is a statement of its own.
  const query = (id: number, at: Date, tags: string[], doc: object) =>
    sql<{ id: number; at: Date; tags: string[]; doc: { n: number } }[]>`
      select ${id}::int + 1 as id, ${at}::timestamptz as at, ${tags}::text[] as tags, ${sql.json(doc as never)}::jsonb as doc`;

  it('sends a statement it has sent before in one round trip, its values as the server typed them', async () => {
    const first = await writesDuring(relay, () => query(1, new Date('2027-01-02T03:04:05Z'), ['a', 'b'], { n: 1 }));
    expect(first).toBe(2);
    let rows: Awaited<ReturnType<typeof query>> = [] as never;
    const again = await writesDuring(relay, async () => {
      rows = await query(41, new Date('2027-06-07T08:09:10Z'), ['x,y', 'z'], { n: 2 });
    });
    expect(again).toBe(1);
    expect(rows).toEqual([{ id: 42, at: new Date('2027-06-07T08:09:10Z'), tags: ['x,y', 'z'], doc: { n: 2 } }]);
  });

  it('describes a statement again after it failed, so a changed type is learnt anew', async () => {
    const table = `unnamed_${process.pid}_${Date.now()}`;
    await sql.unsafe(`create temporary table ${table} (v int)`);
    const insert = (value: string) => sql`insert into ${sql(table)} (v) values (${value})`;
    await insert('1');
    await sql.unsafe(`alter table ${table} alter column v type timestamptz using null`);
    await expect(insert('2')).rejects.toThrow();
    // The failed call's types are forgotten: this one is described again and succeeds.
    expect(await writesDuring(relay, () => insert('2027-01-01T00:00:00Z'))).toBe(2);
    const [row] = await sql.unsafe<{ count: string }[]>(`select count(*) from ${table} where v is not null`);
    expect(Number(row!.count)).toBe(1);
  });
});
