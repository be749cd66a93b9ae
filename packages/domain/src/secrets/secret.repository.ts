import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { Secret, SecretPurpose } from './secret.ts';

/** Stores the key ring's secrets, so that every instance seals and opens with the same ones. */
export interface SecretRepository {
  /**
   * Stores `secret` as the current one of its purpose and retires the one that was current (at
   * `secret.created`), in one transaction with the rotation's audit event. Rotations racing on any
   * instances leave exactly one current secret per purpose, and keep every secret they stored.
   */
  rotate(secret: Secret, audit?: AuditRecord): Promise<void>;
  /** Every secret of `purpose`: the current one first, then the retired ones, newest first. */
  list(purpose: SecretPurpose): Promise<Secret[]>;
  /**
   * Replaces a secret's stored material (the same key wrapped again under a newer wrapping key),
   * only if it is still `previous`: instances racing to do it change it once. False otherwise.
   */
  replaceMaterial(id: string, previous: string, material: string): Promise<boolean>;
}
export const SecretRepository = token<SecretRepository>('SecretRepository');
