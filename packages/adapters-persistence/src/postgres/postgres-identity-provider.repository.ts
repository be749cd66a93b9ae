import { eq } from 'drizzle-orm';
import type { AuditRecord, IdentityProvider, IdentityProviderChange, IdentityProviderRepository } from '@uas/domain';
import { slugTakenOr } from '../shared/identity-errors';
import { identityProviderOf, identityProviderRow } from '../shared/identity-rows';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { externalIdentities, identityProviders } from './postgres-schema';

export class PostgresIdentityProviderRepository implements IdentityProviderRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(provider: IdentityProvider, audit: AuditRecord): Promise<IdentityProvider> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(identityProviders).values(identityProviderRow(provider)).returning();
        await appendAuditEvent(tx, audit);
        return identityProviderOf(row!);
      });
    } catch (error) {
      throw slugTakenOr(error);
    }
  }

  async get(id: string): Promise<IdentityProvider | null> {
    const [row] = await this.db.select().from(identityProviders).where(eq(identityProviders.id, id));
    return row ? identityProviderOf(row) : null;
  }

  async findBySlug(slug: string): Promise<IdentityProvider | null> {
    const [row] = await this.db.select().from(identityProviders).where(eq(identityProviders.slug, slug));
    return row ? identityProviderOf(row) : null;
  }

  async list(): Promise<IdentityProvider[]> {
    const rows = await this.db
      .select()
      .from(identityProviders)
      .orderBy(identityProviders.created, identityProviders.id);
    return rows.map(identityProviderOf);
  }

  async update(id: string, change: IdentityProviderChange): Promise<IdentityProvider | null> {
    try {
      return await this.db.transaction(async (tx) => {
        // The row's lock holds a concurrent change until this one commits; it then reads this one's result.
        const [current] = await tx.select().from(identityProviders).where(eq(identityProviders.id, id)).for('update');
        if (!current) return null;
        // A link inserting an identity takes a key-share lock on the provider's row: none can slip in.
        const held = await tx
          .select({ id: externalIdentities.id })
          .from(externalIdentities)
          .where(eq(externalIdentities.providerId, id))
          .limit(1);
        const { provider, audit } = change(identityProviderOf(current), held.length > 0);
        const { id: _id, created: _created, ...changed } = identityProviderRow(provider);
        const [row] = await tx.update(identityProviders).set(changed).where(eq(identityProviders.id, id)).returning();
        if (audit) await appendAuditEvent(tx, audit);
        return row ? identityProviderOf(row) : null;
      });
    } catch (error) {
      throw slugTakenOr(error);
    }
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Its identities and attempts go with it (the foreign keys cascade).
      const [row] = await tx
        .delete(identityProviders)
        .where(eq(identityProviders.id, id))
        .returning({ id: identityProviders.id });
      if (!row) return false;
      await appendAuditEvent(tx, audit);
      return true;
    });
  }
}
