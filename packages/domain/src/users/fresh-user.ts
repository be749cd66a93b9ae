import type { User } from './user.ts';
import { NO_BAN } from './user-ban.ts';

/** What a new account is made with; metadata and app are empty and the account active unless given. */
type FreshUserFields = Pick<User, 'id' | 'name' | 'email' | 'passwordHash' | 'emailVerified'> &
  Partial<Pick<User, 'metadata' | 'app' | 'active'>>;

/** A user account as made at `now`: at version 1, never logged in, not banned. */
export function freshUser(fields: FreshUserFields, now: Date): User {
  return {
    ...fields,
    metadata: fields.metadata ?? {},
    app: fields.app ?? {},
    active: fields.active ?? 1,
    created: now,
    updated: now,
    version: 1,
    lastLogin: null,
    ...NO_BAN,
  };
}
