import { AdminService } from './admins/admin-service.ts';
import { AuditService } from './audit/audit-service.ts';
import { AuthService, type AuthPolicy } from './sessions/auth-service.ts';
import { Housekeeping } from './sessions/housekeeping.ts';
import { accountDirectory, adminPrincipals, userPrincipals, type PrincipalSource } from './sessions/principal.ts';
import type { Clock } from './shared/clock.ts';
import type { IdGenerator } from './shared/id-generator.ts';
import type { PasswordHasher } from './shared/password-hasher.ts';
import type { TokenSigner } from './tokens/token-signer.ts';
import type { TokenKeys } from './action-tokens/token-keys.ts';
import type { ActionTokenLifetimes } from './action-tokens/action-token.ts';
import { ActionTokenService } from './action-tokens/action-token-service.ts';
import type { Repositories } from './repositories.ts';
import { SelfService } from './users/self-service.ts';
import { EmailChangeService } from './users/email-change-service.ts';
import type { MailComposer } from './mail/mail-service.ts';
import { SignupService, type SignupMode } from './signup/signup-service.ts';
import { VerificationService } from './verification/verification-service.ts';
import { UserService } from './users/user-service.ts';
import { OverviewService } from './stats/overview-service.ts';
import { UserTransferService } from './transfer/user-transfer-service.ts';

export interface UseCaseDeps {
  repositories: Repositories;
  hasher: PasswordHasher;
  signer: TokenSigner;
  /** Makes single-use tokens and the digests they are stored under. */
  tokenKeys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
  /** How long a single-use token of each purpose stays usable. */
  tokenLifetimes: ActionTokenLifetimes;
  /** Renders and seals the messages the account flows write (MailService). */
  mail: MailComposer;
  /** The service's public base address: mailed links open its `/account/` pages (PUBLIC_URL). */
  publicUrl: string;
  /** Who may sign up (SIGNUP). */
  signup: SignupMode;
  /** Days an audit event is kept before housekeeping prunes it; 0 (the default) keeps every event. */
  auditRetentionDays?: number;
}

/**
 * Every use case wired over the given ports: the one wiring of the graph, used by the server's
 * composition root and by the tests of the domain and the HTTP adapter alike.
 */
export type UseCases = ReturnType<typeof createUseCases>;

export function createUseCases({
  repositories,
  hasher,
  signer,
  tokenKeys,
  clock,
  ids,
  policy,
  tokenLifetimes,
  mail,
  publicUrl,
  signup,
  auditRetentionDays = 0,
}: UseCaseDeps) {
  const { sessions, attempts, audit } = repositories;
  const admins = adminPrincipals(repositories.admins);
  const people = userPrincipals(repositories.users);
  const accounts = accountDirectory(admins, people);
  const authFor = (principals: PrincipalSource) =>
    new AuthService({
      principals,
      accounts,
      sessions,
      attempts,
      activity: repositories.activity,
      rehash: repositories.rehash,
      audit,
      hasher,
      signer,
      clock,
      ids,
      policy,
    });
  const users = new UserService({
    users: repositories.users,
    attempts,
    throttle: policy.throttle,
    hasher,
    clock,
    ids,
  });
  const self = new SelfService({ users, hasher, attempts, ids, clock, throttle: policy.throttle, mail });
  const actionTokens = new ActionTokenService({
    tokens: repositories.tokens,
    keys: tokenKeys,
    clock,
    ids,
    lifetimes: tokenLifetimes,
  });
  return {
    users,
    self,
    admins: new AdminService({ admins: repositories.admins, hasher, clock, ids }),
    adminAuth: authFor(admins),
    userAuth: authFor(people),
    transfer: new UserTransferService({ imports: repositories.imports, audit, hasher, clock, ids }),
    overview: new OverviewService({ activity: repositories.activity, clock }),
    housekeeping: new Housekeeping({ sessions, attempts, audit, clock, throttle: policy.throttle, auditRetentionDays }),
    audit: new AuditService({ audit }),
    actionTokens,
    signup: new SignupService({
      users: repositories.users,
      actionTokens,
      mail,
      queue: repositories.mail,
      hasher,
      clock,
      ids,
      publicUrl,
      mode: signup,
    }),
    verification: new VerificationService({ actionTokens, ids }),
    emailChange: new EmailChangeService({ self, actionTokens, mail, clock, ids, publicUrl }),
  };
}
