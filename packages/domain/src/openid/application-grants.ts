import { SYSTEM, type AuditRecord, type Initiator } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { isJsonObject } from '../shared/json.ts';
import type { OAuthClientRepository } from './oauth-client.repository.ts';
import type { OpenIdRecord } from './openid-record.ts';
import type { OpenIdRecordRepository } from './openid-record.repository.ts';

/** The engine's model of what a user let an application do (oidc-provider's `Grant`). */
export const GRANT_MODEL = 'Grant';

/**
 * Why a grant ended: its user revoked it; the engine did on a replayed code or refresh token; the
 * application revoked its refresh token (`token_revoked`); the user signed out of the application
 * through it (`signed_out`, grants without `offline_access`).
 */
export type GrantRevocationReason = 'user' | 'code_reused' | 'refresh_token_reused' | 'token_revoked' | 'signed_out';

/**
 * An application a user let sign them in, as they see it: every grant the user gave it (one per
 * browser they signed in from) taken together.
 */
export interface ApplicationGrant {
  /** The application's client id: what revoking names. */
  readonly id: string;
  readonly clientId: string;
  /** Null only while its client is being deleted (its grants go with it). */
  readonly clientName: string | null;
  /** The OpenID scopes granted, by any of its grants. */
  readonly scopes: readonly string[];
  /** When it was first granted. */
  readonly created: Date | null;
}

/**
 * The event of a grant's end: about its user, naming the grant, its client and why. One shape
 * for every revocation, the user's and the engine's.
 */
export function grantRevocationRecord(
  id: string,
  time: Date,
  by: Initiator,
  grant: Pick<OpenIdRecord, 'id' | 'accountId' | 'clientId'>,
  reason: GrantRevocationReason,
): AuditRecord {
  const target = grant.accountId === null ? null : userTarget(grant.accountId);
  return auditRecord(id, time, by, 'oauth_grant.revoked', target, {
    grant_id: { before: grant.id, after: null },
    client_id: { before: grant.clientId, after: null },
    reason: { before: null, after: reason },
  });
}

/** The scopes oidc-provider keeps in a Grant's payload: `openid.scope`, space-separated. */
function grantedScopes(payload: OpenIdRecord['payload']): string[] {
  const openid = payload.openid;
  const scope = isJsonObject(openid) ? openid.scope : undefined;
  return typeof scope === 'string' ? scope.split(' ').filter((entry) => entry !== '') : [];
}

/** When the engine made it: its payload's `iat`, in seconds. */
function issuedAt(payload: OpenIdRecord['payload']): Date | null {
  const iat = payload.iat;
  return typeof iat === 'number' ? new Date(iat * 1000) : null;
}

export interface ApplicationGrantsDeps {
  records: OpenIdRecordRepository;
  clients: OAuthClientRepository;
  clock: Clock;
  ids: IdGenerator;
}

/** A signed-in user's applications: what they granted, and revoking any of it. */
export class ApplicationGrants {
  constructor(private readonly deps: ApplicationGrantsDeps) {}

  /**
   * The applications the user let in, one per client (its grants' scopes together, the earliest
   * date), in the order first granted, each with its client's name.
   */
  async list(userId: string): Promise<ApplicationGrant[]> {
    const { records, clients, clock } = this.deps;
    const grants = await records.listByAccount(GRANT_MODEL, userId, clock.now());
    // Clients are the operator's few registrations: one read of them all names every grant.
    const names = new Map((await clients.list()).map((client) => [client.id, client.name]));
    const applications = new Map<string, ApplicationGrant>();
    for (const { clientId, payload } of grants) {
      // The engine names the client of every grant; a record without one is none of the user's applications.
      if (clientId === null) continue;
      const seen = applications.get(clientId);
      const created = issuedAt(payload);
      applications.set(clientId, {
        id: clientId,
        clientId,
        clientName: names.get(clientId) ?? null,
        scopes: [...new Set([...(seen?.scopes ?? []), ...grantedScopes(payload)])],
        created: earliest(seen?.created ?? null, created),
      });
    }
    return [...applications.values()];
  }

  /**
   * Ends every grant the user gave the application (`clientId`), with their codes and tokens:
   * the application's tokens stop working at once, in every browser the user signed in from. One
   * `oauth_grant.revoked` event per grant. An application the user never let in (or another
   * user's) is not found.
   */
  async revoke(userId: string, clientId: string, by: Initiator = SYSTEM): Promise<void> {
    const { records, clock, ids } = this.deps;
    const now = clock.now();
    const grants = (await records.listByAccount(GRANT_MODEL, userId, now)).filter(
      (grant) => grant.clientId === clientId,
    );
    let removed = 0;
    for (const grant of grants) {
      removed += await records.revokeGrant(grant.id, grantRevocationRecord(ids.next(), now, by, grant, 'user'));
    }
    // None left (none given, or revoked meanwhile by a parallel request or the engine): not by this call.
    if (removed === 0) throw new NotFoundError('application');
  }
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return a ?? b;
  return a.getTime() <= b.getTime() ? a : b;
}
