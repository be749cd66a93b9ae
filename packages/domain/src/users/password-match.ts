import type { PasswordHasher } from '../shared/password-hasher.ts';
import { passwordProblem } from './user.rules.ts';

/**
 * Whether `password` is the one behind `hash`. bcrypt compares only the first 72 bytes, so a
 * password the rules refuse (a longer one, say) never matches; the hash is checked all the same,
 * so a refusal takes as long as any other.
 */
export async function passwordMatches(hasher: PasswordHasher, password: string, hash: string): Promise<boolean> {
  const matches = await hasher.verify(password, hash);
  return matches && passwordProblem(password) === null;
}
