import {
  auditRecord,
  SYSTEM_ACTOR,
  type AuditTrail,
  type Clock,
  type IdGenerator,
  type Logger,
  type RateCounterRepository,
} from '@uas/domain';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { currentRequestContext } from './engine-requests';

/**
 * At most this many refusals of one client address are audited per window, on all instances
 * together: enough to see an attack begin and who it came from; an attacker hammering the token
 * endpoint writes a few counters, not a flood of events to the hash-chained trail.
 */
const AUDITED_REFUSALS = { perAddress: 10, windowSeconds: 600 } as const;

/** The longest engine sentence kept: they are short, fixed texts; nothing the client sent is in them. */
const DETAIL_MAX_LENGTH = 200;

export interface TokenRefusalsDeps {
  audit: AuditTrail;
  counters: RateCounterRepository;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/**
 * Audits `oauth_token.refused` for the token endpoint's refusals (the engine's `grant.error`):
 * the grant type, the error and the engine's reason, the client when it authenticated; never a
 * code, token or secret. Past the cap, one log line per address and window says that further
 * refusals go unaudited, so the trail's silence is not read as calm.
 */
export class TokenRefusals {
  constructor(private readonly deps: TokenRefusalsDeps) {}

  async record(ctx: KoaContextWithOIDC, error: { error?: string; error_detail?: string }): Promise<void> {
    const { audit, counters, clock, ids } = this.deps;
    const now = clock.now();
    const request = currentRequestContext();
    const key = `oauth-token-refused:${request.clientAddress ?? 'unknown'}`;
    const { count } = await counters.hit(key, now, AUDITED_REFUSALS.windowSeconds);
    if (count > AUDITED_REFUSALS.perAddress) {
      // The counter is shared by every instance: exactly one request sees the first refusal past the cap.
      if (count === AUDITED_REFUSALS.perAddress + 1) {
        this.deps.logger.warn('token refusals past the audit cap', {
          clientAddress: request.clientAddress,
          audited: AUDITED_REFUSALS.perAddress,
          windowSeconds: AUDITED_REFUSALS.windowSeconds,
        });
      }
      return;
    }
    const clientId = ctx.oidc?.client?.clientId ?? null;
    const grantType = ctx.oidc?.params?.grant_type;
    await audit.append(
      auditRecord(
        ids.next(),
        now,
        { actor: SYSTEM_ACTOR, request },
        'oauth_token.refused',
        clientId ? { type: 'oauth_clients', id: clientId } : null,
        {
          grant_type: {
            before: null,
            after: typeof grantType === 'string' ? grantType.slice(0, DETAIL_MAX_LENGTH) : null,
          },
          error: { before: null, after: error.error ?? 'server_error' },
          reason: { before: null, after: error.error_detail?.slice(0, DETAIL_MAX_LENGTH) ?? null },
        },
      ),
    );
  }
}
