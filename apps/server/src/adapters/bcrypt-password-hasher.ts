import { hash, verify } from '@node-rs/bcrypt';
import type { PasswordHasher } from '@uas/domain';

/** bcrypt on libuv's thread pool, so hashing never blocks the event loop. */
export class BcryptPasswordHasher implements PasswordHasher {
  constructor(private readonly cost: number) {}

  hash(password: string): Promise<string> {
    // The domain refuses passwords over 72 bytes; this makes bcrypt refuse them too, never truncate.
    return hash(password, { cost: this.cost, rejectLongPasswords: true });
  }

  verify(password: string, passwordHash: string): Promise<boolean> {
    return verify(password, passwordHash);
  }
}
