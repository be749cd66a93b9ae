import { token } from '../shared/token.ts';
import type { SigningKey } from './signing-key.ts';

/** Stores the signing keys, so that every instance signs and verifies with the same ones. */
export interface SigningKeyRepository {
  insert(key: SigningKey): Promise<void>;
  /** Keys not yet retired at `now`, newest first: the first one with `retires` null signs. */
  listUsable(now: Date): Promise<SigningKey[]>;
  /** Gives every signing key except `kid` the retirement time `retires` (if it has none yet). */
  retireOthers(kid: string, retires: Date): Promise<void>;
}
export const SigningKeyRepository = token<SigningKeyRepository>('SigningKeyRepository');
