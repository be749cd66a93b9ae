import type { PasswordHasher } from '../shared/password-hasher.ts';
import { passwordProblem } from './user.rules.ts';

/**
 * The stored hash of a user who has no password (imported without one): no hasher reads it, and
 * login refuses it before any hasher sees it, so no password opens the account until one is set
 * (an admin's reset, a recovery). Like a locked `!` in /etc/shadow.
 */
export const NO_PASSWORD_HASH = '!';

/** Whether a stored hash is one some password can match. */
export const hasPassword = (hash: string): boolean => hash !== NO_PASSWORD_HASH;

/**
 * Whether `password` is the one behind `hash`. bcrypt compares only the first 72 bytes, so a
 * password the rules refuse (a longer one, say) never matches; the hash is checked all the same,
 * so a refusal takes as long as any other.
 */
export async function passwordMatches(hasher: PasswordHasher, password: string, hash: string): Promise<boolean> {
  const matches = await hasher.verify(password, hash);
  return matches && passwordProblem(password) === null;
}
