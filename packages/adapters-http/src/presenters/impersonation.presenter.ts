import type { Impersonation } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';

/** A started impersonation: the user's new session and its one access token, shown once. */
export const impersonationDocumentSchema = v.object({
  data: v.object({
    type: v.literal('impersonations'),
    id: v.pipe(v.string(), v.uuid(), v.description("The session's id, as the user's sessions list it.")),
    attributes: v.object({
      access_token: v.pipe(
        v.string(),
        v.description(
          'A user access token with an `act` claim naming you (RFC 8693). It cannot be refreshed, and stops working when the session ends.',
        ),
      ),
      token_type: v.literal('Bearer'),
      expires: v.pipe(
        v.string(),
        v.isoTimestamp(),
        v.description('When the token and its session end: at most 15 minutes.'),
      ),
      user_id: v.pipe(v.string(), v.uuid()),
      reason: v.string(),
    }),
  }),
});

export const impersonationDocument = ({
  session,
  accessToken,
  reason,
}: Impersonation): v.InferOutput<typeof impersonationDocumentSchema> => ({
  data: {
    type: 'impersonations',
    id: session.id,
    attributes: {
      access_token: accessToken,
      token_type: 'Bearer',
      expires: timestamp(session.expires),
      user_id: session.subjectId,
      reason,
    },
  },
});
