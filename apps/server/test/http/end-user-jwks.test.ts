import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { headerOf, userScenario } from '../support/user-client';

/** The members each key type publishes: public parts only (no d, p, q, dp, dq, qi). */
const PUBLIC_MEMBERS = {
  ES256: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) },
  EdDSA: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String) },
  RS256: { kty: 'RSA', n: expect.any(String), e: 'AQAB' },
} as const;
const ALGORITHMS = Object.keys(PUBLIC_MEMBERS) as (keyof typeof PUBLIC_MEMBERS)[];

describe.each(BACKENDS)('the published signing keys on %s', (backend) => {
  describe.each(ALGORITHMS)('with JWT_ALGORITHM=%s', (algorithm) => {
    const scenario = userScenario(backend, {
      env: { JWT_ALGORITHM: algorithm, JWT_ISSUER: 'https://id.example', JWT_AUDIENCE: 'shop' },
    });

    it('GET /.well-known/jwks.json publishes public members only, with kid, alg, use "sig" and a cache lifetime', async () => {
      const { api } = scenario;
      const response = await api.client.get('/.well-known/jwks.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await response.json()).toEqual({
        keys: [
          { ...PUBLIC_MEMBERS[algorithm], kid: expect.stringMatching(/^[0-9a-f-]{36}$/), alg: algorithm, use: 'sig' },
        ],
      });
    });

    it('user tokens are signed with it and verify with the JWKS alone', async () => {
      const { t, api } = scenario;
      const user = await api.createUser({ metadata: { theme: 'dark' }, app: { plan: 'pro' } });
      const { accessToken } = await api.loginAs(user);
      const jwks = (await (await api.client.get('/.well-known/jwks.json')).json()) as JSONWebKeySet;

      expect(headerOf(accessToken)).toEqual({ alg: algorithm, kid: jwks.keys[0]!.kid, typ: 'JWT' });
      const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks), {
        issuer: 'https://id.example',
        audience: 'shop',
        algorithms: [algorithm],
        currentDate: t.clock.now(),
      });
      expect(payload).toMatchObject({ sub: user.id, metadata: { theme: 'dark' }, app: { plan: 'pro' } });
    });
  });
});
