import type { TokenKeys } from '@uas/domain';
import { encode } from './base64url.ts';

/** Single-use tokens of 256 random bits, stored under their HMAC-SHA256 with one secret (Web Crypto). */
export class HmacTokenKeys implements TokenKeys {
  private constructor(private readonly key: CryptoKey) {}

  static async create(secret: string): Promise<HmacTokenKeys> {
    const material = new TextEncoder().encode(`single-use tokens\n${secret}`);
    const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new HmacTokenKeys(key);
  }

  generate(): string {
    return encode(crypto.getRandomValues(new Uint8Array(32)));
  }

  async digest(token: string): Promise<string> {
    return encode(new Uint8Array(await crypto.subtle.sign('HMAC', this.key, new TextEncoder().encode(token))));
  }

  /** One secret, never rotated here: one digest. */
  async digests(token: string): Promise<string[]> {
    return [await this.digest(token)];
  }

  /** Nothing is cached, so there is nothing to read again. */
  async reloadedDigests(token: string): Promise<string[]> {
    return this.digests(token);
  }
}
