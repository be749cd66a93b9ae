import { token } from '../shared/token.ts';
import type { SealedText, SecretPurpose } from './secret.ts';

/**
 * Authenticated encryption under the key ring's current secret of a purpose. `context` is bound
 * to the ciphertext (associated data: a message's id), so a ciphertext moved to another row does
 * not open. The server's adapter is AES-256-GCM; the domain only names what it needs.
 */
export interface SecretBox {
  seal(purpose: SecretPurpose, plaintext: string, context: string): Promise<SealedText>;
  /** Throws when the secret is unknown or the ciphertext, or its context, was changed. */
  open(purpose: SecretPurpose, sealed: SealedText, context: string): Promise<string>;
  /** A keyed digest (HMAC-SHA256) of `message` under the current secret of `purpose`: what to store. */
  mac(purpose: SecretPurpose, message: string): Promise<string>;
  /** The same under every secret of `purpose` still held, the current one first: what to look up after a rotation. */
  macs(purpose: SecretPurpose, message: string): Promise<string[]>;
}
export const SecretBox = token<SecretBox>('SecretBox');
