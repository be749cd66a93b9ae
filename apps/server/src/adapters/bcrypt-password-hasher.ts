import { hash } from '@node-rs/bcrypt';
import type { PasswordHasher } from '@uas/domain';
import { argon2Format } from './password-hashes/argon2-format';
import { bcryptCost, bcryptFormat } from './password-hashes/bcrypt-format';
import { firebaseScryptFormat } from './password-hashes/firebase-scrypt-format';
import { NO_CEILINGS, type HashCeilings, type HashFormat } from './password-hashes/hash-format';
import { pbkdf2Format } from './password-hashes/pbkdf2-format';
import { scryptFormat } from './password-hashes/scrypt-format';

const FORMATS: readonly HashFormat[] = [bcryptFormat, argon2Format, scryptFormat, firebaseScryptFormat, pbkdf2Format];

const formatOf = (passwordHash: string) => FORMATS.find((format) => format.claims(passwordHash));

/**
 * Hashes with bcrypt on libuv's thread pool, so hashing never blocks the event loop. Verifies
 * bcrypt and the foreign formats an import may bring (argon2, scrypt, Firebase scrypt, PBKDF2),
 * each with a native or node:crypto implementation; a verified hash that is not bcrypt at the
 * configured cost is due for a rehash.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  constructor(
    private readonly cost: number,
    private readonly ceilings: HashCeilings,
  ) {}

  hash(password: string): Promise<string> {
    // The domain refuses passwords over 72 bytes; this makes bcrypt refuse them too, never truncate.
    return hash(password, { cost: this.cost, rejectLongPasswords: true });
  }

  async verify(password: string, passwordHash: string): Promise<boolean> {
    const format = formatOf(passwordHash);
    // Ceilings are not applied here: they guard the import, and this service's own bcrypt
    // hashes may have a cost (BCRYPT_COST up to 15) above the import ceiling.
    if (!format || format.problem(passwordHash, NO_CEILINGS)) return false;
    return format.verify(password, passwordHash);
  }

  importProblem(passwordHash: string): string | null {
    const format = formatOf(passwordHash);
    if (!format) return 'is not a supported hash (bcrypt, argon2id, argon2i, scrypt, Firebase scrypt or PBKDF2-SHA256)';
    return format.problem(passwordHash, this.ceilings);
  }

  needsRehash(passwordHash: string): boolean {
    return !passwordHash.startsWith('$2b$') || bcryptCost(passwordHash) !== this.cost;
  }
}
