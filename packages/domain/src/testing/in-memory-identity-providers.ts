import type { AuditRecord } from '../audit/audit-event.ts';
import type { IdentityProvider } from '../identities/identity-provider.ts';
import type { IdentityProviderChange, IdentityProviderRepository } from '../identities/identity-provider.repository.ts';
import { SlugTakenError } from '../shared/errors.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';

const oldestFirst = (a: IdentityProvider, b: IdentityProvider) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Records that go with a deleted provider, as the databases' foreign keys take them along. */
export interface DroppedWithProvider {
  dropProvider(providerId: string): void;
}

/** Identity providers in memory: each change decides and writes without an `await` in between. */
export class InMemoryIdentityProviderRepository implements IdentityProviderRepository {
  readonly rows = new Map<string, IdentityProvider>();

  constructor(
    private readonly audit: InMemoryAuditTrail,
    /** Its identities and attempts, which go with it. */
    private readonly dependents: () => readonly DroppedWithProvider[] = () => [],
    /** Whether any identity exists through the provider. */
    private readonly hasIdentities: (providerId: string) => boolean = () => false,
  ) {}

  async create(provider: IdentityProvider, audit: AuditRecord): Promise<IdentityProvider> {
    this.assertSlugFree(provider.slug, provider.id);
    this.rows.set(provider.id, structuredClone(provider));
    this.audit.appendNow(audit);
    return structuredClone(provider);
  }

  async get(id: string): Promise<IdentityProvider | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async findBySlug(slug: string): Promise<IdentityProvider | null> {
    const row = [...this.rows.values()].find((provider) => provider.slug === slug);
    return row ? structuredClone(row) : null;
  }

  async list(): Promise<IdentityProvider[]> {
    return [...this.rows.values()].sort(oldestFirst).map((row) => structuredClone(row));
  }

  async update(id: string, change: IdentityProviderChange): Promise<IdentityProvider | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const { provider, audit } = change(structuredClone(current), this.hasIdentities(id));
    const stored: IdentityProvider = structuredClone({ ...provider, id, created: current.created });
    this.assertSlugFree(stored.slug, id);
    this.rows.set(id, stored);
    if (audit) this.audit.appendNow(audit);
    return structuredClone(stored);
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    if (!this.rows.delete(id)) return false;
    for (const dependent of this.dependents()) dependent.dropProvider(id);
    this.audit.appendNow(audit);
    return true;
  }

  private assertSlugFree(slug: string, id: string): void {
    if ([...this.rows.values()].some((provider) => provider.slug === slug && provider.id !== id)) {
      throw new SlugTakenError();
    }
  }
}
