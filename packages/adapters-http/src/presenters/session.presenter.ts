import { epochSeconds, type SessionGrant } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { userResourceSchema } from './user.presenter';

/** Unix time in seconds, as the token's `exp` claim writes it. */

/** The session record that login and refresh return (spec 2.2), for admins and users alike. */
export const sessionDocumentSchema = v.object({
  data: v.object({
    type: v.literal('users'),
    id: userResourceSchema.entries.id,
    attributes: v.object({
      name: v.string(),
      email: v.pipe(v.string(), v.email()),
      created: userResourceSchema.entries.attributes.entries.created,
      access_token: v.pipe(v.string(), v.description('A JWT to send as `Authorization: Bearer <token>`.')),
      access_token_expiry: v.pipe(
        v.number(),
        v.integer(),
        v.description("The access token's `exp`: Unix time in seconds. Refresh before it."),
      ),
      refresh_token: v.pipe(
        v.string(),
        v.description('Exchanged once for a new session at the refresh endpoint; rotated on every use.'),
      ),
    }),
  }),
});

export function sessionDocument(grant: SessionGrant): v.InferOutput<typeof sessionDocumentSchema> {
  const { principal } = grant;
  return {
    data: {
      type: 'users',
      id: principal.id,
      attributes: {
        name: principal.name,
        email: principal.email,
        created: timestamp(principal.created),
        access_token: grant.accessToken,
        access_token_expiry: epochSeconds(grant.accessTokenExpires),
        refresh_token: grant.refreshToken,
      },
    },
  };
}
