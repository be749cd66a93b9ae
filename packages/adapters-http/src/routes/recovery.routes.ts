import type { MailRequestLimit, MailRequestService, RecoveryService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { limitPerAddress } from '../middleware/per-address-limit';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { MAIL_REQUEST_ACCEPTED, messageDocumentSchema } from '../presenters/account-mail.presenter';
import {
  emailRequestSchema,
  parseEmailRequest,
  parseResetPassword,
  resetPasswordSchema,
} from '../schemas/recovery.schemas';
import { jsonBody } from '../schemas/validation';

const TAGS = ['Account recovery'];
const accepted = {
  description:
    'Recorded. The same answer whether or not an account uses the address: whatever the service sends goes out off the request path.',
  schema: messageDocumentSchema,
  example: MAIL_REQUEST_ACCEPTED,
};
const emailBody = (what: string) => ({
  schema: emailRequestSchema,
  description: `The address ${what}.`,
  example: { email: 'ada@example.com' },
});

export interface RecoveryRoutesDeps {
  mailRequests: MailRequestService;
  recovery: RecoveryService;
  mailRequestLimit: MailRequestLimit;
}

/**
 * The public side of recovery and of a lost verification link. Recover and resend answer every
 * address alike (one insert, 202, the same body); reset consumes the mailed token.
 */
export function recoveryRoutes({ mailRequests, recovery, mailRequestLimit }: RecoveryRoutesDeps) {
  const limited = limitPerAddress(mailRequestLimit);
  const emailRequest = jsonBody(parseEmailRequest);
  return new Hono<AppEnv>()
    .post(
      '/v1/recover',
      describeRoute({
        operationId: 'requestRecovery',
        summary: 'Ask for a password recovery link',
        description:
          'If an active account uses the address, a link to `/account/reset-password` is mailed to it (at most one a minute). Known and unknown addresses get the same answer, in the same time.',
        tags: TAGS,
        body: emailBody('of the account'),
        responses: { 202: accepted },
      }),
      limited,
      emailRequest,
      async (c) => {
        await mailRequests.request('recovery', c.req.valid('json'), requestContext(c));
        return c.json(MAIL_REQUEST_ACCEPTED, 202);
      },
    )
    .post(
      '/v1/verify/resend',
      describeRoute({
        operationId: 'resendVerification',
        summary: 'Ask for the verification link again',
        description:
          'If an account with an unverified address uses it, a new link to `/account/verify` is mailed to it (at most one a minute). Known and unknown addresses get the same answer, in the same time.',
        tags: TAGS,
        body: emailBody('to verify'),
        responses: { 202: accepted },
      }),
      limited,
      emailRequest,
      async (c) => {
        await mailRequests.request('verification', c.req.valid('json'), requestContext(c));
        return c.json(MAIL_REQUEST_ACCEPTED, 202);
      },
    )
    .post(
      '/v1/reset-password',
      describeRoute({
        operationId: 'resetPassword',
        summary: 'Set a new password with a recovery link',
        description:
          "The token is the `token` parameter of the mailed link; single use. Sets the password (rules as on create: a bad one → 422, and the token stays usable), ends every session of the user, marks the address verified, voids the user's other links and mails a notice. A wrong, used or expired token → 400 `invalid_token`.",
        tags: TAGS,
        body: {
          schema: resetPasswordSchema,
          description: 'The token of the recovery link, and the new password.',
          example: { token: 'q2Wm5cQ0bX1v9K3sH7dZpA', password: 'a new long password' },
        },
        responses: { 204: { description: 'The password is set.' } },
        errors: ['invalid_action_token'],
      }),
      jsonBody(parseResetPassword),
      async (c) => {
        const { token, password } = c.req.valid('json');
        await recovery.reset(token, password, requestContext(c));
        return c.body(null, 204);
      },
    );
}
