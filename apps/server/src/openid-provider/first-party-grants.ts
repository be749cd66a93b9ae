import type { OAuthClientRepository } from '@uas/domain';
import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import { currentRequestContext } from './engine-requests';
import type { GrantWriter } from './grant-writer';

/**
 * The engine's `loadExistingGrant`: the grant the user gave the application, and for a client
 * the operator marked first party, the scopes it asks granted at once (audited like a consent),
 * so its users are never asked.
 */
export class FirstPartyGrants {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly grants: GrantWriter,
  ) {}

  async load(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { oidc } = ctx;
    const clientId = oidc.client!.clientId;
    const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(clientId);
    const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
    const accountId = oidc.session!.accountId;
    if (!accountId || !(await this.clients.get(clientId))?.firstParty) return existing;
    return this.grants.extend(
      oidc.provider,
      existing,
      { accountId, clientId },
      [...oidc.requestParamOIDCScopes],
      [],
      currentRequestContext(),
    );
  }
}
