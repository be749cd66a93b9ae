import * as jose from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { AdminClient } from '../support/admin-client';
import { BACKENDS } from '../support/test-application';
import { registerClient as registerThroughApi } from './op-test-plan-support';
import { APP_CALLBACK, createUser, relyingParty, useOpenIdService } from './openid-service';
import { authorize, UserAgent } from './user-agent';

describe.each(BACKENDS)('a client chooses how its ID tokens are signed (%s)', (backend) => {
  const service = useOpenIdService(backend);

  /** Signs a fresh user in to a client registered through the admin API with `attributes`; answers the ID token's header and the verified claims. */
  async function idTokenOf(label: string, attributes: Record<string, unknown>) {
    const user = await createUser(service(), `${label}-${backend}@example.com`);
    const admin = new AdminClient(service().t);
    const { clientId, clientSecret } = await registerThroughApi(admin, {
      name: label,
      type: 'confidential',
      redirect_uris: [APP_CALLBACK],
      ...attributes,
    });
    const config = await relyingParty(service(), clientId, clientSecret);
    // openid-client then verifies the ID token's signature against the provider's jwks_uri itself.
    oidc.enableNonRepudiationChecks(config);
    const nonce = oidc.randomNonce();
    const start = oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce });
    const { callback: landing } = await authorize(new UserAgent(service().issuer), start, user);
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const jwks = jose.createRemoteJWKSet(new URL(`${service().url}oidc/jwks`));
    const { payload, protectedHeader } = await jose.jwtVerify(tokens.id_token!, jwks, {
      issuer: service().issuer,
      audience: clientId,
    });
    return { user, header: protectedHeader, payload };
  }

  it('id_token_signed_response_alg RS256: an RS256 ID token that verifies against /oidc/jwks', async () => {
    const { user, header, payload } = await idTokenOf('rs256', { id_token_signed_response_alg: 'RS256' });
    expect(header.alg).toBe('RS256');
    expect(payload.sub).toBe(user.id);
  });

  it('one the service holds no key for (EdDSA beside ES256) is refused when the client is registered or changed', async () => {
    const admin = new AdminClient(service().t);
    const body = (attributes: Record<string, unknown>) => ({ data: { type: 'oauth_clients', attributes } });
    const token = await admin.adminToken();
    const refused = await admin.send(
      'POST',
      '/v1/admin/oauth-clients',
      body({
        name: 'eddsa',
        type: 'confidential',
        redirect_uris: [APP_CALLBACK],
        id_token_signed_response_alg: 'EdDSA',
      }),
      token,
    );
    expect(refused.status).toBe(422);
    const { clientId } = await registerThroughApi(admin, { name: 'es', type: 'public', redirect_uris: [APP_CALLBACK] });
    const changed = await admin.send(
      'PATCH',
      `/v1/admin/oauth-clients/${clientId}`,
      body({ id_token_signed_response_alg: 'EdDSA' }),
      token,
    );
    expect(changed.status).toBe(422);
    for (const answer of [refused, changed]) {
      const { errors } = (await answer.json()) as { errors: { source?: { pointer?: string } }[] };
      expect(errors.map((error) => error.source?.pointer)).toEqual(['/data/attributes/id_token_signed_response_alg']);
    }
  });

  it('without it: signed as the service signs (ES256 by default)', async () => {
    const { header } = await idTokenOf('default', {});
    expect(header.alg).toBe('ES256');
  });
});
