import type { AuditRecord } from '../audit/audit-event.ts';
import type { OAuthClient } from '../openid/oauth-client.ts';
import type { OAuthClientChange, OAuthClientRepository } from '../openid/oauth-client.repository.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryOpenIdRecordRepository } from './in-memory-openid-records.ts';

const oldestFirst = (a: OAuthClient, b: OAuthClient) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** OAuth clients in memory: each change decides and writes without an `await` in between. */
export class InMemoryOAuthClientRepository implements OAuthClientRepository {
  readonly rows = new Map<string, OAuthClient>();

  constructor(
    private readonly audit: InMemoryAuditTrail,
    /** What the engine stored for a client, which goes with it. */
    private readonly records: InMemoryOpenIdRecordRepository,
  ) {}

  async create(client: OAuthClient, audit: AuditRecord): Promise<OAuthClient> {
    this.rows.set(client.id, structuredClone(client));
    this.audit.appendNow(audit);
    return structuredClone(client);
  }

  async get(id: string): Promise<OAuthClient | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async list(): Promise<OAuthClient[]> {
    return [...this.rows.values()].sort(oldestFirst).map((row) => structuredClone(row));
  }

  async update(id: string, change: OAuthClientChange): Promise<OAuthClient | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const { client, audit } = change(structuredClone(current));
    const stored: OAuthClient = structuredClone({ ...client, id, created: current.created });
    this.rows.set(id, stored);
    if (audit) this.audit.appendNow(audit);
    return structuredClone(stored);
  }

  async delete(id: string, audit: AuditRecord): Promise<boolean> {
    if (!this.rows.delete(id)) return false;
    this.records.dropClient(id);
    this.audit.appendNow(audit);
    return true;
  }
}
