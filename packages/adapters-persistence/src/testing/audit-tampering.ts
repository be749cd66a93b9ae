import { openSqliteConnection } from '../sqlite/sqlite-driver';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import type { AuditRecord } from '@uas/domain';
import type { AuditTampering } from '@uas/domain/testing';
import { appendAuditEvent } from '../postgres/postgres-audit-trail';
import { parseDatabaseUrl } from '../database-url';

type Statement = readonly [sql: string, params: readonly (string | number)[]];

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
