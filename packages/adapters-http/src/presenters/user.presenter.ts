import type { ListedUser, User } from '@uas/domain';

/** ISO 8601 UTC with milliseconds and `Z`. */
export const timestamp = (date: Date): string => date.toISOString();

/** A user as the API shows it: never the password hash. */
export function userResource(user: ListedUser) {
  return {
    type: 'users' as const,
    id: user.id,
    attributes: {
      name: user.name,
      email: user.email,
      metadata: user.metadata,
      app: user.app,
      active: user.active,
      created: timestamp(user.created),
      updated: timestamp(user.updated),
    },
  };
}

export const userDocument = (user: User) => ({ data: userResource(user) });

export const userLocation = (user: User) => `/v1/admin/users/${user.id}`;
