import type { OAuthClient } from '../openid/oauth-client.ts';
import type { OpenIdRecordDraft } from '../openid/openid-record.ts';

/** When the OpenID samples are made. */
export const OPENID_T0 = new Date('2027-05-01T10:00:00.000Z');
export const openIdAt = (seconds: number) => new Date(OPENID_T0.getTime() + seconds * 1000);

let made = 0;
const next = () => {
  made += 1;
  return made;
};

/** A confidential web client with a sealed secret, its id unique. */
export function sampleOAuthClient(overrides: Partial<OAuthClient> = {}): OAuthClient {
  const n = next();
  return {
    id: `28000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    name: `Application ${n} — ünïcode`,
    type: 'confidential',
    applicationType: 'web',
    redirectUris: [`https://app${n}.example.com/callback`, `https://app${n}.example.com/cb?x=1&y=2`],
    postLogoutRedirectUris: [`https://app${n}.example.com/bye`],
    scopes: ['openid', 'email', 'profile'],
    firstParty: false,
    idTokenSigningAlgorithm: null,
    secret: { keyId: 'key-1', ciphertext: `sealed-client-secret-${n}` },
    created: OPENID_T0,
    updated: OPENID_T0,
    ...overrides,
  };
}

/** A record of `model` the engine stores, its id unique, an hour to live, about nobody until told. */
export function sampleOpenIdRecord(model: string, overrides: Partial<OpenIdRecordDraft> = {}): OpenIdRecordDraft {
  const n = next();
  const id = `record-${n}-${'x'.repeat(20)}`;
  return {
    model,
    id,
    payload: {
      jti: id,
      kind: model,
      iat: 1_800_000_000 + n,
      nested: { list: [1, 'two', null, true], text: 'żółw 🐢' },
    },
    grantId: null,
    uid: null,
    accountId: null,
    clientId: null,
    expires: openIdAt(3600),
    ...overrides,
  };
}
