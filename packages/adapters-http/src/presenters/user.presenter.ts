import type { ListedUser, User } from '@uas/domain';
import * as v from 'valibot';

/** ISO 8601 UTC with milliseconds and `Z`. */
export const timestamp = (date: Date): string => date.toISOString();

const isoTimestamp = () => v.pipe(v.string(), v.isoTimestamp());
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
    created: isoTimestamp(),
    updated: isoTimestamp(),
  }),
});
export type UserResource = v.InferOutput<typeof userResourceSchema>;

export const userDocumentSchema = v.object({ data: userResourceSchema });

export function userResource(user: ListedUser): UserResource {
  return {
    type: 'users',
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

export const userDocument = (user: User): v.InferOutput<typeof userDocumentSchema> => ({ data: userResource(user) });

export const userLocation = (user: User) => `/v1/admin/users/${user.id}`;
