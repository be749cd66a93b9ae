import { type AdminSession, type paths, unwrap } from '@uas/client';
import type { IdentityProviderKind } from '@uas/domain';

type Answer<P extends keyof paths, M extends 'get' | 'post' | 'patch', S extends number> =
  NonNullable<paths[P][M]> extends {
    responses: { [K in S]: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** An identity provider as the API shows it: whether a client secret is set, never the secret. */
export type IdentityProviderResource = Answer<'/v1/admin/identity-providers/{id}', 'get', 200>['data'];
/** A user's account at a provider. */
export type IdentityResource = Answer<'/v1/admin/users/{id}/identities', 'get', 200>['data'][number];

/** What an owner fills in; `client_secret` only when one is typed (write-only: it is never read back). */
export type IdentityProviderInput = {
  issuer?: string | null;
  client_id?: string;
  client_secret?: string;
  scopes?: string[];
  enabled?: boolean;
  auto_link?: boolean;
};

const TYPE = 'identity_providers' as const;

/** The admin API's identity providers (owners only), and the identities users hold at them. */
export class IdentityProvidersApi {
  constructor(private readonly session: AdminSession) {}

  async list(signal?: AbortSignal): Promise<IdentityProviderResource[]> {
    return (await unwrap(this.session.api.GET('/v1/admin/identity-providers', { signal }))).data.data;
  }

  async create(
    attributes: IdentityProviderInput & { slug: string; kind: IdentityProviderKind; client_id: string },
  ): Promise<IdentityProviderResource> {
    const body = { data: { type: TYPE, attributes } };
    return (await unwrap(this.session.api.POST('/v1/admin/identity-providers', { body }))).data.data;
  }

  async update(id: string, attributes: IdentityProviderInput): Promise<IdentityProviderResource> {
    const body = { data: { type: TYPE, id, attributes } };
    const call = this.session.api.PATCH('/v1/admin/identity-providers/{id}', { params: { path: { id } }, body });
    return (await unwrap(call)).data.data;
  }

  async remove(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/identity-providers/{id}', { params: { path: { id } } }));
  }

  async identitiesOf(userId: string, signal?: AbortSignal): Promise<IdentityResource[]> {
    const call = this.session.api.GET('/v1/admin/users/{id}/identities', { params: { path: { id: userId } }, signal });
    return (await unwrap(call)).data.data;
  }

  async unlink(userId: string, identityId: string): Promise<void> {
    const call = this.session.api.DELETE('/v1/admin/users/{id}/identities/{identityId}', {
      params: { path: { id: userId, identityId } },
    });
    await unwrap(call);
  }
}
