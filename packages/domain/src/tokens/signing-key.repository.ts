import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { SigningKey } from './signing-key.ts';

/** Stores the signing keys, so that every instance signs and verifies with the same ones. */
export interface SigningKeyRepository {
  /**
   * Stores `key` and gives every other key the retirement time `retireOthers` (if it has none
   * yet), in one transaction with the rotation's audit event. A key that would activate after
   * `key` is deleted instead: it has not signed anything, and `key` replaces it.
   */
  rotate(key: SigningKey, retireOthers: Date, audit?: AuditRecord): Promise<void>;
  /** Keys not yet retired at `now`, newest first, those still waiting for their activation included. */
  listUsable(now: Date): Promise<SigningKey[]>;
}
export const SigningKeyRepository = token<SigningKeyRepository>('SigningKeyRepository');
