import type { SecretBox } from '@uas/domain';

/**
 * The engine's models whose id is a bearer secret (a code, a token, a session cookie's value).
 * Their records are stored under the id's HMAC under the key ring's `token-hmac` secrets, so the
 * database, its backups and its logs hold nothing that opens an account.
 */
const BEARER_MODELS: ReadonlySet<string> = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'Session']);

/** How a model's ids are stored: as given, or as keyed digests (and then never in the payload). */
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

  /** The payload to store: the engine repeats the id in it (`jti`), which a bearer model's must not keep. */
  storedPayload<Payload extends { jti?: string }>(model: string, payload: Payload): Payload {
    if (!BEARER_MODELS.has(model)) return payload;
    const { jti: _, ...rest } = payload;
    return rest as Payload;
  }

  /**
   * The payload as the engine wrote it, its `jti` back from the id it was found by. A session
   * found by uid stays without one: the engine gives it a fresh id, and only reads it there.
   */
  foundPayload<Payload extends { jti?: string }>(model: string, payload: Payload, id?: string): Payload {
    return BEARER_MODELS.has(model) && id !== undefined ? { ...payload, jti: id } : payload;
  }
}
