import { type AdminSession, type paths, unwrap } from '@uas/client';
import type { IdTokenSigningAlgorithm, OAuthApplicationType, OAuthClientType, OpenIdScope } from '@uas/domain';

type Answer<P extends keyof paths, M extends 'get' | 'post' | 'patch', S extends number> =
  NonNullable<paths[P][M]> extends {
    responses: { [K in S]: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** An OAuth client as the API shows it: never its secret. */
export type OAuthClientResource = Answer<'/v1/admin/oauth-clients/{id}', 'get', 200>['data'];
/** A client with its secret in clear (null for a public client): the answer of a creation or a rotation, once. */
export type RevealedOAuthClient = Answer<'/v1/admin/oauth-clients/{id}/rotate-secret', 'post', 200>['data'];

/** What an owner may change of a client. */
export type OAuthClientInput = {
  name?: string;
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
  scopes?: OpenIdScope[];
  first_party?: boolean;
  id_token_signed_response_alg?: IdTokenSigningAlgorithm | null;
};

const TYPE = 'oauth_clients' as const;

/** The admin API's OAuth clients (owners only): the applications that sign their users in here. */
export class OAuthClientsApi {
  constructor(private readonly session: AdminSession) {}

  async list(signal?: AbortSignal): Promise<OAuthClientResource[]> {
    return (await unwrap(this.session.api.GET('/v1/admin/oauth-clients', { signal }))).data.data;
  }

  async create(
    attributes: OAuthClientInput & {
      name: string;
      type: OAuthClientType;
      application_type: OAuthApplicationType;
      redirect_uris: string[];
    },
  ): Promise<RevealedOAuthClient> {
    const body = { data: { type: TYPE, attributes } };
    return (await unwrap(this.session.api.POST('/v1/admin/oauth-clients', { body }))).data.data;
  }

  async update(id: string, attributes: OAuthClientInput): Promise<OAuthClientResource> {
    const body = { data: { type: TYPE, id, attributes } };
    const call = this.session.api.PATCH('/v1/admin/oauth-clients/{id}', { params: { path: { id } }, body });
    return (await unwrap(call)).data.data;
  }

  async rotateSecret(id: string): Promise<RevealedOAuthClient> {
    const call = this.session.api.POST('/v1/admin/oauth-clients/{id}/rotate-secret', { params: { path: { id } } });
    return (await unwrap(call)).data.data;
  }

  async remove(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/oauth-clients/{id}', { params: { path: { id } } }));
  }
}
