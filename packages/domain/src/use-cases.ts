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
  return {
    users,
    self: new SelfService({ users, hasher, attempts, ids, clock, throttle: policy.throttle }),
    admins: new AdminService({ admins: repositories.admins, hasher, clock, ids }),
    adminAuth: authFor(admins),
    userAuth: authFor(people),
    transfer: new UserTransferService({ imports: repositories.imports, audit, hasher, clock, ids }),
    overview: new OverviewService({ activity: repositories.activity, clock }),
    housekeeping: new Housekeeping({ sessions, attempts, audit, clock, throttle: policy.throttle, auditRetentionDays }),
    audit: new AuditService({ audit }),
    actionTokens: new ActionTokenService({
      tokens: repositories.tokens,
      keys: tokenKeys,
      clock,
      ids,
      lifetimes: tokenLifetimes,
    }),
  };
}
