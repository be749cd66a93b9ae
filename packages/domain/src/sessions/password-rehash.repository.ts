import { token } from '../shared/token.ts';
import type { SubjectKind } from '../shared/identity.ts';

/** Replaces a password hash by a fresh one after a login proved the password (a rehash). */
export interface PasswordRehashRepository {
  /**
   * Stores `next` as the account's hash only while its stored hash is still `verified`, so a
   * password changed meanwhile is never overwritten; false when it was not replaced.
   */
  replaceHash(kind: SubjectKind, id: string, verified: string, next: string): Promise<boolean>;
}
export const PasswordRehashRepository = token<PasswordRehashRepository>('PasswordRehashRepository');
