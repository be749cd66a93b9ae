import { NO_REQUEST, type RequestContext } from '../audit/audit-event.ts';
import { refuseWhileImpersonated } from '../impersonation/impersonation-rules.ts';
import { initiatorOf } from '../audit/audit-records.ts';
import type { Clock } from '../shared/clock.ts';
import { ForbiddenError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import { AttemptGate } from '../throttling/attempt-gate.ts';
import type { ThrottlePolicy } from '../throttling/throttle.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { Identity } from '../shared/identity.ts';
import type { ShownUser, User, UserPatch } from './user.ts';
import type { UserService } from './user-service.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { passwordMatches } from './password-match.ts';

/** Attributes only an administrator may change; a user may change name, metadata and password. */
const ADMIN_ONLY = ['email', 'email_verified', 'app', 'active'] as const;

export interface SelfPatch {
  name?: string;
  metadata?: UserPatch['metadata'];
  password?: string;
  /** Required with `password`: proof that the holder of the token knows the account. */
  current_password?: string;
}

/** The admin-only attributes present in a self-service request, in a stable order. */
export function adminOnlyAttributes(attributes: object): string[] {
  return ADMIN_ONLY.filter((name) => name in attributes);
}

export interface SelfServiceDeps {
  users: UserService;
  hasher: PasswordHasher;
  attempts: LoginAttemptRepository;
  ids: IdGenerator;
  clock: Clock;
  /** Where the security notice of a password change is admitted and composed. */
  accountMail: AccountMail;
  /**
   * Limits wrong `current_password` guesses, so a stolen access token cannot brute-force the
   * password: they count like failed logins of the account, under its per-account limit.
   */
  throttle: ThrottlePolicy;
}

/** What a user may do to their own account with a user token. */
export class SelfService {
  private readonly gate: AttemptGate;

  constructor(private readonly deps: SelfServiceDeps) {
    this.gate = new AttemptGate(deps);
  }

  me(identity: Identity): Promise<ShownUser> {
    return this.deps.users.get(identity.subjectId);
  }

  /**
   * Changes name, metadata or password. Admin-only attributes are refused whole (nothing
   * changes); a password change needs the current password and ends the user's other sessions.
   */
  async update(
    identity: Identity,
    patch: SelfPatch & Record<string, unknown>,
    ifVersion?: readonly number[],
    request: RequestContext = NO_REQUEST,
  ): Promise<ShownUser> {
    const forbidden = adminOnlyAttributes(patch);
    if (forbidden.length > 0) throw new ForbiddenError(`Only an administrator can change ${forbidden.join(', ')}.`);
    const { current_password, ...changes } = patch;
    if (changes.password !== undefined) refuseWhileImpersonated(identity, 'password');
    const proved =
      changes.password === undefined ? undefined : await this.proveCurrentPassword(identity, current_password);
    // The proof holds only for the password it was checked against: a reset that lands meanwhile
    // (an admin's, after a takeover) must not be undone by a change proved with the old one.
    const check =
      proved === undefined
        ? undefined
        : (current: User) => {
            if (current.passwordHash !== proved.passwordHash) throw wrongCurrentPassword();
          };
    // The owner hears of a new password: a notice no send limit drops (SECURITY_NOTICES may switch it off).
    const notice = proved && (await this.deps.accountMail.admit('password_changed', proved.email));
    const mail = proved && notice ? await notice({ email: proved.email }) : undefined;
    return this.deps.users.update(identity.subjectId, changes, {
      keepSessionId: identity.sessionId,
      ifVersion,
      check,
      by: initiatorOf(identity, request),
      mail,
    });
  }

  /**
   * Checks `current_password` against the stored hash, and answers the user it was checked
   * against: a wrong one is a 422 on `current_password`, and guesses are throttled like logins.
   * Also the proof an email change asks for.
   */
  async proveCurrentPassword(
    identity: Identity,
    currentPassword: unknown,
    pointer = CURRENT_PASSWORD_POINTER,
  ): Promise<User> {
    const { attempts, hasher, throttle } = this.deps;
    const key = `password-check:${identity.subjectId}`;
    await this.gate.enter(
      [[key, throttle.perAccountAndAddress]],
      'Too many wrong current_password guesses; try again later.',
    );
    const user = await this.me(identity);
    if (typeof currentPassword === 'string' && (await passwordMatches(hasher, currentPassword, user.passwordHash))) {
      // Clearing the key takes back this attempt along with the earlier wrong guesses.
      await attempts.clear(key);
      return user;
    }
    throw wrongCurrentPassword(pointer);
  }
}

/** Where `current_password` sits in a JSON:API document's attributes. */
const CURRENT_PASSWORD_POINTER = '/data/attributes/current_password';

function wrongCurrentPassword(pointer = CURRENT_PASSWORD_POINTER): ValidationError {
  return new ValidationError([{ source: { pointer }, detail: 'current_password is missing or wrong' }]);
}
