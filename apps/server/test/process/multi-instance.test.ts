import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditService, type AdminCredentials } from '@uas/domain';
import type { JsonWebKeySet, UserDocument } from '@uas/client';
import { openDatabase, parseDatabaseUrl, type Database } from '@uas/adapters-persistence';
import {
  createTestPostgresSchema,
  queryTestDatabase,
  type TestPostgresSchema,
} from '@uas/adapters-persistence/testing';
import { RACES } from '../support/races';
import { delay, ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import {
  createUser,
  listUsers,
  loginAsAdmin,
  logout,
  readAdminKeyFile,
  refresh,
  revoke,
  sessionOf,
  userLogin,
} from '../support/admin-api';

const FAILURES_PER_ACCOUNT = 4;
/** Short, so a replay after the window can be shown on the real clock. */
const REUSE_GRACE_SECONDS = 1;

/**
 * Two real server processes, A and B, on different ports and one PostgreSQL schema, as behind a
 * load balancer: whatever one of them decides, the other knows at once.
 */
describe('two instances on one PostgreSQL', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  let database: TestPostgresSchema;
  let a: ServerProcess;
  let b: ServerProcess;
  let admin: AdminCredentials;

  beforeAll(async () => {
    database = await createTestPostgresSchema();
    const env = {
      ...database.env,
      DATABASE_POOL_SIZE: '4',
      ADMIN_KEY_PATH: join(await servers.tempDir(), 'admin.key'),
      LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
      // Every request comes from 127.0.0.1, and a login losing its race to a new password or
      // email fails by design (up to 100 of them): the default would throttle the tests after.
      LOGIN_FAILURES_PER_ADDRESS: '1000',
      REFRESH_REUSE_GRACE_SECONDS: String(REUSE_GRACE_SECONDS),
    };
    // Both at once against the empty schema: migrations and the admin bootstrap must not race.
    [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
    admin = await readAdminKeyFile(env.ADMIN_KEY_PATH);
  }, 90_000);
  afterAll(async () => {
    await servers.cleanup();
    await database?.drop();
  });

  const query = (sql: string) => queryTestDatabase(database, sql);
  async function withDatabase<T>(schema: TestPostgresSchema, use: (opened: Database) => Promise<T>): Promise<T> {
    const opened = await openDatabase(parseDatabaseUrl(schema.url), { ...schema.options, poolSize: 1 });
    try {
      return await use(opened);
    } finally {
      await opened.close();
    }
  }

  it('started together on an empty schema, migrated it once and made exactly one admin, whom both know', async () => {
    expect(await query('select count(*)::int as admins from admins')).toEqual([{ admins: 1 }]);
    expect(await query('select hash from __drizzle_migrations group by hash having count(*) > 1')).toEqual([]);
    const [onA, onB] = [await loginAsAdmin(a, admin), await loginAsAdmin(b, admin)];
    expect(onB.id).toBe(onA.id);
  });

  it('publish the same JWKS, and an access token issued by A is accepted by B', async () => {
    const [jwksA, jwksB] = await Promise.all(
      [a, b].map(async (server) => (await server.fetch('/.well-known/jwks.json')).json()),
    );
    expect((jwksA as JsonWebKeySet).keys).not.toHaveLength(0);
    expect(jwksB).toEqual(jwksA);

    const { accessToken } = await loginAsAdmin(a, admin);
    expect((await listUsers(b, accessToken)).status).toBe(200);
  });

  it('a user created on A logs in on B', async () => {
    const { accessToken } = await loginAsAdmin(a, admin);
    const created = await createUser(a, accessToken, { email: 'carol@example.com', password: 'carol-password' });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as UserDocument;
    expect((await sessionOf(await userLogin(b, { email: 'carol@example.com', password: 'carol-password' }))).id).toBe(
      data.id,
    );
  });

  it('a refresh token revoked on A is refused on B at once', async () => {
    const session = await loginAsAdmin(a, admin);
    expect((await revoke(a, session.accessToken, session.refreshToken)).status).toBe(204);
    expect((await refresh(b, session.refreshToken)).status).toBe(401);
  });

  it('logout on A stops the access token on B at once', async () => {
    const session = await loginAsAdmin(a, admin);
    expect((await listUsers(b, session.accessToken)).status).toBe(200);
    expect((await logout(a, session)).status).toBe(204);
    expect((await listUsers(b, session.accessToken)).status).toBe(401);
    expect((await refresh(b, session.refreshToken)).status).toBe(401);
  });

  it('a refresh token rotated on A and presented again on B after the grace window is refused, and its whole family is revoked on both', async () => {
    const first = await loginAsAdmin(a, admin);
    const rotated = await sessionOf(await refresh(a, first.refreshToken));
    await delay(REUSE_GRACE_SECONDS * 1000 + 100);

    expect((await refresh(b, first.refreshToken)).status).toBe(401);

    for (const server of [a, b]) {
      expect((await refresh(server, rotated.refreshToken)).status).toBe(401);
      expect((await listUsers(server, rotated.accessToken)).status).toBe(401);
    }
  });

  it('throttling counts failed logins made on both: two on A and two on B, then 429 on either', async () => {
    const { accessToken } = await loginAsAdmin(a, admin);
    const account = { email: 'dave@example.com', password: 'dave-password' };
    expect((await createUser(a, accessToken, account)).status).toBe(201);
    const wrong = { ...account, password: 'not-daves-password' };

    const half = FAILURES_PER_ACCOUNT / 2;
    for (const server of [...Array<ServerProcess>(half).fill(a), ...Array<ServerProcess>(half).fill(b)]) {
      expect((await userLogin(server, wrong)).status).toBe(401);
    }

    for (const server of [a, b]) {
      const response = await userLogin(server, account); // even the right password, while throttled
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
  });

  it('20 concurrent creates of one email, spread over both, give exactly one 201 and nineteen 409', async () => {
    const { accessToken } = await loginAsAdmin(a, admin);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createUser(i % 2 ? a : b, accessToken, {
          email: i % 3 ? 'Race@Example.com' : 'race@example.com',
          password: 'race-password',
        }).then((response) => response.status),
      ),
    );
    expect(statuses.sort()).toEqual([201, ...Array<number>(19).fill(409)]);
  });

  it.each(RACES)(
    '%s, with the two requests of each round on different instances',
    { timeout: 180_000 },
    async (_, race) => {
      const { accessToken } = await loginAsAdmin(a, admin);
      const result = await race({
        setup: a.fetch.bind(a),
        first: a.fetch.bind(a),
        second: b.fetch.bind(b),
        adminToken: accessToken,
      });
      expect(result.losses, `${result.losses.length} of ${result.rounds} rounds lost something`).toEqual([]);
    },
  );

  it('keep one audit chain: 60 concurrent changes spread over both each leave their event, and the chain verifies', async () => {
    const token = (await loginAsAdmin(a, admin)).accessToken;
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        createUser(i % 2 === 0 ? a : b, token, { email: `chain${i}@example.com`, password: 'chain-password-1' }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    // Verifying chains first whatever still waits for the sequencer, as every read of the trail does.
    const report = await withDatabase(database, (opened) =>
      new AuditService({ audit: opened.repositories.audit }).verify(),
    );
    const [created] = await query(
      "select count(*)::int as events from audit_events where action = 'user.created' and target_id in (select id from users where email like 'chain%')",
    );
    expect(created).toEqual({ events: 60 });
    expect(report.broken).toBeNull();
    expect(report.checked).toBe(report.state.head.seq);
  });

  it('never write a password to their logs, and stop cleanly on SIGTERM', async () => {
    for (const server of [a, b]) {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
      for (const secret of [admin.password, 'carol-password', 'dave-password', 'race-password'])
        expect(server.stdout).not.toContain(secret);
      expect(server.logLines().at(-1)).toMatchObject({ msg: 'stopped' });
    }
  });
});
