import { eq, sql } from 'drizzle-orm';
import type { AuditRecord, OAuthClient, OAuthClientChange, OAuthClientRepository } from '@uas/domain';
import { oauthClientOf, oauthClientRow } from '../shared/openid-rows';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { deleteClientRecords } from './sqlite-openid-record-statements';
import { preparedOnUse } from './prepared-on-use';
import { oauthClients } from './sqlite-schema';

// A change is one IMMEDIATE transaction: it holds the write lock from its first read, so the
// client it changes is the one it read. Callbacks are synchronous, as better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

export class SqliteOAuthClientRepository implements OAuthClientRepository {
  // The engine reads the client on every request of its endpoints (the token, userinfo).
  private readonly byId = preparedOnUse(() =>
    this.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.id, sql.placeholder('id')))
      .prepare(),
  );

  constructor(private readonly db: SqliteDb) {}

  async create(client: OAuthClient, audit: AuditRecord): Promise<OAuthClient> {
    return this.db.transaction((tx) => {
      const row = tx.insert(oauthClients).values(oauthClientRow(client)).returning().get();
      appendAuditEvent(tx, audit);
      return oauthClientOf(row);
    }, IMMEDIATE);
  }

  async get(id: string): Promise<OAuthClient | null> {
    const row = this.byId().get({ id });
    return row ? oauthClientOf(row) : null;
  }

  async list(): Promise<OAuthClient[]> {
    return this.db.select().from(oauthClients).orderBy(oauthClients.created, oauthClients.id).all().map(oauthClientOf);
  }

  async update(id: string, change: OAuthClientChange): Promise<OAuthClient | null> {
    return this.db.transaction((tx) => {
      const current = tx.select().from(oauthClients).where(eq(oauthClients.id, id)).get();
      if (!current) return null;
      const { client, audit } = change(oauthClientOf(current));
      const { id: _id, created: _created, ...changed } = oauthClientRow(client);
      const row = tx.update(oauthClients).set(changed).where(eq(oauthClients.id, id)).returning().get();
      if (audit) appendAuditEvent(tx, audit);
      return row ? oauthClientOf(row) : null;
    }, IMMEDIATE);
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction((tx) => {
      const row = tx.delete(oauthClients).where(eq(oauthClients.id, id)).returning({ id: oauthClients.id }).get();
      if (!row) return false;
      deleteClientRecords(tx, id).run();
      appendAuditEvent(tx, audit);
      return true;
    }, IMMEDIATE);
  }
}
