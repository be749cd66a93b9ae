import { token } from './token.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash it cannot read; never throws for either. */
  verify(password: string, hash: string): Promise<boolean>;
  /**
   * Why a hash made elsewhere cannot be stored as it is (unknown or malformed format, or a cost
   * over the configured ceiling, which would make every login with it costly), or null.
   */
  importProblem(hash: string): string | null;
  /** Whether a hash that has just verified should be replaced by a fresh `hash(password)`. */
  needsRehash(hash: string): boolean;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');
