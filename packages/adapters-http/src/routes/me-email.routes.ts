import type { AuthService, EmailChangeService, MailRequestLimit } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv, AuthenticatedEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { limitPerAddress } from '../middleware/per-address-limit';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { acceptedDocument, acceptedDocumentSchema } from '../presenters/accepted.presenter';
import { emailChangeBodySchema, parseEmailChangeBody } from '../schemas/me-email.schemas';
import { jsonBody } from '../schemas/validation';

const EMAIL_CHANGE_ACCEPTED = acceptedDocument(
  'A link is on its way to the new address: the email changes once it is confirmed there.',
);

/** A user's change of their own email, confirmed by a link mailed to the new address. */
export function meEmailRoutes({
  emailChange,
  userAuth,
  mailRequestLimit,
}: {
  emailChange: EmailChangeService;
  userAuth: AuthService;
  mailRequestLimit: MailRequestLimit;
}) {
  return new Hono<AppEnv>().post(
    '/v1/users/me/email',
    describeRoute({
      operationId: 'requestEmailChange',
      summary: 'Ask to change your email',
      description:
        'Needs `current_password` (wrong or missing → 422, guesses throttled as for a new password). A link goes to the new address and a notice to the current one; the email changes only when the link is confirmed (`POST /v1/verify`). Whether the new address is taken is told only then (409). Limited per client address with the other requests that send mail (429).',
      tags: ['Own account'],
      body: {
        schema: emailChangeBodySchema,
        example: { email: 'ada.king@example.com', current_password: 'correct horse battery' },
      },
      responses: {
        202: {
          description: 'Accepted: the confirmation link is queued.',
          schema: acceptedDocumentSchema,
          example: EMAIL_CHANGE_ACCEPTED,
        },
      },
      errors: ['not_found'],
    }),
    bearerAuth(userAuth),
    limitPerAddress(mailRequestLimit),
    jsonBody<ReturnType<typeof parseEmailChangeBody>, AuthenticatedEnv>(parseEmailChangeBody),
    async (c) => {
      await emailChange.request(c.get('identity'), c.req.valid('json'), requestContext(c));
      return c.json(EMAIL_CHANGE_ACCEPTED, 202);
    },
  );
}
