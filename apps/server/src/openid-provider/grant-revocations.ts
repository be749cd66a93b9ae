import {
  GRANT_MODEL,
  grantRevocationRecord,
  type Clock,
  type GrantRevocationReason,
  type IdGenerator,
  type Initiator,
  type OpenIdRecordRepository,
} from '@uas/domain';

export interface GrantRevocationsDeps {
  records: OpenIdRecordRepository;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Ends grants for the engine, each with its codes and tokens, in one transaction with its
 * `oauth_grant.revoked` event. The engine revokes one grant through several calls (one per model,
 * then the grant): within one request they make one revocation and one event.
 */
export class GrantRevocations {
  private readonly inRequest = new WeakMap<object, Map<string, Promise<void>>>();

  constructor(private readonly deps: GrantRevocationsDeps) {}

  /** Once per `request` (any object that lives as long as it) and grant. */
  revoke(request: object, grantId: string, reason: GrantRevocationReason, by: Initiator): Promise<void> {
    let started = this.inRequest.get(request);
    if (!started) this.inRequest.set(request, (started = new Map()));
    let revocation = started.get(grantId);
    if (!revocation) started.set(grantId, (revocation = this.revokeNow(grantId, reason, by)));
    return revocation;
  }

  private async revokeNow(grantId: string, reason: GrantRevocationReason, by: Initiator): Promise<void> {
    const { records, clock, ids } = this.deps;
    const now = clock.now();
    const grant = await records.find(GRANT_MODEL, grantId, now);
    // Revoked or expired already: its records go all the same, with no event for what was not this call's.
    const audit = grant ? grantRevocationRecord(ids.next(), now, by, grant, reason) : undefined;
    await records.revokeGrant(grantId, audit);
  }
}
