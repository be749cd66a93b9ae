import { openSqliteConnection } from '../sqlite/sqlite-driver';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import type { AuditRecord } from '@uas/domain';
import type { AuditTampering } from '@uas/domain/testing';
import { appendAuditEvent } from '../postgres/postgres-audit-trail';
import { auditEventRow } from '../shared/audit-rows';
import { parseDatabaseUrl } from '../database-url';

type Statement = readonly [sql: string, params: readonly (string | number | null)[]];

/** Runs statements in one transaction straight against the database, behind the repositories' back. */
async function runDirectly({ url, schema }: { url: string; schema?: string }, statements: Statement[]) {
  const location = parseDatabaseUrl(url);
  if (location.dialect === 'sqlite') {
    const client = openSqliteConnection(location.path ?? '', { fileMustExist: true });
    try {
      // Each `$n` of the shared text appears once and in order: a plain `?` to SQLite.
      client.transaction(() => {
        for (const [sql, params] of statements) client.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
      })();
    } finally {
      client.close();
    }
    return;
  }
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: schema ? { search_path: schema } : {} });
  try {
    await client.begin(async (tx) => {
      for (const [sql, params] of statements) await tx.unsafe(sql, params as string[]);
    });
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Tampering with stored audit events the way someone with database access could, for the contract suite. */
export function sqlAuditTampering(database: { url: string; schema?: string }): AuditTampering {
  return {
    setClientAddress: (seq, address) =>
      runDirectly(database, [['update audit_events set client_address = $1 where seq = $2', [address, seq]]]),
    remove: (seq) => runDirectly(database, [['delete from audit_events where seq = $1', [seq]]]),
    swap: (a, b) =>
      runDirectly(database, [
        ['update audit_events set seq = -1 where seq = $1', [a]],
        ['update audit_events set seq = $1 where seq = $2', [a, b]],
        ['update audit_events set seq = $1 where seq = -1', [b]],
      ]),
    insert: (event) => {
      const row = auditEventRow(event);
      const sqlite = parseDatabaseUrl(database.url).dialect === 'sqlite';
      return runDirectly(database, [
        // Through negative places: a unique place refuses a shift of one, row by row.
        ['update audit_events set seq = -seq - 1 where seq >= $1', [row.seq]],
        ['update audit_events set seq = -seq where seq < 0', []],
        [
          `insert into audit_events (seq, id, time, actor_type, actor_id, action, target_type, target_id, changes,
            request_id, client_address, user_agent, previous_hash, hash)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            row.seq,
            row.id,
            sqlite ? row.time.getTime() : row.time.toISOString(),
            row.actorType,
            row.actorId,
            row.action,
            row.targetType,
            row.targetId,
            row.changes,
            row.requestId,
            row.clientAddress,
            row.userAgent,
            row.previousHash,
            row.hash,
          ],
        ],
      ]);
    },
  };
}

/**
 * PostgreSQL: a transaction on a connection of its own that appends `record` as the write ports
 * do and stays open until the answered function commits it (see RepositoryHarness).
 */
export async function holdAuditedWrite(
  { url, schema }: { url: string; schema: string },
  record: AuditRecord,
): Promise<() => Promise<void>> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  let commit = () => {};
  const committing = new Promise<void>((resolve) => (commit = resolve));
  let appended = () => {};
  const open = new Promise<void>((resolve) => (appended = resolve));
  const transaction = drizzle(client).transaction(async (tx) => {
    await appendAuditEvent(tx, record);
    appended();
    await committing;
  });
  await Promise.race([open, transaction]);
  return async () => {
    commit();
    await transaction;
    await client.end({ timeout: 5 });
  };
}
