import type { MailRequestLimit, SignupService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { limitPerAddress } from '../middleware/per-address-limit';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { acceptedDocument, acceptedDocumentSchema } from '../presenters/accepted.presenter';
import { parseSignup, signupDocument } from '../schemas/signup.schemas';
import { jsonBody } from '../schemas/validation';

/** The one answer to every sign-up that passes validation, whether or not the address has an account. */
const SIGNUP_ACCEPTED = acceptedDocument(
  'If the address can be used, a message is on its way to it: follow its link to confirm the address.',
);

/** Sign-up by the public (SIGNUP=open). */
export function signupRoutes({
  signup,
  mailRequestLimit,
}: {
  signup: SignupService;
  mailRequestLimit: MailRequestLimit;
}) {
  return new Hono<AppEnv>().post(
    '/v1/signup',
    describeRoute({
      operationId: 'signUp',
      summary: 'Sign up: create an account whose address a mailed link verifies',
      description:
        'The body is an admin create without `app`, `active` or `email_verified` (403). A new address gets an account (`email_verified` null) and a verification message; an address that already has an account gets a notice to its owner and no second account. Both answer 202 with the same body, so the answer never tells whether an address is registered. With `SIGNUP=invite-only` or `closed` → 403 `signup_disabled`. Requests that send mail are limited per client address (`MAIL_REQUESTS_PER_MINUTE`) → 429 with `Retry-After`, whatever the address.',
      tags: ['Account flows'],
      body: {
        schema: signupDocument,
        example: {
          data: { type: 'users', attributes: { email: 'ada@example.com', password: 'correct horse battery' } },
        },
      },
      responses: {
        202: {
          description: 'Accepted: a message is queued.',
          schema: acceptedDocumentSchema,
          example: SIGNUP_ACCEPTED,
        },
      },
      errors: ['resource_conflict', 'forbidden', 'signup_disabled'],
    }),
    limitPerAddress(mailRequestLimit),
    jsonBody(parseSignup),
    async (c) => {
      await signup.signUp(c.req.valid('json'), requestContext(c));
      return c.json(SIGNUP_ACCEPTED, 202);
    },
  );
}
