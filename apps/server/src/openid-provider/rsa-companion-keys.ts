import { exportJWK, generateKeyPair } from 'jose';
import type { IdGenerator, JsonObject, OpenIdRecordRepository, SigningKey, Clock } from '@uas/domain';

/** The record model of an RS256 key kept beside a signing key of another algorithm, under that key's kid. */
const MODEL = 'RsaCompanionKey';

/** RS256 with a 2048-bit modulus: what relying parties that know only RS256 (the spec's default) verify. */
const MODULUS_BITS = 2048;

/** An RS256 key beside a signing key: its own kid, its private JWK. */
export interface CompanionKey {
  kid: string;
  privateJwk: JsonObject;
}

export interface RsaCompanionKeysDeps {
  records: OpenIdRecordRepository;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * The RS256 keys that sign ID tokens for clients asking for RS256 when the service signs with
 * another algorithm (JWT_ALGORITHM). Each signing key of another algorithm has one companion,
 * stored in the database beside the engine's records so every instance signs alike; it is
 * published, signs and retires with its signing key: a rotation (`uas keys rotate`) makes the
 * new key's companion, and which key signs the service's own tokens never changes for it.
 */
export class RsaCompanionKeys {
  constructor(private readonly deps: RsaCompanionKeysDeps) {}

  /**
   * Gives every usable signing key of another algorithm its companion, expiring when the key
   * retires. Run where keys are made (under the startup lock, after a rotation): one writer at a
   * time, so no two instances make two companions of one key.
   */
  async sync(keys: readonly SigningKey[]): Promise<void> {
    const { records, clock, ids } = this.deps;
    for (const key of keys) {
      if (key.algorithm === 'RS256') continue;
      const stored = await records.find(MODEL, key.kid, clock.now());
      const retires = key.retires?.getTime() ?? null;
      if (stored && (stored.expires?.getTime() ?? null) === retires) continue;
      const payload = stored?.payload ?? (await newCompanion(ids.next()));
      await records.upsert({
        model: MODEL,
        id: key.kid,
        payload,
        grantId: null,
        uid: null,
        accountId: null,
        clientId: null,
        expires: key.retires,
      });
    }
  }

  /** The companions of `keys`, by their signing key's kid (a key made before companions existed has none). */
  async of(keys: readonly SigningKey[]): Promise<Map<string, CompanionKey>> {
    const now = this.deps.clock.now();
    const found = new Map<string, CompanionKey>();
    for (const key of keys) {
      const record = key.algorithm === 'RS256' ? null : await this.deps.records.find(MODEL, key.kid, now);
      if (record) found.set(key.kid, record.payload as unknown as CompanionKey);
    }
    return found;
  }
}

async function newCompanion(kid: string): Promise<JsonObject> {
  const pair = await generateKeyPair('RS256', { modulusLength: MODULUS_BITS, extractable: true });
  return { kid, privateJwk: (await exportJWK(pair.privateKey)) as JsonObject };
}
