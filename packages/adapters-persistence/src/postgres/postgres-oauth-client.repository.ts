import { eq } from 'drizzle-orm';
import type { AuditRecord, OAuthClient, OAuthClientChange, OAuthClientRepository } from '@uas/domain';
import { oauthClientOf, oauthClientRow } from '../shared/openid-rows';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { deleteClientRecords } from './postgres-openid-record-statements';
import { oauthClients } from './postgres-schema';

export class PostgresOAuthClientRepository implements OAuthClientRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(client: OAuthClient, audit: AuditRecord): Promise<OAuthClient> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(oauthClients).values(oauthClientRow(client)).returning();
      await appendAuditEvent(tx, audit);
      return oauthClientOf(row!);
    });
  }

  async get(id: string): Promise<OAuthClient | null> {
    const [row] = await this.db.select().from(oauthClients).where(eq(oauthClients.id, id));
    return row ? oauthClientOf(row) : null;
  }

  async list(): Promise<OAuthClient[]> {
    const rows = await this.db.select().from(oauthClients).orderBy(oauthClients.created, oauthClients.id);
    return rows.map(oauthClientOf);
  }

  async update(id: string, change: OAuthClientChange): Promise<OAuthClient | null> {
    return this.db.transaction(async (tx) => {
      // The row's lock holds a concurrent change until this one commits; it then reads this one's result.
      const [current] = await tx.select().from(oauthClients).where(eq(oauthClients.id, id)).for('update');
      if (!current) return null;
      const { client, audit } = change(oauthClientOf(current));
      const { id: _id, created: _created, ...changed } = oauthClientRow(client);
      const [row] = await tx.update(oauthClients).set(changed).where(eq(oauthClients.id, id)).returning();
      if (audit) await appendAuditEvent(tx, audit);
      return row ? oauthClientOf(row) : null;
    });
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.delete(oauthClients).where(eq(oauthClients.id, id)).returning({ id: oauthClients.id });
      if (!row) return false;
      await deleteClientRecords(tx, id);
      await appendAuditEvent(tx, audit);
      return true;
    });
  }
}
