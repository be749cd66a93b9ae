import type { JsonObject } from '../shared/json.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { AdminRepository } from '../admins/admin.repository.ts';
import type { Admin } from '../admins/admin.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { User } from '../users/user.ts';
import { banInForce } from '../users/user-ban.ts';
import type { Clock } from '../shared/clock.ts';

/** An account that can log in, seen the same way whether it is an admin or a user. */
export interface Principal {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly created: Date;
  /** Its last change (password, email, activation...): a sign-in begun before it cannot finish. */
  readonly updated: Date;
  readonly passwordHash: string;
  readonly active: boolean;
  /** Whether a ban is in force as the account is read: never for an admin. */
  readonly banned: boolean;
  /** Whether its address is verified: always for an admin. */
  readonly emailVerified: boolean;
  /** Claims its access tokens carry besides the registered ones. */
  readonly claims: JsonObject;
}

export interface PrincipalSource {
  readonly kind: SubjectKind;
  findById(id: string): Promise<Principal | null>;
  findByEmail(email: string): Promise<Principal | null>;
}

/** Whether the account may hold a session: active and not banned (see assertMaySignIn for what a sign-in tells). */
export const mayHoldSession = (principal: Principal): boolean => principal.active && !principal.banned;

function fromAdmin(admin: Admin): Principal {
  return {
    ...admin,
    active: true,
    banned: false,
    emailVerified: true,
    claims: { email: admin.email, name: admin.name },
  };
}

function fromUser(user: User, now: Date): Principal {
  return {
    ...user,
    active: user.active === 1,
    banned: banInForce(user, now),
    emailVerified: user.emailVerified !== null,
    claims: { email: user.email, name: user.name, metadata: user.metadata, app: user.app },
  };
}

const mapped =
  <T>(map: (record: T) => Principal) =>
  (record: T | null) =>
    record ? map(record) : null;

export function adminPrincipals(admins: AdminRepository): PrincipalSource {
  return {
    kind: 'admin',
    findById: (id) => admins.findById(id).then(mapped(fromAdmin)),
    findByEmail: (email) => admins.findByEmail(email).then(mapped(fromAdmin)),
  };
}

/** Users as principals, their bans judged at `clock`'s time of each read. */
export function userPrincipals(users: UserRepository, clock: Clock): PrincipalSource {
  const fromUserNow = (user: User) => fromUser(user, clock.now());
  return {
    kind: 'user',
    findById: (id) => users.findById(id).then(mapped(fromUserNow)),
    findByEmail: (email) => users.findByEmail(email).then(mapped(fromUserNow)),
  };
}

/** Whether any account, admin or user, has an id: what tells "not yours" (403) from "unknown" (404). */
export interface AccountDirectory {
  exists(id: string): Promise<boolean>;
}

export function accountDirectory(...sources: PrincipalSource[]): AccountDirectory {
  return {
    async exists(id) {
      const found = await Promise.all(sources.map((source) => source.findById(id)));
      return found.some((principal) => principal !== null);
    },
  };
}
