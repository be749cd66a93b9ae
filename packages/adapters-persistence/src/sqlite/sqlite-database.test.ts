import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { Placeholder } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleUser } from '@uas/domain/testing';
import { describeDatabaseContract } from '../database.contract';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';
import { migrationsBefore, SESSION_BEFORE_AMR, USER_BEFORE_EMAIL_VERIFIED as OLD } from '../testing/migrations-before';
import { connectSqlite } from './sqlite-database';
import { selectDays, selectUserTotals } from './sqlite-activity.repository';
import { selectFailureCounts } from './sqlite-login-attempt.repository';
import {
  selectCounter,
  selectMatches,
  selectOrderedIds,
  selectOrderedUsers,
  selectUserPage,
  selectUserTotal,
} from './sqlite-user-list';
import { selectAuditPage, selectAuditTotal, selectLastBefore } from './sqlite-audit-trail';
import { selectDue } from './sqlite-mail-queue';
import { selectActiveFactor, useCode } from './sqlite-factor.repository';
import { useToken, voidTokensOf } from './sqlite-action-token-statements';
import {
  consumeRecord,
  deleteAccountRecords,
  deleteClientRecords,
  deleteExpiredRecords,
  deleteGrantRecords,
  selectAccountRecords,
  selectByUid,
} from './sqlite-openid-record-statements';
import { selectSessionWithAccount } from './sqlite-session.repository';
import { AUDIT_PLAN_CASES, COMMON_ACTIONS } from '../testing/audit-plan-cases';

describeDatabaseContract('SQLite', async () => {
  const file = createTemporarySqliteFile();
  return { location: parseDatabaseUrl(`sqlite:${file.path}`), remove: async () => file.remove() };
});

describe('SQLite database', () => {
  let file: TemporarySqliteFile | undefined;
  afterEach(() => file?.remove());

  /** A connection to a fresh, migrated database file, for the query plan tests. */
  async function migratedClient(): Promise<ReturnType<typeof connectSqlite>> {
    file = createTemporarySqliteFile();
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
    await database.migrate();
    await database.close();
    return connectSqlite(file.path);
  }

  it('migrates the users stored before email_verified as verified at their creation', async () => {
    const before = migrationsBefore('sqlite', 'email_verified');
    try {
      file = createTemporarySqliteFile();
      const client = connectSqlite(file.path);
      try {
        migrate(drizzle(client), { migrationsFolder: before.folder });
        client
          .prepare(
            `insert into users (id, name, email, password_hash, metadata, app, active, created, updated)
             values (?, '', 'old@example.com', 'hash', '{}', '{}', 1, ?, ?)`,
          )
          .run(OLD.id, OLD.created, OLD.created);
      } finally {
        client.close();
      }
      const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
      await database.migrate();
      expect((await database.repositories.users.findById(OLD.id))?.emailVerified).toEqual(new Date(OLD.created));
      await database.close();
    } finally {
      before.remove();
    }
  });

  it('migrates the sessions stored before session_amr as password logins', async () => {
    const before = migrationsBefore('sqlite', 'session_amr');
    try {
      file = createTemporarySqliteFile();
      const client = connectSqlite(file.path);
      const { id, subjectId, created } = SESSION_BEFORE_AMR;
      try {
        migrate(drizzle(client), { migrationsFolder: before.folder });
        client
          .prepare(
            `insert into sessions (id, kind, subject_id, created, last_used, expires)
             values (?, 'user', ?, ?, ?, ?)`,
          )
          .run(id, subjectId, created, created, created + 3_600_000);
      } finally {
        client.close();
      }
      const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
      await database.migrate();
      expect((await database.repositories.sessions.findSession(id))?.amr).toEqual(['pwd']);
      await database.close();
    } finally {
      before.remove();
    }
  });

  it("uses a token by the unique digest index, and voids a user's by the user_id index", async () => {
    const client = await migratedClient();
    try {
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        client
          .prepare(`explain query plan ${sql}`)
          .all(...params.map((param) => (param instanceof Date ? param.getTime() : param)))
          .map((step) => (step as { detail: string }).detail)
          .join('\n');
      const db = drizzle(client);
      expect(plan(useToken(db, ['verification'], ['a', 'b'], new Date()).toSQL())).toContain(
        'action_tokens_digest_unique (digest=?)',
      );
      expect(plan(voidTokensOf(db, 'some-user', new Date()).toSQL())).toContain(
        'action_tokens_user_id_idx (user_id=?)',
      );
    } finally {
      client.close();
    }
  });

  it('finds, consumes, lists and removes OpenID records by their indexes', async () => {
    const client = await migratedClient();
    try {
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        client
          .prepare(`explain query plan ${sql}`)
          .all(...params.map((param) => (param instanceof Date ? param.getTime() : param)))
          .map((step) => (step as { detail: string }).detail)
          .join('\n');
      const db = drizzle(client);
      const now = new Date();
      const cases: [string, { toSQL(): { sql: string; params: unknown[] } }][] = [
        ['sqlite_autoindex_openid_records_1 (model=? AND id=?)', consumeRecord(db, 'AuthorizationCode', 'code', now)],
        ['openid_records_uid_idx (model=? AND uid=?)', selectByUid(db, 'Session', 'uid', now)],
        ['openid_records_account_idx (account_id=? AND model=?)', selectAccountRecords(db, 'Grant', 'user', now)],
        ['openid_records_account_idx (account_id=?)', deleteAccountRecords(db, 'user')],
        ['openid_records_grant_idx (grant_id=?)', deleteGrantRecords(db, 'grant')],
        ['openid_records_client_idx (client_id=?)', deleteClientRecords(db, 'client')],
        ['openid_records_expires_idx (expires<?)', deleteExpiredRecords(db, now, 100)],
      ];
      for (const [index, statement] of cases) {
        const planned = plan(statement.toSQL());
        expect(planned).toContain(index);
        expect(planned).not.toMatch(/SCAN openid_records|USE TEMP B-TREE/);
      }
    } finally {
      client.close();
    }
  });

  it("checks a session, its account's state and an admin's role in one statement, by primary keys", async () => {
    const client = await migratedClient();
    try {
      const { sql, params } = selectSessionWithAccount(drizzle(client)).toSQL();
      const steps = client
        .prepare(`explain query plan ${sql}`)
        .all(...params.map(() => 'some-value'))
        .map((step) => (step as { detail: string }).detail);
      expect(steps.filter((step) => step.startsWith('SCAN'))).toEqual([]);
      expect(steps.join('\n')).toMatch(/SEARCH sessions USING INDEX sqlite_autoindex_sessions_1 \(id=\?\)/);
      expect(steps.join('\n')).toMatch(/SEARCH admins USING INDEX sqlite_autoindex_admins_1 \(id=\?\)/);
      expect(steps.join('\n')).toMatch(/SEARCH users USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
    } finally {
      client.close();
    }
  });

  it("asks for an account's active factor and uses a recovery code by the account's indexes", async () => {
    const client = await migratedClient();
    try {
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        client
          .prepare(`explain query plan ${sql}`)
          .all(...params.map((param) => (param instanceof Date ? param.getTime() : param)))
          .map((step) => (step as { detail: string }).detail)
          .join('\n');
      const db = drizzle(client);
      expect(plan(selectActiveFactor(db, 'user', 'some-user').toSQL())).toContain('factors_user_idx (user_id=?)');
      expect(plan(selectActiveFactor(db, 'admin', 'some-admin').toSQL())).toContain('factors_admin_idx (admin_id=?)');
      expect(plan(useCode(db, 'user', 'some-user', 'digest', new Date()).toSQL())).toContain(
        'recovery_codes_user_digest_idx (user_id=? AND digest=?)',
      );
    } finally {
      client.close();
    }
  });

  it('finds the due mail from the partial due index, whatever the outbox has delivered', async () => {
    const client = await migratedClient();
    try {
      client
        .prepare(
          `with recursive n(n) as (select 1 union all select n + 1 from n where n < 20000)
           insert into mail_messages (id, kind, recipient, subject, created, status, attempts, next_attempt_at)
           select 'mail-' || n, 'test', 'a@example.com', 's', n, case when n % 1000 = 0 then 'queued' else 'delivered' end,
                  1, case when n % 1000 = 0 then n else null end
           from n`,
        )
        .run();
      client.exec('analyze');
      const { sql, params } = selectDue(drizzle(client), new Date(30_000), 4).toSQL();
      const plan = client
        .prepare(`explain query plan ${sql}`)
        .all(...params.map((param) => (param instanceof Date ? param.getTime() : param)))
        .map((step) => (step as { detail: string }).detail)
        .join('\n');
      expect(plan).toContain('mail_messages_due_idx');
      expect(plan).not.toContain('USE TEMP B-TREE');
    } finally {
      client.close();
    }
  });

  it('runs in WAL mode, syncs every commit, enforces foreign keys and keeps statement journals in memory', () => {
    file = createTemporarySqliteFile();
    const client = connectSqlite(file.path);
    try {
      expect(client.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(client.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(client.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(client.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
      expect(client.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    } finally {
      client.close();
    }
  });

  it('creates the directory of the database file when it is missing', async () => {
    file = createTemporarySqliteFile();
    const path = join(file.path, '..', 'nested', 'deeper', 'app.db');
    const database = await openDatabase(parseDatabaseUrl(`file:${path}`));
    await database.migrate();
    await database.close();
    const reopened = connectSqlite(path);
    expect(reopened.prepare("select name from sqlite_master where name = 'users'").get()).toEqual({ name: 'users' });
    reopened.close();
  });

  it("creates the database and its WAL files readable by the service's user only, in a private directory", async () => {
    file = createTemporarySqliteFile();
    const dir = join(file.path, '..', 'private');
    const path = join(dir, 'app.db');
    const database = await openDatabase(parseDatabaseUrl(`sqlite:${path}`));
    await database.migrate();
    const modes = await Promise.all(
      [dir, path, `${path}-wal`, `${path}-shm`].map(async (p) => (await stat(p)).mode & 0o777),
    );
    await database.close();
    expect(modes).toEqual([0o700, 0o600, 0o600, 0o600]);
  });

  describe('query plans of the list', () => {
    let client: ReturnType<typeof connectSqlite>;
    beforeEach(async () => {
      client = await migratedClient();
    });
    afterEach(() => client.close());

    const values: Record<string, unknown> = {
      match: '"a%b"',
      pattern: '%a\\%b%',
      rowids: '[1,2]',
      limit: 20,
      offset: 40,
    };
    function plan({ sql, params }: { sql: string; params: unknown[] }): string {
      const bound = params.map((param) => (param instanceof Placeholder ? values[param.name] : param));
      return client
        .prepare(`explain query plan ${sql}`)
        .all(...bound)
        .map((step) => (step as { detail: string }).detail)
        .join('\n');
    }

    it("chooses a page from the covering (created, id) index or the trigram matches, reading only the page's rows", () => {
      for (const strategy of ['none', 'walk', 'sort', 'scan', 'listed'] as const) {
        for (const descending of [false, true]) {
          const steps = plan(selectUserPage(drizzle(client), strategy, descending).toSQL());
          // The outer query reads the page's rows by rowid, never by scanning the table.
          expect(steps.split('\n')[0], strategy).toBe('SEARCH users USING INTEGER PRIMARY KEY (rowid=?)');
          if (strategy === 'none' || strategy.startsWith('walk'))
            expect(steps, strategy).toContain('SCAN users USING COVERING INDEX users_created_id_idx');
          if (strategy === 'walk' || strategy === 'sort')
            expect(steps, strategy).toContain('SCAN users_email_fts VIRTUAL TABLE');
          if (strategy === 'scan') expect(steps, strategy).toContain('SCAN users USING INDEX users_created_id_idx');
          if (strategy === 'listed')
            expect(steps, strategy).toMatch(/SEARCH users USING (COVERING )?INDEX \w+ \(id=\?\)/);
        }
      }
    });

    it("puts a search's matches in order by reading each by its rowid", () => {
      for (const select of [selectOrderedIds, selectOrderedUsers])
        expect(plan(select(drizzle(client)).toSQL()).split('\n')[0]).toBe(
          'SEARCH users USING INTEGER PRIMARY KEY (rowid=?)',
        );
    });

    it("counts everyone from the counter, and a search's matches from the trigram index alone", () => {
      expect(plan(selectCounter(drizzle(client)).toSQL())).toBe(
        'SEARCH user_count USING INTEGER PRIMARY KEY (rowid=?)',
      );
      expect(plan(selectUserTotal(drizzle(client), 'match').toSQL())).toMatch(
        /^SCAN users_email_fts VIRTUAL TABLE INDEX \d+:M1$/,
      );
      expect(plan(selectMatches(drizzle(client)).toSQL())).toMatch(/^SCAN users_email_fts VIRTUAL TABLE INDEX \d+:M1$/);
    });

    it("reads the overview from the counter's row and a range of the days' key, never from users", () => {
      expect(plan(selectUserTotals(drizzle(client)).toSQL())).toBe(
        'SEARCH user_count USING INTEGER PRIMARY KEY (rowid=?)',
      );
      expect(plan(selectDays(drizzle(client), '2026-01-01', '2026-01-30').toSQL())).toBe(
        'SEARCH daily_activity USING INDEX sqlite_autoindex_daily_activity_1 (day>? AND day<?)',
      );
    });

    it("counts a page's recent failed logins from the (key, at) index", () => {
      const keys = Array.from({ length: 20 }, (_, index) => `account:user:user${index}@example.com`);
      const { sql } = selectFailureCounts(drizzle(client)).toSQL();
      const steps = plan({ sql, params: [JSON.stringify(keys), Date.now()] });
      expect(steps).toContain('SEARCH login_failures USING COVERING INDEX login_failures_key_at_idx (key=? AND at>?)');
      expect(steps).not.toMatch(/SCAN login_failures/);
    });
  });

  describe('query plans of the audit trail', () => {
    let client: ReturnType<typeof connectSqlite>;
    beforeEach(async () => {
      client = await migratedClient();
      // A year of audit events, a few every hour: 2,000 targets, 50 admins, the rare ones rarely.
      client
        .prepare(
          `with recursive n(n) as (select 1 union all select n + 1 from n where n < 30000)
           insert into audit_events (seq, id, time, actor_type, actor_id, action, target_type, target_id, hash)
           select n, 'event-' || n, ${Date.UTC(2026, 0, 1)} + n * 1200000,
                  case when n % 1000 = 1 then 'system' else 'admin' end,
                  case when n % 1000 = 1 then null else 'admin-' || n % 50 end,
                  case when n % 1000 = 0 then 'signing_key.rotated' else json_extract(?, '$[' || (n % ${COMMON_ACTIONS.length}) || ']') end,
                  'users', 'user-' || n % 2000, hex(n)
           from n`,
        )
        .run(JSON.stringify(COMMON_ACTIONS));
      client.exec('analyze');
    });
    afterEach(() => client.close());

    function plan({ sql, params }: { sql: string; params: unknown[] }): string {
      return client
        .prepare(`explain query plan ${sql}`)
        .all(...params.map((param) => (param instanceof Date ? param.getTime() : param)))
        .map((step) => (step as { detail: string }).detail)
        .join('\n');
    }

    it.each(AUDIT_PLAN_CASES)(
      'reads the audit events of %s, their page and their count, from %s',
      (_, filters, index) => {
        const page = plan(selectAuditPage(drizzle(client), filters, 40, 20).toSQL());
        expect(page).toContain(index);
        expect(page).not.toContain('USE TEMP B-TREE');
        if (Object.keys(filters).length > 0)
          expect(plan(selectAuditTotal(drizzle(client), filters).toSQL())).toContain(index);
      },
    );

    it('finds where pruning cuts the audit chain from the (time, seq) index', () => {
      expect(plan(selectLastBefore(drizzle(client), new Date('2026-06-01')).toSQL())).toContain(
        'audit_events_time_idx',
      );
    });
  });

  it('opens sqlite::memory: for throw-away use', async () => {
    file = undefined;
    const database = await openDatabase(parseDatabaseUrl('sqlite::memory:'));
    await database.migrate();
    const user = sampleUser();
    await database.repositories.users.insert(user);
    expect(await database.withStartupLock(() => database.repositories.users.findById(user.id))).toEqual(user);
    await database.close();
  });
});
