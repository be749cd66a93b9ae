import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { sampleUser } from '@uas/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDatabaseContract } from '../database.contract';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { createTestPostgresSchema, type TestPostgresSchema } from '../testing/postgres-test-database';
import { migrationsBefore, SESSION_BEFORE_AMR, USER_BEFORE_EMAIL_VERIFIED as OLD } from '../testing/migrations-before';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { connectionSettings } from './postgres-database';
import { preparingClient } from './postgres-prepared-client';
import { pageWindow } from '../shared/page-window';
import { selectDays, selectUserTotals } from './postgres-activity.repository';
import { selectFailureCounts } from './postgres-login-attempt.repository';
import { selectAdminSession, selectUserSession } from './postgres-session.repository';
import { selectActiveFactor, useCode } from './postgres-factor.repository';
import { useToken, voidTokensOf } from './postgres-action-token-statements';
import {
  consumeRecord,
  deleteAccountRecords,
  deleteClientRecords,
  deleteExpiredRecords,
  deleteGrantRecords,
  selectAccountRecords,
  selectByUid,
} from './postgres-openid-record-statements';
import {
  PostgresUserRepository,
  selectAnchors,
  selectFirstMatches,
  selectUserPage,
  selectUserPageWithTotal,
  selectUserTotal,
  selectUsersByIdWithGeneration,
} from './postgres-user.repository';
import { selectAuditPage, selectAuditTotal, selectLastBefore } from './postgres-audit-trail';
import { selectSharingEmailOrId } from './postgres-user-import.repository';
import { AUDIT_PLAN_CASES, COMMON_ACTIONS } from '../testing/audit-plan-cases';

describeDatabaseContract('PostgreSQL', async () => {
  const schema = await createTestPostgresSchema();
  return {
    location: parseDatabaseUrl(schema.url),
    options: { ...schema.options, poolSize: 2 },
    remove: () => schema.drop(),
  };
});

describe('PostgreSQL database', () => {
  let schema: TestPostgresSchema;
  let client: postgres.Sql;

  beforeAll(async () => {
    schema = await createTestPostgresSchema();
    const database = await openDatabase(parseDatabaseUrl(schema.url), {
      ...schema.options,
      statementTimeoutMs: 45_000,
    });
    await database.migrate();
    await database.close();
    // Plans and the settings sent at connect are those of one connection to the server itself.
    client = postgres(
      schema.serverUrl,
      connectionSettings(schema.serverUrl, { schema: schema.schema, statementTimeoutMs: 45_000 }).options,
    );
    // Enough rows, with varied emails, that the planner chooses as it would on a real table.
    await client`
      insert into users (id, name, email, password_hash, metadata, app, active, created, updated)
      select gen_random_uuid()::text, 'User ' || n, md5(n::text) || '@example' || n % 50 || '.com', 'hash', '{}', '{}', 1,
             timestamptz '2026-01-01' + n * interval '1 second', timestamptz '2026-01-01'
      from generate_series(1, 50000) as n`;
    // As autovacuum would: statistics for the planner, a visibility map for index-only scans.
    // ANALYZE samples 30,000 rows at the default target, at random, and a sample now and then
    // led the planner to walk (created, id) for a rare term; a target that reads every row
    // makes the statistics, and so the plans these tests pin, the same on every run.
    await client`alter table users alter column email set statistics 1000`;
    await client`vacuum analyze users`;
    // Ten years of days, and failed logins of 10,000 accounts, for the overview's and the list's plans.
    await client`
      insert into daily_activity (day, logins)
      select date '2016-01-01' + n, n from generate_series(0, 3650) as n on conflict (day) do nothing`;
    await client`
      insert into login_failures (attempt, key, at)
      select md5(n::text), 'account:user:' || (n % 10000) || '@example.com', timestamptz '2026-01-01' + n * interval '1 second'
      from generate_series(1, 50000) as n`;
    await client`vacuum analyze daily_activity, login_failures`;
    // A year of audit events, a few every hour: 2,000 targets, 50 admins, the rare ones rarely.
    await client`
      insert into audit_events (seq, id, time, actor_type, actor_id, action, target_type, target_id, hash)
      select n, gen_random_uuid()::text, timestamptz '2026-01-01' + n * interval '20 minutes',
             case when n % 1000 = 1 then 'system' else 'admin' end,
             case when n % 1000 = 1 then null else 'admin-' || n % 50 end,
             case when n % 1000 = 0 then 'signing_key.rotated' else (${COMMON_ACTIONS}::text[])[n % ${COMMON_ACTIONS.length} + 1] end,
             'users', 'user-' || n % 2000, md5(n::text)
      from generate_series(1, 30000) as n`;
    await client`vacuum analyze audit_events`;
    // A token for most users, a few used.
    await client`
      insert into action_tokens (id, digest, purpose, user_id, email, created, expires, used)
      select gen_random_uuid()::text, md5(id), 'verification', id, email, created, created + interval '1 day',
             case when random() < 0.1 then created end
      from users`;
    await client`vacuum analyze action_tokens`;
    // What the OpenID engine keeps: five models, a grant per five records, 10,000 accounts, 1,000 clients.
    await client`
      insert into openid_records (model, id, payload, grant_id, uid, account_id, client_id, expires)
      select (array['Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode', 'Session'])[n % 5 + 1], md5(n::text),
             '{}', 'grant-' || n / 5, 'uid-' || n, 'user-' || n % 10000, 'client-' || n % 1000,
             timestamptz '2026-01-01' + n * interval '1 minute'
      from generate_series(1, 50000) as n`;
    await client`vacuum analyze openid_records`;
  });

  afterAll(async () => {
    await client?.end();
    await schema?.drop();
  });

  async function plan(statement: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
    const { sql, params } = statement.toSQL();
    const rows = await client.unsafe(`explain ${sql}`, params as postgres.ParameterOrJSON<never>[]);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('connects with the statement timeout and keeps to the schema it was given', async () => {
    const [settings] = await client`
      select current_setting('statement_timeout') as timeout, current_schema() as schema,
             current_setting('plan_cache_mode') as plans`;
    expect(settings).toEqual({ timeout: '45s', schema: schema.schema, plans: 'auto' });
  });

  it('plans a lookup once per connection, and a search for each of its terms', async () => {
    const connection = postgres(schema.serverUrl, {
      ...connectionSettings(schema.serverUrl, { schema: schema.schema, statementTimeoutMs: 45_000 }).options,
      max: 1,
    });
    try {
      const users = new PostgresUserRepository(drizzle(preparingClient(connection)));
      const [someone] = await client<{ id: string }[]>`select id from users limit 1`;
      for (let call = 0; call < 8; call++) expect(await users.findById(someone!.id)).not.toBeNull();
      for (const term of ['example1', 'example2', '@example3', 'a0'])
        await users.list({ page: 2, size: 20, emailContains: term });
      const prepared = await connection<{ statement: string; generic: number }[]>`
        select statement, generic_plans::int as generic from pg_prepared_statements`;
      const byId = prepared.find(({ statement }) => / from "users" where "users"."id" = \$1$/.test(statement));
      expect(byId?.generic).toBeGreaterThan(0);
      expect(prepared.filter(({ statement }) => / like /i.test(statement))).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it("keeps every table, and the migrations' bookkeeping, in that schema", async () => {
    const tables = await client`select tablename from pg_tables where schemaname = ${schema.schema} order by tablename`;
    expect(tables.map((table) => table.tablename)).toEqual([
      '__drizzle_migrations',
      'action_tokens',
      'admin_invitations',
      'admins',
      'audit_chain',
      'audit_events',
      'audit_pending',
      'daily_activity',
      'external_identities',
      'factors',
      'identity_providers',
      'invitations',
      'login_failures',
      'mail_messages',
      'mail_requests',
      'oauth_attempts',
      'oauth_clients',
      'openid_records',
      'rate_counters',
      'recovery_codes',
      'refresh_tokens',
      'secrets',
      'sessions',
      'sign_in_challenges',
      'signing_keys',
      'user_count',
      'users',
      'webhook_deliveries',
      'webhooks',
    ]);
  });

  it('serves search[email], its page and its total, from the trigram index', async () => {
    const term = 'c4ca42'; // in md5('1')
    expect(await plan(selectUserPage(drizzle(client), term, { descending: false, offset: 0, limit: 20 }))).toContain(
      'Bitmap Index Scan on users_email_trgm_idx',
    );
    expect(await plan(selectUserTotal(drizzle(client), term))).toContain('Bitmap Index Scan on users_email_trgm_idx');
    expect(await plan(selectFirstMatches(drizzle(client), term, 20_001))).toContain(
      'Bitmap Index Scan on users_email_trgm_idx',
    );
  });

  it("chooses a page by an index-only scan of (created, id) from either end, reading only the page's rows", async () => {
    for (const descending of [false, true]) {
      const listing = await plan(selectUserPage(drizzle(client), undefined, { descending, offset: 20_000, limit: 20 }));
      expect(listing).toContain(`Index Only Scan${descending ? ' Backward' : ''} using users_created_id_idx`);
      expect(listing).toContain('Index Scan using users_pkey');
      expect(listing).not.toContain('Seq Scan');
    }
  });

  it('reads the anchors of deep pages in one index-only scan of (created, id)', async () => {
    const listing = await plan(selectAnchors(drizzle(client)));
    expect(listing).toContain('Index Only Scan using users_created_id_idx');
    expect(listing).not.toContain('Seq Scan');
  });

  it('starts deep pages from anchors, giving the pages a walk of the index gives, and none from an older generation', async () => {
    const db = drizzle(client);
    const users = new PostgresUserRepository(db);
    const walked = async (page: number) => {
      const [counted] = await selectUserTotal(db, undefined);
      const window = pageWindow(Number(counted!.total), page, 20);
      return window ? (await selectUserPage(db, undefined, window)).map((user) => user.id) : [];
    };
    const differences: unknown[] = [];
    for (const round of ['before anchors', 'from anchors', 'after a delete', 'after an insert']) {
      if (round === 'after a delete')
        await client`delete from users where id = (select id from users order by created, id offset 10000 limit 1)`;
      if (round === 'after an insert')
        await client`insert into users (id, name, email, password_hash, metadata, app, active, created, updated)
          values ('anchor-test', 'New', 'anchor-test@example.com', 'hash', '{}', '{}', 1, timestamptz '2026-01-01 00:00:00.5', now())`;
      for (const page of [51, 52, 777, 1250, 1251, 2000, 2499, 2500]) {
        const listed = (await users.list({ page, size: 20 })).users.map((user) => user.id);
        const expected = await walked(page);
        if (listed.join() !== expected.join()) differences.push({ round, page, listed: listed.length });
      }
    }
    expect(differences).toEqual([]);
  });

  it('serves every page of a search it has read, deep ones too, in one statement each, as a fresh read gives them', async () => {
    const statements: string[] = [];
    const watched = postgres(schema.serverUrl, {
      ...connectionSettings(schema.serverUrl, { schema: schema.schema, statementTimeoutMs: 45_000 }).options,
      debug: (_connection, query) => statements.push(query),
    });
    try {
      const users = new PostgresUserRepository(drizzle(watched));
      const db = drizzle(client);
      // 11,000 of the 50,000 (`@example1.`, `@example10.` to `@example19.`): 550 pages of 20.
      const term = '@example1';
      const { total } = await users.list({ page: 1, size: 20, emailContains: term });
      const [counted] = await selectUserTotal(db, term);
      expect(total).toBe(Number(counted!.total));
      statements.length = 0;
      const differences: unknown[] = [];
      for (let step = 0; step < 200; step++) {
        const page = 1 + ((step * 97) % 550);
        const listed = await users.list({ page, size: 20, emailContains: term });
        const window = pageWindow(total, page, 20)!;
        const fresh = (await selectUserPage(db, term, window)).map((user) => user.id);
        if (window.descending) fresh.reverse();
        if (listed.total !== total || listed.users.map((user) => user.id).join() !== fresh.join())
          differences.push({ page, listed: listed.users.length });
      }
      expect(differences).toEqual([]);
      expect(statements.length).toBe(200);
    } finally {
      await watched.end();
    }
  });

  it('reads a first-half page with the counter in one statement, from the (created, id) index', async () => {
    const listing = await plan(selectUserPageWithTotal(drizzle(client), 20, 20));
    expect(listing).toContain('Index Only Scan using users_created_id_idx');
    expect(listing).toContain('user_count');
    expect(listing).not.toContain('Seq Scan on users');
  });

  it("reads a cached search's page with the generation in one statement, by primary key", async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `id-${index}`);
    const listing = await plan(selectUsersByIdWithGeneration(drizzle(client), ids));
    expect(listing).toContain('users_pkey');
    expect(listing).toContain('user_count');
    expect(listing).not.toContain('Seq Scan on users');
  });

  it('keeps the total in a counter that a 50,000-row INSERT … SELECT moved once, exactly', async () => {
    const [counted] = await client`select count(*)::int as rows, (select users from user_count) as counter from users`;
    expect(Number(counted!.counter)).toBe(counted!.rows);
    expect(await plan(selectUserTotal(drizzle(client), undefined))).not.toContain('on users');
  });

  it("reads the overview from the counter's row and a range of the days' key, never from users", async () => {
    const totals = await plan(selectUserTotals(drizzle(client)));
    expect(totals).toContain('user_count');
    expect(totals).not.toContain('on users');
    expect(await plan(selectDays(drizzle(client), '2026-01-01', '2026-01-30'))).toContain(
      'Index Scan using daily_activity_pkey',
    );
  });

  it('keeps the active count in the counter through inserts, changes of active and deletes', async () => {
    await client`update users set active = 0 where created < timestamptz '2026-01-01' + interval '100 seconds'`;
    await client`delete from users where created < timestamptz '2026-01-01' + interval '10 seconds'`;
    const [counted] = await client`
      select count(*) filter (where active = 1)::int as active, (select active from user_count) as counter from users`;
    expect(Number(counted!.counter)).toBe(counted!.active);
  });

  it("changes a user in place, on its row's page (a HOT update: no new index entry)", async () => {
    // A user every 25 seconds of creation, one or two a page, each written once as a PATCH leaves
    // the indexed columns: email set to itself, id and created untouched. On full pages most moved.
    const blockOf = () => client`
      select id, (ctid::text::point)[0] as block from users
      where created >= timestamptz '2026-01-01' + interval '1000 seconds' and created < timestamptz '2026-01-01' + interval '6000 seconds'
        and extract(epoch from created)::bigint % 25 = 0
      order by id`;
    const before = await blockOf();
    expect(before).toHaveLength(200);
    await client`
      update users set name = name || ' changed', email = email, metadata = '{"plan": "pro"}', version = version + 1
      where id in ${client(before.map(({ id }) => id as string))}`;
    expect(await blockOf()).toEqual(before);
  });

  it('migrates the users stored before email_verified as verified at their creation', async () => {
    const before = migrationsBefore('postgres', 'email_verified');
    const fresh = await createTestPostgresSchema();
    try {
      const options = { schema: fresh.schema, statementTimeoutMs: 45_000 };
      const old = postgres(fresh.url, connectionSettings(fresh.url, options).options);
      const created = new Date(OLD.created).toISOString();
      try {
        await migrate(drizzle(old), { migrationsFolder: before.folder, migrationsSchema: fresh.schema });
        await old`insert into users (id, name, email, password_hash, metadata, app, active, created, updated)
          values (${OLD.id}, '', 'old@example.com', 'hash', '{}', '{}', 1, ${created}, ${created})`;
      } finally {
        await old.end();
      }
      const database = await openDatabase(parseDatabaseUrl(fresh.url), options);
      await database.migrate();
      expect((await database.repositories.users.findById(OLD.id))?.emailVerified).toEqual(new Date(OLD.created));
      await database.close();
    } finally {
      before.remove();
      await fresh.drop();
    }
  });

  it('migrates the sessions stored before session_amr as password logins', async () => {
    const before = migrationsBefore('postgres', 'session_amr');
    const fresh = await createTestPostgresSchema();
    try {
      const options = { schema: fresh.schema, statementTimeoutMs: 45_000 };
      const old = postgres(fresh.url, connectionSettings(fresh.url, options).options);
      const { id, subjectId } = SESSION_BEFORE_AMR;
      const created = new Date(SESSION_BEFORE_AMR.created).toISOString();
      try {
        await migrate(drizzle(old), { migrationsFolder: before.folder, migrationsSchema: fresh.schema });
        await old`insert into sessions (id, kind, subject_id, created, last_used, expires)
          values (${id}, 'user', ${subjectId}, ${created}, ${created}, ${created})`;
      } finally {
        await old.end();
      }
      const database = await openDatabase(parseDatabaseUrl(fresh.url), options);
      await database.migrate();
      expect((await database.repositories.sessions.findSession(id))?.amr).toEqual(['pwd']);
      await database.close();
    } finally {
      before.remove();
      await fresh.drop();
    }
  });

  it("uses a token by the unique digest index, and voids a user's by the user_id index", async () => {
    const db = drizzle(client);
    expect(await plan(useToken(db, ['verification'], ['a', 'b'], new Date()))).toContain('action_tokens_digest_unique');
    const voiding = await plan(voidTokensOf(db, 'some-user', new Date()));
    expect(voiding).toContain('action_tokens_user_id_idx');
    expect(voiding).not.toContain('Seq Scan');
  });

  it('finds, consumes, lists and removes OpenID records by their indexes', async () => {
    const db = drizzle(client);
    const soon = new Date('2026-01-01T01:00:00Z');
    const cases: [string, { toSQL(): { sql: string; params: unknown[] } }][] = [
      ['openid_records_model_id_pk', consumeRecord(db, 'AuthorizationCode', 'some-code', soon)],
      ['openid_records_uid_idx', selectByUid(db, 'Session', 'uid-5', soon)],
      ['openid_records_account_idx', selectAccountRecords(db, 'Grant', 'user-5', soon)],
      ['openid_records_account_idx', deleteAccountRecords(db, 'user-5')],
      ['openid_records_grant_idx', deleteGrantRecords(db, 'grant-5')],
      ['openid_records_client_idx', deleteClientRecords(db, 'client-5')],
      ['openid_records_expires_idx', deleteExpiredRecords(db, soon, 100)],
    ];
    for (const [index, statement] of cases) {
      const planned = await plan(statement);
      expect(planned).toContain(index);
      expect(planned).not.toContain('Seq Scan');
    }
  });

  it("asks for an account's active factor and uses a recovery code by the account's indexes", async () => {
    const db = drizzle(client);
    const asking = await plan(selectActiveFactor(db, 'user', 'some-user'));
    expect(asking).toContain('factors_user_idx');
    expect(asking).not.toContain('Seq Scan');
    expect(await plan(selectActiveFactor(db, 'admin', 'some-admin'))).toContain('factors_admin_idx');
    const using = await plan(useCode(db, 'user', 'some-user', 'digest', new Date()));
    expect(using).toContain('recovery_codes_user_digest_idx');
    expect(using).not.toContain('Seq Scan');
  });

  it("checks a session and its account's state in one statement per kind, by primary keys", async () => {
    const ofAdmin = await plan(selectAdminSession(drizzle(client), 'some-session'));
    expect(ofAdmin).toContain('sessions_pkey');
    expect(ofAdmin).toContain('admins_pkey');
    expect(ofAdmin).not.toContain('Seq Scan');
    const ofUser = await plan(selectUserSession(drizzle(client), 'some-session', new Date()));
    expect(ofUser).toContain('sessions_pkey');
    expect(ofUser).toContain('users_pkey');
    expect(ofUser).not.toContain('Seq Scan');
  });

  it("counts a page's recent failed logins from the (key, at) index", async () => {
    const keys = Array.from({ length: 20 }, (_, index) => `account:user:${index}@example.com`);
    const counting = await plan(selectFailureCounts(drizzle(client), keys, new Date('2026-01-01T10:00:00Z')));
    expect(counting).toContain('login_failures_key_at_idx');
    expect(counting).not.toContain('Seq Scan');
  });

  it("looks an import batch's 1,000 emails and ids up in their unique indexes, never by reading every user", async () => {
    const entries = Array.from({ length: 1000 }, (_, n) => ({
      line: n + 1,
      user: sampleUser({ email: `new${n}@example.com` }),
      given: { id: true, created: true, updated: true, password: true },
    }));
    const lookup = await plan(selectSharingEmailOrId(drizzle(client), entries).for('update'));
    expect(lookup).toMatch(/Index (Only )?Scan using users_email_unique/);
    expect(lookup).toMatch(/Index (Only )?Scan using users_pkey/);
    expect(lookup.includes('Seq Scan'), lookup.slice(0, 2000)).toBe(false);
  });

  it.each(AUDIT_PLAN_CASES)(
    'reads the audit events of %s, their page and their count, from %s',
    async (_, filters, index) => {
      const page = await plan(selectAuditPage(drizzle(client), filters, 40, 20));
      expect(page).toContain(index);
      expect(page).not.toContain('Seq Scan');
      if (Object.keys(filters).length > 0) {
        const total = await plan(selectAuditTotal(drizzle(client), filters));
        expect(total).toContain(index);
        expect(total).not.toContain('Seq Scan');
      }
    },
  );

  it('finds where pruning cuts the audit chain from the (time, seq) index', async () => {
    expect(await plan(selectLastBefore(drizzle(client), new Date('2026-06-01')))).toContain(
      'Index Scan Backward using audit_events_time_idx',
    );
  });

  it('commits migrations that name no schema for its tables, so they land in the configured one', () => {
    const folder = fileURLToPath(new URL('../../migrations/postgres', import.meta.url));
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.sql'))) {
      expect(readFileSync(`${folder}/${name}`, 'utf8'), name).not.toMatch(/"public"\./);
    }
  });
});
