import { base64url, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { openDatabase, type Database } from '@uas/adapters-persistence';
import type { SigningKey } from '@uas/domain';
import { loadConfig } from '../../src/config';
import type { TestApplication } from './test-application';
import { claimsOf, headerOf } from './user-client';

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
  const [key] = await storedSigningKeys(t);
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
export function unsigned(token: string): string {
  return `${encodePart({ ...headerOf(token), alg: 'none' })}.${encodePart(claimsOf(token))}.`;
}

/** The same claims, HS256-signed with `secret` (the classic "public key as HMAC secret" attack). */
export async function hmacSigned(token: string, secret: string): Promise<string> {
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
export async function publicKeyAsSecrets(t: TestApplication): Promise<string[]> {
  const [key] = await storedSigningKeys(t);
  if (!key) throw new Error('The service has no signing key.');
  const published = (await (await t.app.request('/.well-known/jwks.json')).json()).keys[0];
  const pem = await exportSPKI((await importJWK(key.publicJwk as JWK, key.algorithm)) as CryptoKey);
  return [JSON.stringify(key.publicJwk), JSON.stringify(published), pem];
}
