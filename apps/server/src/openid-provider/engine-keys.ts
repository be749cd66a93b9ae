import { createHash } from 'node:crypto';
import type { JsonObject, SecretBox } from '@uas/domain';
import type { JWK } from 'oidc-provider';
import type { KeyRing } from '../adapters/key-ring';
import type { RsaCompanionKeys } from './rsa-companion-keys';

/** What the engine's cookie keys are derived from, under the key ring's `token-hmac` secrets. */
const COOKIE_KEY_LABEL = 'openid-provider cookie signing key';

/** The keys one build of the engine holds, and a fingerprint that changes whenever any of them does. */
export interface EngineKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
  fingerprint: string;
}

export interface EngineKeySources {
  keyRing: KeyRing;
  companions: RsaCompanionKeys;
  box: SecretBox;
}

/**
 * The engine's keys as the database has them now: every usable signing key (and its RS256
 * companion) published, only the one signing now (and its companion) allowed to sign, listed
 * first; the others are marked verify-only, so the engine signs exactly as the service's own
 * tokens do. Cookie keys are HMACs of a fixed label under every `token-hmac` secret, the current
 * first: shared by every instance, and rotating with those secrets.
 */
export async function engineKeys({ keyRing, companions, box }: EngineKeySources): Promise<EngineKeys> {
  const { keys, signing } = await keyRing.usable();
  const rsa = await companions.of(keys);
  const ordered = [signing, ...keys.filter((key) => key.kid !== signing.kid)];
  const jwk = (privateJwk: JsonObject, kid: string, alg: string, signs: boolean): JWK => ({
    ...(privateJwk as JWK),
    kid,
    alg,
    use: 'sig',
    ...(signs ? {} : { key_ops: ['verify'] }),
  });
  const jwks = ordered.flatMap((key) => {
    const signs = key === signing;
    const companion = rsa.get(key.kid);
    return [
      jwk(key.privateJwk, key.kid, key.algorithm, signs),
      ...(companion ? [jwk(companion.privateJwk, companion.kid, 'RS256', signs)] : []),
    ];
  });
  const cookieKeys = await box.macs('token-hmac', COOKIE_KEY_LABEL);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([jwks.map(({ kid, key_ops }) => [kid, key_ops ?? null]), cookieKeys]))
    .digest('base64url');
  return { jwks: { keys: jwks }, cookieKeys, fingerprint };
}
