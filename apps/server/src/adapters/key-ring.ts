import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import {
  addSeconds,
  auditRecord,
  SYSTEM,
  type Clock,
  type IdGenerator,
  signingKeyAt,
  type JsonObject,
  type SigningKey,
  type SigningKeyRepository,
} from '@uas/domain';

export const SIGNING_ALGORITHMS = ['ES256', 'EdDSA', 'RS256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export interface LoadedKey {
  record: SigningKey;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

export interface KeyRingOptions {
  keys: SigningKeyRepository;
  clock: Clock;
  ids: IdGenerator;
  algorithm: SigningAlgorithm;
  /**
   * How long a replaced key keeps verifying after the newer key's activation: the longest token
   * lifetime plus clock tolerance.
   */
  retireAfterSeconds: number;
  /** How long a verifier may cache the published JWKS (its `max-age`). */
  jwksMaxAgeSeconds: number;
  /** How far the clocks of the instances (and of the host that rotates) may differ. */
  clockToleranceSeconds: number;
  /** How often the stored keys are read again, so a rotation on another instance is picked up. */
  reloadSeconds?: number;
}

/** A rotation's new key: one that signs once every cached JWKS lists it, or at once. */
export type RotationTiming = 'scheduled' | 'immediate';

/**
 * The signing keys, kept in the database so every instance signs and verifies alike, with an
 * in-process cache that is read again every `reloadSeconds` and when an unknown `kid` appears.
 * Every instance signs with the key `signingKeyAt` picks from the stored keys at the current
 * time, so all of them switch to a new key at its stored activation time.
 */
export class KeyRing {
  private loaded: LoadedKey[] = [];
  private loadedAt = -Infinity;
  /** When an unknown `kid` last made the ring read the keys again. */
  private lookedUpAt = -Infinity;
  private loading: Promise<void> | undefined;

  /**
   * How long before it signs a scheduled key is published: a verifier's cached JWKS expires
   * (`jwksMaxAgeSeconds`), every instance reads the stored keys again (so the JWKS it serves
   * lists the key), and the clocks may differ by the tolerance, all before then.
   */
  readonly activationLeadSeconds: number;

  constructor(private readonly options: KeyRingOptions) {
    this.activationLeadSeconds = options.jwksMaxAgeSeconds + this.reloadSeconds + options.clockToleranceSeconds;
  }

  /**
   * Creates the first signing key unless one exists already, signing at once: no verifier holds
   * a key set yet. Run under the startup lock.
   */
  async ensureSigningKey(): Promise<void> {
    await this.reload();
    if (!this.loaded.some((key) => key.record.retires === null)) await this.rotate('immediate');
  }

  /**
   * Stores a new key, published at once. Scheduled, it signs `activationLeadSeconds` from now,
   * so no verifier's cached JWKS lacks it; immediate (a compromised key), it signs from now on
   * and a verifier caching the JWKS refuses its tokens until it fetches the set again. Every
   * older key keeps verifying until the tokens it signed up to the new key's activation expire;
   * a scheduled key not yet active is replaced.
   */
  async rotate(timing: RotationTiming = 'scheduled'): Promise<SigningKey> {
    const { keys, clock, ids, algorithm, retireAfterSeconds } = this.options;
    const pair = await generateKeyPair(algorithm, { extractable: true });
    const now = clock.now();
    const activates = timing === 'immediate' ? now : addSeconds(now, this.activationLeadSeconds);
    const record: SigningKey = {
      kid: ids.next(),
      algorithm,
      privateJwk: (await exportJWK(pair.privateKey)) as JsonObject,
      publicJwk: (await exportJWK(pair.publicKey)) as JsonObject,
      created: now,
      activates,
      retires: null,
    };
    const audit = auditRecord(ids.next(), now, SYSTEM, 'signing_key.rotated', { type: 'signing-keys', id: record.kid });
    await keys.rotate(record, addSeconds(activates, retireAfterSeconds), audit);
    await this.reload();
    return record;
  }

  async signingKey(): Promise<LoadedKey> {
    await this.refreshIfStale();
    const signing = signingKeyAt(
      this.loaded.map(({ record }) => record),
      this.options.clock.now(),
    );
    const current = this.loaded.find(({ record }) => record === signing);
    if (!current) throw new Error('No signing key is active; the service did not finish starting.');
    return current;
  }

  /** The key named by a token's `kid`, or null when no usable key has that id. */
  async verificationKey(kid: string): Promise<LoadedKey | null> {
    await this.refreshIfStale();
    let found = this.find(kid);
    // A key another instance has just started signing with is not cached yet: look once more.
    // Made-up kids trigger at most one read every 5 s; the periodic reload does not count, or a
    // token of the new key arriving just after one would be refused (and its holder logged out).
    // Only a read that succeeded counts: in an outage the token is answered 503 until a read can
    // tell, not refused in between.
    if (!found && this.elapsedMs(this.lookedUpAt) > 5000) {
      await this.reload();
      this.lookedUpAt = this.options.clock.now().getTime();
      found = this.find(kid);
    }
    return found;
  }

  /** The stored keys still usable (published, verifying), and the one that signs now. */
  /** Every key held, those still waiting for their activation too, whether or not one signs yet (a fresh database's first rotation). */
  async held(): Promise<SigningKey[]> {
    await this.refreshIfStale();
    return this.loaded.map(({ record }) => record);
  }

  async usable(): Promise<{ keys: SigningKey[]; signing: SigningKey }> {
    const signing = (await this.signingKey()).record;
    return { keys: this.loaded.map(({ record }) => record), signing };
  }

  /** The public keys a relying party needs to verify every token still in circulation. */
  async jwks(): Promise<{ keys: JsonObject[] }> {
    await this.refreshIfStale();
    return {
      keys: this.loaded.map(({ record }) => ({
        ...record.publicJwk,
        kid: record.kid,
        alg: record.algorithm,
        use: 'sig',
      })),
    };
  }

  private find(kid: string): LoadedKey | null {
    const now = this.options.clock.now().getTime();
    return (
      this.loaded.find(
        (key) => key.record.kid === kid && (!key.record.retires || key.record.retires.getTime() > now),
      ) ?? null
    );
  }

  private async refreshIfStale(): Promise<void> {
    if (this.elapsedMs(this.loadedAt) <= this.reloadSeconds * 1000) return;
    try {
      await this.reload();
    } catch (error) {
      // The database gone for longer than the reload period: the keys read last still hold (a
      // rotation needs the database too), so tokens keep verifying and the JWKS keeps answering.
      if (this.loaded.length === 0) throw error;
    }
  }

  private get reloadSeconds(): number {
    return this.options.reloadSeconds ?? 60;
  }

  /** Cache ages run on the injected clock, like every other time rule of the service. */
  private elapsedMs(since: number): number {
    return this.options.clock.now().getTime() - since;
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const records = await this.options.keys.listUsable(this.options.clock.now());
        this.loaded = await Promise.all(records.map(load));
        this.loadedAt = this.options.clock.now().getTime();
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}

async function load(record: SigningKey): Promise<LoadedKey> {
  return {
    record,
    privateKey: (await importJWK(record.privateJwk as JWK, record.algorithm)) as CryptoKey,
    publicKey: (await importJWK(record.publicJwk as JWK, record.algorithm)) as CryptoKey,
  };
}
