import { OAUTH_CLIENT_SECRET_PURPOSE, type OAuthClient, type SecretBox } from '@uas/domain';
import type { ClientMetadata } from 'oidc-provider';

/**
 * A registered client as the engine reads it (RFC 7591 metadata): the code flow only, refresh
 * tokens, and the scopes an admin allowed. A confidential client authenticates with its secret
 * (Basic or in the body: the engine accepts either for `client_secret_basic`); a public one with
 * nothing, so the engine requires PKCE of it. The secret is opened from the key ring for the
 * engine's constant-time comparison and never leaves this process.
 */
export async function clientMetadata(client: OAuthClient, secrets: OpenedClientSecrets): Promise<ClientMetadata> {
  const secret = await secrets.of(client);
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

/** The most opened secrets kept; past it they are opened again as asked. */
const KEPT_SECRETS = 1_000;

/**
 * Client secrets as opened from the key ring, kept by their sealed text: the engine reads its
 * client on every request of its endpoints (userinfo too), and opening each time was a tenth of
 * a userinfo's work. A rotated secret is a new sealed text, so nothing kept is ever stale; the
 * process holds the key that opens them anyway.
 */
export class OpenedClientSecrets {
  private readonly opened = new Map<string, string>();

  constructor(private readonly box: SecretBox) {}

  async of(client: OAuthClient): Promise<string | null> {
    if (!client.secret) return null;
    const key = `${client.id}\n${client.secret.keyId}\n${client.secret.ciphertext}`;
    const kept = this.opened.get(key);
    if (kept !== undefined) return kept;
    const secret = await this.box.open(OAUTH_CLIENT_SECRET_PURPOSE, client.secret, client.id);
    if (this.opened.size >= KEPT_SECRETS) this.opened.clear();
    this.opened.set(key, secret);
    return secret;
  }
}
