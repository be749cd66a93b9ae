import { eq } from 'drizzle-orm';
import type { AuditRecord, IdentityProvider, IdentityProviderChange, IdentityProviderRepository } from '@uas/domain';
import { slugTakenOr } from '../shared/identity-errors';
import { identityProviderOf, identityProviderRow } from '../shared/identity-rows';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { externalIdentities, identityProviders } from './sqlite-schema';

// A change is one IMMEDIATE transaction: it holds the write lock from its first read, so the
// provider it changes is the one it read. Callbacks are synchronous, as better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

export class SqliteIdentityProviderRepository implements IdentityProviderRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(provider: IdentityProvider, audit: AuditRecord): Promise<IdentityProvider> {
    try {
      return this.db.transaction((tx) => {
        const row = tx.insert(identityProviders).values(identityProviderRow(provider)).returning().get();
        appendAuditEvent(tx, audit);
        return identityProviderOf(row);
      }, IMMEDIATE);
    } catch (error) {
      throw slugTakenOr(error);
    }
  }

  async get(id: string): Promise<IdentityProvider | null> {
    const row = this.db.select().from(identityProviders).where(eq(identityProviders.id, id)).get();
    return row ? identityProviderOf(row) : null;
  }

  async findBySlug(slug: string): Promise<IdentityProvider | null> {
    const row = this.db.select().from(identityProviders).where(eq(identityProviders.slug, slug)).get();
    return row ? identityProviderOf(row) : null;
  }

  async list(): Promise<IdentityProvider[]> {
    return this.db
      .select()
      .from(identityProviders)
      .orderBy(identityProviders.created, identityProviders.id)
      .all()
      .map(identityProviderOf);
  }

  async update(id: string, change: IdentityProviderChange): Promise<IdentityProvider | null> {
    try {
      return this.db.transaction((tx) => {
        const current = tx.select().from(identityProviders).where(eq(identityProviders.id, id)).get();
        if (!current) return null;
        const hasIdentities =
          tx
            .select({ id: externalIdentities.id })
            .from(externalIdentities)
            .where(eq(externalIdentities.providerId, id))
            .limit(1)
            .get() !== undefined;
        const { provider, audit } = change(identityProviderOf(current), hasIdentities);
        const { id: _id, created: _created, ...changed } = identityProviderRow(provider);
        const row = tx.update(identityProviders).set(changed).where(eq(identityProviders.id, id)).returning().get();
        if (audit) appendAuditEvent(tx, audit);
        return row ? identityProviderOf(row) : null;
      }, IMMEDIATE);
    } catch (error) {
      throw slugTakenOr(error);
    }
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction((tx) => {
      // Its identities and attempts go with it (the foreign keys cascade).
      const row = tx.delete(identityProviders).where(eq(identityProviders.id, id)).returning().get();
      if (!row) return false;
      appendAuditEvent(tx, audit);
      return true;
    }, IMMEDIATE);
  }
}
