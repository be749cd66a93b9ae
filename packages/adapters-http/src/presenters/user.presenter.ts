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

function userResource(user: ShownUser<ListedUser>): UserResource {
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

/** A user as admins see it: with the ban in force, if any (an end user never sees these). */
export const adminUserResourceSchema = v.object({
  ...userResourceSchema.entries,
  attributes: v.object({
    ...userResourceSchema.entries.attributes.entries,
    banned: v.pipe(
      v.boolean(),
      v.description('Whether a ban is in force now: the user cannot log in. A ban lifts itself at its end.'),
    ),
    banned_until: v.pipe(
      v.nullable(isoTimestamp()),
      v.description('When the ban in force ends; null for a ban without end, and when there is no ban in force.'),
    ),
    ban_reason: v.pipe(
      v.nullable(v.string()),
      v.description("The admin's reason for the ban in force; null when there is none."),
    ),
  }),
});
export type AdminUserResource = v.InferOutput<typeof adminUserResourceSchema>;

export const adminUserDocumentSchema = v.object({ data: adminUserResourceSchema });

export function adminUserResource(user: ShownUser<ListedUser>): AdminUserResource {
  const resource = userResource(user);
  return {
    ...resource,
    attributes: {
      ...resource.attributes,
      banned: user.banned,
      banned_until: user.banned ? optionalTimestamp(user.bannedUntil) : null,
      ban_reason: user.banned ? user.banReason : null,
    },
  };
}

export const adminUserDocument = (user: ShownUser): v.InferOutput<typeof adminUserDocumentSchema> => ({
  data: adminUserResource(user),
});

export const userLocation = (user: ListedUser) => `/v1/admin/users/${user.id}`;
