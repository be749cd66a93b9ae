import {
  auditRecord,
  userTarget,
  type AuditTrail,
  type Clock,
  type IdGenerator,
  type RequestContext,
} from '@uas/domain';
import type Provider from 'oidc-provider';
import type { Grant } from 'oidc-provider';

export interface GrantWriterDeps {
  audit: AuditTrail;
  clock: Clock;
  ids: IdGenerator;
}

/** Whose grant, for which application. */
export interface GrantOwner {
  accountId: string;
  clientId: string;
}

/**
 * Writes what a user lets an application have: the scopes (and claims) added to their grant for
 * it, the grant made when there is none, each addition audited `oauth_grant.created`.
 */
export class GrantWriter {
  constructor(private readonly deps: GrantWriterDeps) {}

  /** The grant, with `scopes` and `claims` added; saved and audited only when that adds anything. */
  async extend(
    provider: Provider,
    existing: Grant | undefined,
    owner: GrantOwner,
    scopes: readonly string[],
    claims: readonly string[],
    request: RequestContext,
  ): Promise<Grant> {
    const grant = existing ?? new provider.Grant(owner);
    const scopesHeld = scopesOf(grant);
    const claimsHeld = new Set(grant.getOIDCClaimsEncountered());
    const newScopes = scopes.filter((scope) => !scopesHeld.has(scope));
    const newClaims = claims.filter((claim) => !claimsHeld.has(claim));
    if (existing && newScopes.length === 0 && newClaims.length === 0) return grant;
    if (newScopes.length > 0) grant.addOIDCScope(newScopes.join(' '));
    if (newClaims.length > 0) grant.addOIDCClaims(newClaims);
    const grantId = await grant.save();
    const { audit, clock, ids } = this.deps;
    await audit.append(
      auditRecord(
        ids.next(),
        clock.now(),
        { actor: { type: 'user', id: owner.accountId }, request },
        'oauth_grant.created',
        userTarget(owner.accountId),
        {
          grant_id: { before: existing ? grantId : null, after: grantId },
          client_id: { before: existing ? owner.clientId : null, after: owner.clientId },
          scopes: {
            before: existing ? [...scopesHeld].join(' ') : null,
            after: [...scopesOf(grant)].join(' '),
          },
        },
      ),
    );
    return grant;
  }
}

/** The scopes a grant holds: the engine keeps them as one string, with a space at its end. */
function scopesOf(grant: Grant): Set<string> {
  return new Set(grant.getOIDCScopeEncountered().split(' ').filter(Boolean));
}
