import { OAUTH_CLIENT_SECRET_PURPOSE, type OAuthClient, type SecretBox } from '@uas/domain';
import type { ClientMetadata } from 'oidc-provider';

/**
 * A registered client as the engine reads it (RFC 7591 metadata): the code flow only, refresh
 * tokens, and the scopes an admin allowed. A confidential client authenticates with its secret
 * (Basic or in the body: the engine accepts either for `client_secret_basic`); a public one with
 * nothing, so the engine requires PKCE of it. The secret is opened from the key ring for the
 * engine's constant-time comparison and never leaves this process.
 */
export async function clientMetadata(client: OAuthClient, box: SecretBox): Promise<ClientMetadata> {
  const secret = client.secret && (await box.open(OAUTH_CLIENT_SECRET_PURPOSE, client.secret, client.id));
  return {
    client_id: client.id,
    client_name: client.name,
    application_type: client.applicationType,
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...client.postLogoutRedirectUris],
    scope: client.scopes.join(' '),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: client.type === 'confidential' ? 'client_secret_basic' : 'none',
    // Unset, the engine signs with the service's JWT_ALGORITHM (its default algorithm).
    ...(client.idTokenSigningAlgorithm ? { id_token_signed_response_alg: client.idTokenSigningAlgorithm } : {}),
    ...(secret ? { client_secret: secret } : {}),
  };
}
