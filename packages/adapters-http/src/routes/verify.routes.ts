import type { VerificationService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { parseVerifyBody, verifyBodySchema } from '../schemas/verify.schemas';
import { jsonBody } from '../schemas/validation';

/** What a mailed verification or email-change link proves, posted by its `/account/` page. */
export function verifyRoutes({ verification }: { verification: VerificationService }) {
  return new Hono<AppEnv>().post(
    '/v1/verify',
    describeRoute({
      operationId: 'verifyEmail',
      summary: 'Verify an address with the token of a mailed link',
      description:
        'A sign-up’s verification token marks the address verified. An email change’s token makes its new address the account’s, verified; the sessions and the other mailed links of the account end. A wrong, used or expired token → 400 `invalid_token`, one answer for all. A new address taken meanwhile by another account → 409 `email_taken`, nothing changed.',
      tags: ['Account flows'],
      body: { schema: verifyBodySchema, example: { token: 'Jm3q9Xk2b7Yc0Zr5Lw8Tn1Vh4Sd6Pf2G' } },
      responses: { 204: { description: 'Verified (or the email changed).' } },
      errors: ['invalid_action_token', 'email_taken'],
    }),
    jsonBody(parseVerifyBody),
    async (c) => {
      await verification.verify(c.req.valid('json'), requestContext(c));
      return c.body(null, 204);
    },
  );
}
