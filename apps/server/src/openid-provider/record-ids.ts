import type { SecretBox } from '@uas/domain';

/**
 * The engine's models whose id is a bearer secret (a code, a token, a session cookie's value).
 * Their records are stored under the id's HMAC under the key ring's `token-hmac` secrets, so the
 * database, its backups and its logs hold nothing that opens an account.
 */
const BEARER_MODELS: ReadonlySet<string> = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'Session']);

/** How a model's ids are stored: as given, or as keyed digests. */
export class RecordIds {
  constructor(private readonly box: SecretBox) {}

  /** The id to store a new record under: the digest under the current secret. */
  async stored(model: string, id: string): Promise<string> {
    return BEARER_MODELS.has(model) ? this.box.mac('token-hmac', id) : id;
  }

  /** The ids it may be stored under: the digest under every secret held, the current one first. */
  async candidates(model: string, id: string): Promise<string[]> {
    return BEARER_MODELS.has(model) ? this.box.macs('token-hmac', id) : [id];
  }
}
