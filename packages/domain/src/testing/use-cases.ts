import { AdminService } from '../admins/admin-service';
import { AuthService, type AuthPolicy } from '../sessions/auth-service';
import { Housekeeping } from '../sessions/housekeeping';
import { accountDirectory, adminPrincipals, userPrincipals, type PrincipalSource } from '../sessions/principal';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { PasswordHasher } from '../shared/password-hasher';
import type { TokenSigner } from '../tokens/token-signer';
import type { Repositories } from '../repositories';
import { SelfService } from '../users/self-service';
import { UserService } from '../users/user-service';
import { UserTransferService } from '../transfer/user-transfer-service';

export interface UseCaseDeps {
  repositories: Repositories;
  hasher: PasswordHasher;
  signer: TokenSigner;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
}

/** Every use case wired over the given ports, as tests of the domain and the HTTP adapter need them. */
export function createUseCases({ repositories, hasher, signer, clock, ids, policy }: UseCaseDeps) {
  const { sessions, attempts } = repositories;
  const admins = adminPrincipals(repositories.admins);
  const people = userPrincipals(repositories.users);
  const accounts = accountDirectory(admins, people);
  const authFor = (principals: PrincipalSource) =>
    new AuthService({ principals, accounts, sessions, attempts, rehash: repositories.rehash, hasher, signer, clock, ids, policy });
  const users = new UserService({ users: repositories.users, hasher, clock, ids });
  return {
    users,
    self: new SelfService({ users, hasher, attempts, ids, clock, throttle: policy.throttle }),
    admins: new AdminService({ admins: repositories.admins, sessions, hasher, clock, ids }),
    adminAuth: authFor(admins),
    userAuth: authFor(people),
    transfer: new UserTransferService({ imports: repositories.imports, hasher, clock, ids }),
    housekeeping: new Housekeeping({ sessions, attempts, clock, throttle: policy.throttle }),
  };
}
