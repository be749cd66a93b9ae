import type { ListedUser, ShownUser } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';

/** A timestamp that may be missing, as null. */
export const optionalTimestamp = (date: Date | null): string | null => (date === null ? null : timestamp(date));

export const isoTimestamp = () => v.pipe(v.string(), v.isoTimestamp());
const claims = (what: string) =>
  v.pipe(v.record(v.string(), v.unknown()), v.description(`${what}: any JSON object, at most 8 KiB serialised.`));

/** A user as the API shows it: never the password hash. Presenters are typed by it. */
export const userResourceSchema = v.object({
  type: v.literal('users'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    name: v.string(),
    email: v.pipe(v.string(), v.email()),
    metadata: claims('Data the user may read and change'),
    app: claims('Data only admins may change; users read it in their token'),
    active: v.picklist([0, 1]),
    email_verified: v.pipe(
      v.nullable(isoTimestamp()),
      v.description('When the address was verified (a verification link, or an admin), or null: not verified.'),
    ),
    created: isoTimestamp(),
    updated: isoTimestamp(),
    last_login: v.pipe(
      v.nullable(isoTimestamp()),
      v.description('When the user last logged in, or null. Not part of the version: a login leaves the ETag.'),
    ),
    recent_failed_logins: v.pipe(
      v.number(),
      v.integer(),
      v.description("The account's failed logins within the throttling window, from any address."),
    ),
  }),
});
export type UserResource = v.InferOutput<typeof userResourceSchema>;

export const userDocumentSchema = v.object({ data: userResourceSchema });

export function userResource(user: ShownUser<ListedUser>): UserResource {
  return {
    type: 'users',
    id: user.id,
    attributes: {
      name: user.name,
      email: user.email,
      metadata: user.metadata,
      app: user.app,
      active: user.active,
      email_verified: optionalTimestamp(user.emailVerified),
      created: timestamp(user.created),
      updated: timestamp(user.updated),
      last_login: optionalTimestamp(user.lastLogin),
      recent_failed_logins: user.recentFailedLogins,
    },
  };
}

export const userDocument = (user: ShownUser): v.InferOutput<typeof userDocumentSchema> => ({
  data: userResource(user),
});

export const userLocation = (user: ListedUser) => `/v1/admin/users/${user.id}`;
