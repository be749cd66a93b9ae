import type { InvitationService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { acceptInvitationSchema, parseAcceptInvitation } from '../schemas/invitation.schemas';
import { jsonBody } from '../schemas/validation';

/** What an invitee does with the mailed link: no token but the link's own. */
export function invitationsRoutes({ invitations }: { invitations: InvitationService }) {
  return new Hono<AppEnv>().post(
    '/v1/invitations/accept',
    describeRoute({
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation: set the password with the mailed token',
      description:
        "The password is checked first: a refused one (422) leaves the link usable. Then the token is used once, the address marked verified and the invitation accepted; from then on the user logs in with that password. A wrong, used, expired or revoked invitation's token → 400 `invalid_token`, one answer for all.",
      tags: ['Invitations'],
      body: {
        schema: acceptInvitationSchema,
        example: { token: 'the-token-from-the-link', password: 'correct horse battery' },
      },
      responses: { 204: { description: 'Accepted: the user can log in.' } },
      errors: ['invalid_action_token'],
    }),
    jsonBody(parseAcceptInvitation),
    async (c) => {
      const { token, password } = c.req.valid('json');
      await invitations.accept(token, password, requestContext(c));
      return c.body(null, 204);
    },
  );
}
