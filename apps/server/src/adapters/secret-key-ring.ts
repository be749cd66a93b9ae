import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import {
  auditRecord,
  SECRET_PURPOSES,
  SYSTEM,
  type Clock,
  type IdGenerator,
  type SealedText,
  type Secret,
  type SecretBox,
  type SecretPurpose,
  type SecretRepository,
  type TokenKeys,
} from '@uas/domain';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** A single-use token: 256 random bits, twice the least the tokens promise. */
const TOKEN_BYTES = 32;
/** How often the stored secrets are read again, so a rotation on another instance is picked up. */
const RELOAD_MS = 60_000;
/** The purpose whose secrets are stored wrapped under the MFA key, so the database alone opens no TOTP secret. */
const WRAPPED: SecretPurpose = 'factor-secret';

export interface SecretKeyRingOptions {
  secrets: SecretRepository;
  clock: Clock;
  ids: IdGenerator;
  /**
   * How long after its retirement a `token-hmac` secret can still have a live token: the longest
   * token lifetime, plus the clocks' tolerance. Older secrets are no longer hashed under.
   */
  liveTokensAfterRetiringSeconds: number;
  /**
   * The MFA keys (32 bytes each) that wrap the `factor-secret` secrets' material: the first wraps,
   * every one unwraps. Asked for only when a factor secret is needed (it may read a key file).
   */
  wrapKeys: () => Promise<readonly Buffer[]>;
}

/**
 * The secrets of every purpose, kept in the database (created on first start, like the signing
 * keys) so every instance seals and opens alike, and AES-256-GCM over them: a random 96-bit nonce
 * per message, and the purpose and context as associated data, so a ciphertext opens only where
 * it was sealed. Each ciphertext names its secret, so a retired secret still opens what it sealed.
 *
 * The secrets live beside what they seal: this keeps tokens out of the database file, its
 * backups and its logs as plain text, not from someone who can read the secrets table too.
 *
 * The `factor-secret` secrets are the exception: their material is stored wrapped (AES-256-GCM)
 * under the MFA key, which lives outside the database (MFA_ENCRYPTION_KEY or the `mfa.key` file),
 * so a copy of the database alone opens no TOTP secret.
 *
 * It also makes single-use tokens and their HMAC-SHA256 digests under the `token-hmac` secrets:
 * a token is stored under the current secret's digest, and looked up by its digest under every
 * secret of the purpose, so a rotation leaves the tokens already sent usable. `mac`/`macs` do the
 * same for any purpose: recovery codes are stored as HMACs under the (wrapped) `factor-secret`.
 */
export class SecretKeyRing implements SecretBox, TokenKeys {
  private readonly loaded = new Map<SecretPurpose, { secrets: Secret[]; at: number }>();

  constructor(private readonly options: SecretKeyRingOptions) {}

  /**
   * Creates the first secret of every purpose that has none, and wraps again under the first MFA
   * key any factor secret wrapped under an older one. Run under the startup lock.
   */
  async ensureSecrets(): Promise<void> {
    await this.rewrapFactorSecrets();
    for (const purpose of SECRET_PURPOSES) {
      if ((await this.reload(purpose)).length === 0) await this.rotate(purpose);
    }
  }

  /** Wraps every factor secret not wrapped under the first MFA key again under it. */
  private async rewrapFactorSecrets(): Promise<void> {
    const keys = await this.options.wrapKeys();
    const first = await this.firstWrapKey();
    for (const secret of await this.options.secrets.list(WRAPPED)) {
      const stored = parseWrapped(secret);
      if (stored.keyId === wrapKeyId(first)) continue;
      const material = wrap(first, secret.id, unwrap(keys, secret));
      // Another instance that did it first leaves the material changed: nothing more to do.
      await this.options.secrets.replaceMaterial(secret.id, secret.material, material);
    }
  }

  /** Starts sealing `purpose` with a new secret; the older ones keep opening what they sealed. */
  async rotate(purpose: SecretPurpose): Promise<Secret> {
    const { secrets, clock, ids } = this.options;
    const now = clock.now();
    const id = ids.next();
    const material = randomBytes(KEY_BYTES).toString('base64url');
    const secret: Secret = {
      id,
      purpose,
      material: purpose === WRAPPED ? wrap(await this.firstWrapKey(), id, material) : material,
      created: now,
      retired: null,
    };
    await secrets.rotate(
      secret,
      auditRecord(ids.next(), now, SYSTEM, 'secret.rotated', { type: 'secrets', id: secret.id }),
    );
    await this.reload(purpose);
    return secret;
  }

  async seal(purpose: SecretPurpose, plaintext: string, context: string): Promise<SealedText> {
    const current = currentOf(purpose, await this.secretsOf(purpose));
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keyOf(current), nonce).setAAD(associatedData(purpose, context));
    const sealed = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return { keyId: current.id, ciphertext: sealed.toString('base64url') };
  }

  async open(purpose: SecretPurpose, sealed: SealedText, context: string): Promise<string> {
    const find = (secrets: Secret[]) => secrets.find((secret) => secret.id === sealed.keyId);
    // A secret another instance has just started sealing with is not cached yet: look once more.
    const secret = find(await this.secretsOf(purpose)) ?? find(await this.reload(purpose));
    if (!secret) throw new Error(`The ${purpose} secret ${sealed.keyId} is not in the key ring.`);
    const bytes = Buffer.from(sealed.ciphertext, 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('The sealed text is too short.');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), bytes.subarray(0, NONCE_BYTES))
      .setAAD(associatedData(purpose, context))
      .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }

  async mac(purpose: SecretPurpose, message: string): Promise<string> {
    return hmacOf(currentOf(purpose, await this.secretsOf(purpose)), message);
  }

  /** Under every secret of the purpose held (current first, as the store lists them). */
  async macs(purpose: SecretPurpose, message: string): Promise<string[]> {
    return (await this.secretsOf(purpose)).map((secret) => hmacOf(secret, message));
  }

  generate(): string {
    return randomBytes(TOKEN_BYTES).toString('base64url');
  }

  async digest(token: string): Promise<string> {
    return hmacOf(currentOf('token-hmac', await this.secretsOf('token-hmac')), token);
  }

  /** From the cached ring: a lookup that finds nothing asks `reloadedDigests` (see ActionTokenService.use). */
  async digests(token: string): Promise<string[]> {
    return this.digestsUnder(await this.secretsOf('token-hmac'), token);
  }

  async reloadedDigests(token: string): Promise<string[]> {
    return this.digestsUnder(await this.reload('token-hmac'), token);
  }

  /**
   * Under the current secret, then the retired ones that can still have a live token: a token
   * expires at most its lifetime after it was made, and it was made before its secret retired.
   */
  private digestsUnder(secrets: Secret[], token: string): string[] {
    const current = currentOf('token-hmac', secrets);
    const oldest = this.options.clock.now().getTime() - this.options.liveTokensAfterRetiringSeconds * 1000;
    const live = secrets.filter((secret) => secret.retired !== null && secret.retired.getTime() > oldest);
    return [current, ...live].map((secret) => hmacOf(secret, token));
  }

  private async secretsOf(purpose: SecretPurpose): Promise<Secret[]> {
    const cached = this.loaded.get(purpose);
    const fresh = cached && this.options.clock.now().getTime() - cached.at < RELOAD_MS;
    return fresh ? cached.secrets : this.reload(purpose);
  }

  /** The stored secrets of `purpose`, a wrapped one's material unwrapped (kept in memory only). */
  private async reload(purpose: SecretPurpose): Promise<Secret[]> {
    const stored = await this.options.secrets.list(purpose);
    const keys = purpose === WRAPPED && stored.length > 0 ? await this.options.wrapKeys() : [];
    const secrets =
      purpose === WRAPPED ? stored.map((secret) => ({ ...secret, material: unwrap(keys, secret) })) : stored;
    this.loaded.set(purpose, { secrets, at: this.options.clock.now().getTime() });
    return secrets;
  }

  private async firstWrapKey(): Promise<Buffer> {
    const [first] = await this.options.wrapKeys();
    if (!first) throw new Error('No MFA key is configured.');
    return first;
  }
}

/** Names a wrapping key without revealing it: the first 64 bits of its SHA-256. */
const wrapKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** `<wrapping key id>.<nonce, ciphertext and tag, base64url>`, bound to the secret's id. */
function wrap(key: Buffer, secretId: string, material: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(associatedData(WRAPPED, secretId));
  const sealed = Buffer.concat([nonce, cipher.update(material, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${wrapKeyId(key)}.${sealed.toString('base64url')}`;
}

function parseWrapped(secret: Secret): { keyId: string; bytes: Buffer } {
  const [keyId, sealed] = secret.material.split('.');
  if (!keyId || !sealed) throw new Error(`The factor-secret ${secret.id} is not stored wrapped.`);
  return { keyId, bytes: Buffer.from(sealed, 'base64url') };
}

function unwrap(keys: readonly Buffer[], secret: Secret): string {
  const { keyId, bytes } = parseWrapped(secret);
  const key = keys.find((candidate) => wrapKeyId(candidate) === keyId);
  if (!key) {
    throw new Error(
      `The factor-secret ${secret.id} is wrapped under an MFA key (id ${keyId}) that neither MFA_ENCRYPTION_KEY nor the mfa.key file holds.`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES))
    .setAAD(associatedData(WRAPPED, secret.id))
    .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

/**
 * A secret's key, imported once per loaded secret: given raw bytes, every HMAC and cipher imports
 * the key again, which cost several times the HMAC of a token itself (a reload makes new objects).
 */
const importedKeys = new WeakMap<Secret, KeyObject>();
function keyOf(secret: Secret): KeyObject {
  let key = importedKeys.get(secret);
  if (!key) importedKeys.set(secret, (key = createSecretKey(Buffer.from(secret.material, 'base64url'))));
  return key;
}
const associatedData = (purpose: SecretPurpose, context: string) => Buffer.from(`${purpose}\n${context}`, 'utf8');

function currentOf(purpose: SecretPurpose, secrets: Secret[]): Secret {
  const current = secrets.find((secret) => secret.retired === null);
  if (!current) throw new Error(`No ${purpose} secret is stored; the service did not finish starting.`);
  return current;
}

const hmacOf = (secret: Secret, token: string) => createHmac('sha256', keyOf(secret)).update(token).digest('base64url');
