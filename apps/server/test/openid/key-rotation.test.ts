import * as jose from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { runRotateKeys } from '../support/rotate-keys-command';
import { APP_CALLBACK, createUser, registerClient, relyingParty, useOpenIdService } from './openid-service';
import { authorize, UserAgent } from './user-agent';

interface PublishedKey {
  kid: string;
  alg: string;
  key_ops?: string[];
}

/** Needs the release (`pnpm build`): `uas keys rotate` runs as the operator would run it. */
describe('the engine follows `uas keys rotate` (sqlite)', () => {
  const service = useOpenIdService('sqlite');

  const published = async () =>
    ((await (await fetch(`${service().url}oidc/jwks`)).json()) as { keys: PublishedKey[] }).keys;

  async function idTokenHeader(label: string) {
    const user = await createUser(service(), `${label}@example.com`);
    const { client, secret } = await registerClient(service());
    const config = await relyingParty(service(), client.id, secret);
    const nonce = oidc.randomNonce();
    const { callback: landing } = await authorize(
      new UserAgent(service().issuer),
      oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce }),
      user,
    );
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    return jose.decodeProtectedHeader(tokens.id_token!);
  }

  it('publishes each signing key with an RS256 companion, signs with the new key once it signs, and keeps the old ones verifying', async () => {
    const before = await published();
    expect(before.map(({ alg }) => alg).sort()).toEqual(['ES256', 'RS256']);
    const first = await idTokenHeader('before-rotation');
    expect(first.kid).toBe(before.find(({ alg }) => alg === 'ES256')!.kid);

    const { kid } = await runRotateKeys(service().t.env, ['--now']);
    // The key ring reads the stored keys every minute, the engine compares its keys every 5 s.
    service().t.clock.advance(61);
    const after = await published();
    expect(after.map(({ alg }) => alg).sort()).toEqual(['ES256', 'ES256', 'RS256', 'RS256']);
    const signing = after.filter(({ key_ops }) => key_ops === undefined);
    expect(signing.map(({ alg }) => alg).sort()).toEqual(['ES256', 'RS256']);
    expect(signing.find(({ alg }) => alg === 'ES256')!.kid).toBe(kid);
    expect((await idTokenHeader('after-rotation')).kid).toBe(kid);
    // The service's own JWKS names the same signing keys.
    const own = ((await (await service().t.app.request('/.well-known/jwks.json')).json()) as { keys: PublishedKey[] })
      .keys;
    expect(own.map(({ kid }) => kid).sort()).toEqual(
      after
        .filter(({ alg }) => alg === 'ES256')
        .map(({ kid }) => kid)
        .sort(),
    );
  }, 60_000);
});
