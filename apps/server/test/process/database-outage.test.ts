import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserDocument } from '@uas/client';
import {
  createTestPostgresSchema,
  queryTestDatabase,
  startTcpRelay,
  startTestPgBouncer,
  testPostgresServerUrl,
  type TcpRelay,
  type TestPgBouncer,
  type TestPostgresSchema,
} from '@uas/adapters-persistence/testing';
import { delay, ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import { createUser, loginAsAdmin, readAdminKeyFile } from '../support/admin-api';

const WRITERS = 8;
const WRITER_PASSWORD = 'outage-pass-1';
/** How long the pooler stays down in the outage: long enough for /ready and writes to see it. */
const OUTAGE_MS = 2_000;
/**
 * How long PostgreSQL stays gone behind the pooler: longer than its query_wait_timeout (5 s), so
 * that waits begun before the outage end in it, and new ones meet a pooler refusing logins.
 */
const SERVER_GONE_MS = 10_000;

/** What the writers saw, and how long service took to come back after each event. */
interface Tally {
  acknowledged: { id: string; email: string }[];
  unavailable: number;
  /** Answers neither 2xx nor a well-formed 503, or no answer at all: each as `status code`. */
  others: string[];
  /** Seconds from the end of each event to the first write acknowledged after it. */
  resumedAfter: number[];
  /** Seconds the slowest answer took. */
  slowest: number;
}

/**
 * Writers create users on two server processes without pause while `events` cut the database
 * away under them; each 201 is an acknowledged write, each 503 must be JSON:API with Retry-After.
 */
async function underLoad(
  servers: readonly ServerProcess[],
  token: (server: ServerProcess) => string,
  events: readonly (() => Promise<void>)[],
): Promise<Tally> {
  const tally: Tally = { acknowledged: [], unavailable: 0, others: [], resumedAfter: [], slowest: 0 };
  let lastEventEnd: number | undefined;
  let running = true;
  let written = 0;
  const writer = async (index: number) => {
    const server = servers[index % servers.length]!;
    while (running) {
      const email = `outage-${index}-${written++}@example.com`;
      const sent = Date.now();
      try {
        const response = await createUser(server, token(server), { email, name: 'Outage', password: WRITER_PASSWORD });
        tally.slowest = Math.max(tally.slowest, (Date.now() - sent) / 1000);
        if (response.status === 201) {
          const { data } = (await response.json()) as UserDocument;
          tally.acknowledged.push({ id: data.id, email });
          if (lastEventEnd !== undefined) {
            tally.resumedAfter.push((Date.now() - lastEventEnd) / 1000);
            lastEventEnd = undefined;
          }
        } else {
          const text = await response.text();
          if (response.status === 503 && isRetryable(response, text)) tally.unavailable++;
          else tally.others.push(`${response.status} ${text}`);
        }
      } catch (error) {
        const { message, cause } = error as Error & { cause?: { code?: string; message?: string } };
        const why = cause?.code ?? cause?.message ?? message;
        tally.others.push(`no answer from ${server.running ? 'a running' : 'an exited'} server: ${why}`);
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
  await delay(500);
  for (const event of events) {
    await event();
    lastEventEnd = Date.now();
    // Service back within this, or the resumption is not counted and the test fails below.
    for (let waited = 0; lastEventEnd !== undefined && waited < 10_000; waited += 50) await delay(50);
    await delay(300);
  }
  running = false;
  await Promise.all(writers);
  return tally;
}

/** A 503 the client can act on: JSON:API, a code saying why, and when to retry. */
function isRetryable(response: Response, text: string): boolean {
  const body = JSON.parse(text) as { errors?: { code?: string }[] };
  const code = body.errors?.[0]?.code;
  return (
    Number(response.headers.get('retry-after')) > 0 &&
    response.headers.get('content-type')?.startsWith('application/json') === true &&
    (code === 'database_unavailable' || code === 'not_ready')
  );
}

/** Every acknowledged user that the database no longer has. */
async function lost(schema: TestPostgresSchema, acknowledged: Tally['acknowledged']): Promise<string[]> {
  // Straight to the server: what is stored, whatever the pooler holds.
  const rows = await queryTestDatabase({ url: schema.serverUrl, schema: schema.schema }, 'select id from users');
  const stored = new Set(rows.map((row) => String(row.id)));
  return acknowledged.filter(({ id }) => !stored.has(id)).map(({ email }) => email);
}

describe('a database that goes away under load and comes back', { timeout: 120_000 }, () => {
  const processes = new ServerProcesses();
  let pooler: TestPgBouncer | undefined;
  let relay: TcpRelay | undefined;
  const schemas: TestPostgresSchema[] = [];
  afterAll(async () => {
    await processes.cleanup();
    await pooler?.stop();
    await relay?.close();
    for (const schema of schemas) await schema.drop();
  });

  async function twoInstances(schema: TestPostgresSchema) {
    schemas.push(schema);
    const env = {
      ...schema.env,
      DATABASE_POOL_SIZE: '4',
      ADMIN_KEY_PATH: join(await processes.tempDir(), 'admin.key'),
    };
    const [a, b] = await Promise.all([processes.start(env), processes.start(env)]);
    const admin = await readAdminKeyFile(env.ADMIN_KEY_PATH);
    const tokens = new Map<ServerProcess, string>();
    for (const server of [a!, b!]) tokens.set(server, (await loginAsAdmin(server, admin)).accessToken);
    const secrets = [admin.password, WRITER_PASSWORD, ...tokens.values()];
    return { servers: [a!, b!], token: (server: ServerProcess) => tokens.get(server)!, secrets };
  }

  /**
   * What the servers logged through the outage: its causes, and none of the secrets in play (the
   * admin's password, the writers', the tokens every request carried while refused).
   */
  function logged(servers: readonly ServerProcess[], secrets: readonly string[]) {
    const output = servers.map((server) => server.stdout + server.stderr).join('\n');
    return {
      causes: output.includes('database unavailable'),
      secrets: secrets.filter((secret) => output.includes(secret)).length,
    };
  }

  function report(name: string, tally: Tally, missing: string[], servers: readonly ServerProcess[]) {
    // A server that ended on its own says why on stderr: the tally alone would show only refusals.
    for (const server of servers) if (!server.running) console.error(server.describe());
    const resumed = Math.max(...tally.resumedAfter).toFixed(2);
    console.info(
      `${name}: ${tally.acknowledged.length} writes acknowledged, ${missing.length} lost; ${tally.unavailable} answered 503, ${tally.others.length} otherwise; slowest answer ${tally.slowest.toFixed(2)} s; service back within ${resumed} s of each event (${tally.resumedAfter.map((s) => s.toFixed(2)).join(', ')})`,
    );
  }

  it('PostgreSQL directly, every connection of the service ended three times: 503s only, nothing acknowledged lost', async () => {
    const schema = await createTestPostgresSchema({ ownRole: true });
    const { servers, token, secrets } = await twoInstances(schema);
    const cut = async () => {
      const n = await schema.endConnections();
      expect(n).toBeGreaterThan(0);
    };
    const tally = await underLoad(servers, token, [cut, cut, cut]);
    const missing = await lost(schema, tally.acknowledged);
    report('directly', tally, missing, servers);
    // One expectation, so that a failure shows the whole tally.
    expect({ others: tally.others, missing, resumed: tally.resumedAfter.length }).toEqual({
      others: [],
      missing: [],
      resumed: 3,
    });
    expect(Math.max(...tally.resumedAfter)).toBeLessThan(5);
    expect(logged(servers, secrets)).toEqual({ causes: true, secrets: 0 });
  });

  it('through PgBouncer in transaction mode: server connections ended, the pooler restarted, then down for 2 s, then PostgreSQL gone behind it for 10 s: 503s only (and /ready 503 while down), none held for the outage, nothing acknowledged lost', async () => {
    const serverUrl = await testPostgresServerUrl();
    // PostgreSQL reached through a relay, which stops it for this pooler alone.
    relay = await startTcpRelay(serverUrl);
    pooler = await startTestPgBouncer(relay.through(serverUrl));
    const schema = await createTestPostgresSchema({ pooler });
    const { servers, token, secrets } = await twoInstances(schema);
    const through = pooler;
    const behind = relay;
    const readyWhileDown: number[] = [];
    const readyWhileServerGone: number[] = [];
    const readiness = async (into: number[]) => {
      // No answer counts as 0: the tally and the report below then say why (a server that ended prints its stderr).
      for (const server of servers)
        into.push(
          await server.fetch('/ready').then(
            ({ status }) => status,
            () => 0,
          ),
        );
    };
    const tally = await underLoad(servers, token, [
      async () => {
        expect(await schema.endConnections(), 'server connections of the service ended').toBeGreaterThan(0);
      },
      async () => {
        await through.down();
        await through.up();
      },
      async () => {
        await through.down();
        await delay(OUTAGE_MS / 2);
        await readiness(readyWhileDown);
        await delay(OUTAGE_MS / 2);
        await through.up();
      },
      async () => {
        const gone = Date.now();
        await behind.cut();
        await delay(SERVER_GONE_MS / 2);
        await readiness(readyWhileServerGone);
        await delay(Math.max(0, gone + SERVER_GONE_MS - Date.now()));
        await behind.restore();
      },
    ]);
    const missing = await lost(schema, tally.acknowledged);
    report('through PgBouncer', tally, missing, servers);
    expect({ readyWhileDown, readyWhileServerGone, running: servers.map((server) => server.running) }).toEqual({
      readyWhileDown: [503, 503],
      readyWhileServerGone: [503, 503],
      running: [true, true],
    });
    for (const server of servers) expect((await server.fetch('/ready')).status).toBe(200);
    expect({ others: tally.others, missing, resumed: tally.resumedAfter.length }).toEqual({
      others: [],
      missing: [],
      resumed: 4,
    });
    expect(tally.unavailable).toBeGreaterThan(0);
    expect(Math.max(...tally.resumedAfter)).toBeLessThan(5);
    // A wait begun as PostgreSQL went ends with PgBouncer's query_wait_timeout (5 s), not with the outage.
    expect(tally.slowest).toBeLessThan(SERVER_GONE_MS);
    expect(logged(servers, secrets)).toEqual({ causes: true, secrets: 0 });
  });
});
