import type { Session } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';

const isoTimestamp = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));

const loginSessionSchema = v.object({
  type: v.literal('sessions'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    created: isoTimestamp('The login that opened the session.'),
    last_used: isoTimestamp('Its last refresh (its creation until then).'),
    expires: isoTimestamp('When its newest refresh token expires.'),
    client_address: v.pipe(v.nullable(v.string()), v.description("The login's client address.")),
    user_agent: v.pipe(v.nullable(v.string()), v.description("The login's User-Agent, at most 256 characters.")),
    impersonated_by: v.pipe(
      v.nullable(v.pipe(v.string(), v.uuid())),
      v.description('The administrator acting as the account in this session (impersonation); null for a login.'),
    ),
  }),
});

/** An account's live sessions, most recently used first: never a token. */
export const loginSessionListDocumentSchema = v.object({
  data: v.array(loginSessionSchema),
  meta: v.object({ total: v.pipe(v.number(), v.integer()) }),
});

/** One live session of an account: where and when it logged in, when it was last used and ends. */
function loginSessionResource(session: Session): v.InferOutput<typeof loginSessionSchema> {
  return {
    type: 'sessions',
    id: session.id,
    attributes: {
      created: timestamp(session.created),
      last_used: timestamp(session.lastUsed),
      expires: timestamp(session.expires),
      client_address: session.clientAddress,
      user_agent: session.userAgent,
      impersonated_by: session.impersonatorId,
    },
  };
}

export const loginSessionListDocument = (
  sessions: readonly Session[],
): v.InferOutput<typeof loginSessionListDocumentSchema> => ({
  data: sessions.map(loginSessionResource),
  meta: { total: sessions.length },
});
