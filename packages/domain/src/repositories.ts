import type { AdminRepository } from './admins/admin.repository';
import type { SessionRepository } from './sessions/session.repository';
import type { PasswordRehashRepository } from './sessions/password-rehash.repository';
import type { LoginAttemptRepository } from './throttling/login-attempt.repository';
import type { SigningKeyRepository } from './tokens/signing-key.repository';
import type { UserRepository } from './users/user.repository';
import type { UserImportRepository } from './transfer/user-import.repository';

/** Every repository port, as one storage backend provides them. */
export interface Repositories {
  users: UserRepository;
  admins: AdminRepository;
  sessions: SessionRepository;
  attempts: LoginAttemptRepository;
  signingKeys: SigningKeyRepository;
  rehash: PasswordRehashRepository;
  imports: UserImportRepository;
}
