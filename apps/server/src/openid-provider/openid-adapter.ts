import {
  SYSTEM_ACTOR,
  type Clock,
  type GrantRevocationReason,
  type JsonObject,
  type OAuthClientRepository,
  type OpenIdRecord,
  type OpenIdRecordRepository,
  type SecretBox,
} from '@uas/domain';
import Provider, { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import { clientMetadata, OpenedClientSecrets } from './client-metadata';
import type { GrantRevocations } from './grant-revocations';
import { currentRequestContext, currentRequestKey } from './engine-requests';
import type { RecordIds } from './record-ids';

export interface OpenIdStoreDeps {
  records: OpenIdRecordRepository;
  clients: OAuthClientRepository;
  box: SecretBox;
  ids: RecordIds;
  clock: Clock;
  revocations: GrantRevocations;
  /** A refresh token used again within this many seconds of its first use is refused without revoking. */
  refreshReuseGraceSeconds: number;
}

/** What a second use of a single-use record says and means. */
const SINGLE_USE: Readonly<Record<string, { label: string; reason: GrantRevocationReason }>> = {
  AuthorizationCode: { label: 'authorization code', reason: 'code_reused' },
  RefreshToken: { label: 'refresh token', reason: 'refresh_token_reused' },
};

/**
 * The engine's storage (oidc-provider's Adapter): every model in `openid_records` through the
 * repository, shared by every instance; clients from the admins' `oauth_clients`.
 */
export function openIdAdapter(deps: OpenIdStoreDeps): AdapterFactory {
  const secrets = new OpenedClientSecrets(deps.box);
  return (model) => (model === 'Client' ? new ClientAdapter(deps, secrets) : new RecordAdapter(model, deps));
}

/** Clients are registered by admins only: the engine reads them and never writes one. */
class ClientAdapter implements Adapter {
  constructor(
    private readonly deps: OpenIdStoreDeps,
    private readonly secrets: OpenedClientSecrets,
  ) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    const client = await this.deps.clients.get(id);
    return client ? clientMetadata(client, this.secrets) : undefined;
  }

  upsert(): Promise<void> {
    return refuseWrite();
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return refuseWrite();
  }
  destroy(): Promise<void> {
    return refuseWrite();
  }
  revokeByGrantId(): Promise<void> {
    return refuseWrite();
  }
}

const refuseWrite = () => Promise.reject(new Error('Clients are registered through the admin API only.'));

class RecordAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly deps: OpenIdStoreDeps,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.records.upsert({
      model: this.model,
      id: await this.deps.ids.stored(this.model, id),
      payload: this.deps.ids.storedPayload(this.model, payload) as JsonObject,
      // A grant is its own grant: revoking it removes it with its codes and tokens.
      grantId: this.model === 'Grant' ? id : (payload.grantId ?? null),
      uid: payload.uid ?? null,
      accountId: payload.accountId ?? null,
      clientId: payload.clientId ?? null,
      expires: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const record = await this.stored(id);
    return record ? this.payloadOf(record, id) : undefined;
  }

  findByUserCode(): Promise<undefined> {
    // The device flow is not enabled: there are no user codes.
    return Promise.resolve(undefined);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const record = await this.deps.records.findByUid(this.model, uid, this.deps.clock.now());
    return record ? this.payloadOf(record) : undefined;
  }

  /**
   * Uses a code or refresh token once: of redemptions racing on any instances, the repository
   * lets exactly one through. Another is refused with `invalid_grant`; a code's, or a refresh
   * token's past the reuse grace window, also revokes the grant (its tokens stop working), since
   * whoever holds it may have stolen it. A refresh token used again within the grace window is
   * most likely its holder's own retry racing the first use: refused without revoking.
   */
  async consume(id: string): Promise<void> {
    const { records, clock, ids, refreshReuseGraceSeconds } = this.deps;
    const now = clock.now();
    const singleUse = SINGLE_USE[this.model];
    for (const stored of await ids.candidates(this.model, id)) {
      const used = await records.consume(this.model, stored, now);
      if (used.outcome === 'missing') continue;
      if (used.outcome === 'consumed' || !singleUse) return;
      const withinGrace =
        this.model === 'RefreshToken' && now.getTime() - used.at.getTime() <= refreshReuseGraceSeconds * 1000;
      if (!withinGrace) await this.revokeGrantOf(stored, singleUse.reason);
      throw new errors.InvalidGrant(`${singleUse.label} already used`);
    }
    // Removed since it was read: its grant was revoked meanwhile.
    if (singleUse) throw new errors.InvalidGrant(`${singleUse.label} not found`);
  }

  async destroy(id: string): Promise<void> {
    // The engine destroys a grant only as the end of revoking it.
    if (this.model === 'Grant') return this.revoke(id);
    for (const stored of await this.deps.ids.candidates(this.model, id))
      await this.deps.records.destroy(this.model, stored);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.revoke(grantId);
  }

  /** The engine's own revocations: a client revoking its refresh token, or a user signing out. */
  private revoke(grantId: string): Promise<void> {
    const ctx = Provider.ctx;
    const signedOut = ctx?.oidc?.route !== 'revocation';
    const accountId = ctx?.oidc?.session?.accountId;
    const actor = signedOut && accountId ? { type: 'user' as const, id: accountId } : SYSTEM_ACTOR;
    return this.deps.revocations.revoke(currentRequestKey(), grantId, signedOut ? 'signed_out' : 'token_revoked', {
      actor,
      request: currentRequestContext(),
    });
  }

  private async revokeGrantOf(stored: string, reason: GrantRevocationReason): Promise<void> {
    const record = await this.deps.records.find(this.model, stored, this.deps.clock.now());
    if (!record?.grantId) return;
    // Who presented it is not known (it may be a thief): the service revokes.
    await this.deps.revocations.revoke(currentRequestKey(), record.grantId, reason, {
      actor: SYSTEM_ACTOR,
      request: currentRequestContext(),
    });
  }

  private async stored(id: string): Promise<OpenIdRecord | null> {
    const now = this.deps.clock.now();
    for (const stored of await this.deps.ids.candidates(this.model, id)) {
      const record = await this.deps.records.find(this.model, stored, now);
      if (record) return record;
    }
    return null;
  }

  /**
   * At the token endpoint a code's or refresh token's earlier use is not shown to the engine: it
   * would revoke on its own, without the grace window, and only for uses it happened to see
   * finished. There the repository's `consume` judges every redemption alike, sequential or
   * concurrent. Elsewhere (introspection, revocation) a used one is shown as used.
   */
  private payloadOf(record: OpenIdRecord, id?: string): AdapterPayload {
    const payload = this.deps.ids.foundPayload(this.model, record.payload as AdapterPayload, id);
    const judgedAtConsume = SINGLE_USE[this.model] !== undefined && Provider.ctx?.oidc?.route === 'token';
    if (!record.consumed || judgedAtConsume) return payload;
    return { ...payload, consumed: Math.floor(record.consumed.getTime() / 1000) };
  }
}
