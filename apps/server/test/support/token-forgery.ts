import { base64url, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { openDatabase, type Database } from '@uas/adapters-persistence';
import { signingKeyAt, type SigningKey } from '@uas/domain';
import { loadConfig } from '../../src/config';
import type { TestApplication } from './test-application';
import { claimsOf, headerOf, nowSeconds } from './user-client';
import { UNKNOWN_ID } from './wire';

/** Opens the test application's database as a second process would, for the length of `use`. */
export async function withApplicationDatabase<T>(
  t: TestApplication,
  use: (database: Database) => Promise<T>,
): Promise<T> {
  const config = loadConfig(t.env);
  const database = await openDatabase(config.database, { poolSize: 1, schema: config.databaseSchema });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

/** The signing keys the service keeps and may still use, newest first. */
export const storedSigningKeys = (t: TestApplication): Promise<SigningKey[]> =>
  withApplicationDatabase(t, (database) => database.repositories.signingKeys.listUsable(t.clock.now()));

type Header = Parameters<SignJWT['setProtectedHeader']>[0];

/**
 * A copy of `token` with `changes` applied to its claims and header, signed with the service's
 * own current private key: a token only the service could have made, but for what changed.
 */
export async function resignedByService(
  t: TestApplication,
  token: string,
  changes: { claims?: JWTPayload; header?: Record<string, unknown> } = {},
): Promise<string> {
  const key = signingKeyAt(await storedSigningKeys(t), t.clock.now());
  if (!key) throw new Error('The service has no signing key.');
  return new SignJWT({ ...claimsOf(token), ...changes.claims })
    .setProtectedHeader({ ...headerOf(token), ...changes.header } as Header)
    .sign(await importJWK(key.privateJwk as JWK, key.algorithm));
}

/** The same claims and header (kid included), signed by a key pair the service never made. */
export async function resignedWithForeignKey(token: string): Promise<string> {
  const header = headerOf(token);
  const { privateKey } = await generateKeyPair(String(header.alg), { extractable: true });
  return new SignJWT(claimsOf(token)).setProtectedHeader(header as Header).sign(privateKey);
}

const encodePart = (value: object) => base64url.encode(JSON.stringify(value));

/** The same claims with `alg: none` and an empty signature. */
function unsigned(token: string): string {
  return `${encodePart({ ...headerOf(token), alg: 'none' })}.${encodePart(claimsOf(token))}.`;
}

/** The same claims, HS256-signed with `secret` (the classic "public key as HMAC secret" attack). */
async function hmacSigned(token: string, secret: string): Promise<string> {
  const input = `${encodePart({ ...headerOf(token), alg: 'HS256' })}.${encodePart(claimsOf(token))}`;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input)));
  return `${input}.${base64url.encode(signature)}`;
}

/** Every spelling of the service's public key an attacker might use as an HMAC secret. */
async function publicKeyAsSecrets(t: TestApplication): Promise<string[]> {
  const [key] = await storedSigningKeys(t);
  if (!key) throw new Error('The service has no signing key.');
  const published = (await (await t.app.request('/.well-known/jwks.json')).json()).keys[0];
  const pem = await exportSPKI((await importJWK(key.publicJwk as JWK, key.algorithm)) as CryptoKey);
  return [JSON.stringify(key.publicJwk), JSON.stringify(published), pem];
}

/** The genuine token with its claims changed and its signature kept. */
function tampered(genuine: string, changes: JWTPayload): string {
  const [header, , signature] = genuine.split('.');
  return `${header}.${encodePart({ ...claimsOf(genuine), ...changes })}.${signature}`;
}

type Forge = (genuine: string, t: TestApplication) => Promise<string | string[]> | string;

/** Forgeries made from a genuine token: what an attacker can make, and what only a key thief could. */
export const FORGERIES: [name: string, forge: Forge][] = [
  ['alg: none with the claims of a genuine token', (genuine) => unsigned(genuine)],
  [
    'HS256 signed with the public key as the secret (stored JWK, published JWK, PEM)',
    async (genuine, t) => Promise.all((await publicKeyAsSecrets(t)).map((secret) => hmacSigned(genuine, secret))),
  ],
  [
    'a tampered payload (expiry a year later) under the genuine signature',
    (genuine, t) => tampered(genuine, { exp: nowSeconds(t) + 365 * 86_400 }),
  ],
  [
    'a tampered payload (another subject) under the genuine signature',
    (genuine) => tampered(genuine, { sub: UNKNOWN_ID }),
  ],
  ['the genuine token with its signature cut off', (genuine) => `${genuine.split('.').slice(0, 2).join('.')}.`],
  ["the service's kid on a signature by a key the service never made", (genuine) => resignedWithForeignKey(genuine)],
  [
    'an unknown kid, even over a signature by the service key',
    (genuine, t) => resignedByService(t, genuine, { header: { kid: UNKNOWN_ID } }),
  ],
  [
    'no kid, over a signature by the service key',
    (genuine, t) => resignedByService(t, genuine, { header: { kid: undefined } }),
  ],
  [
    'another issuer, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { iss: 'https://elsewhere.example' } }),
  ],
  [
    'another audience, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { aud: 'https://elsewhere.example' } }),
  ],
  [
    'an expiry in the past, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { exp: nowSeconds(t) - 60 } }),
  ],
];
