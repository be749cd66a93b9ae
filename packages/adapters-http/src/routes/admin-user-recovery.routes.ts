import type { AdminAccess, AdminAccountMail } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { invalidParameters } from '../errors/http-problem';
import { caller } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import {
  mailQueuedDocument,
  messageDocumentSchema,
  recoveryLinkDocument,
  recoveryLinkDocumentSchema,
} from '../presenters/account-mail.presenter';
import { RECOVERY_DELIVERIES } from '../schemas/recovery.schemas';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];
const DELIVERY_PARAMETER = {
  name: 'delivery',
  description:
    '`mail` (default): the link is mailed to the user → 202. `link`: nothing is mailed, the link is in the answer (support on the phone) → 201.',
  schema: { type: 'string', enum: [...RECOVERY_DELIVERIES] },
};

/** `?delivery=`: absent means mail. */
function deliveryOf(url: string): (typeof RECOVERY_DELIVERIES)[number] {
  const given = new URL(url).searchParams.getAll('delivery');
  if (given.length === 0) return 'mail';
  const [value] = given;
  if (given.length === 1 && (value === 'mail' || value === 'link')) return value;
  throw invalidParameters([{ parameter: 'delivery', detail: 'delivery must be mail or link' }]);
}

/** An admin helps a user in: a recovery link (mailed, or handed over), the verification link again. */
export function adminUserRecoveryRoutes({
  adminAccess: access,
  adminAccountMail,
}: {
  adminAccess: AdminAccess;
  adminAccountMail: AdminAccountMail;
}) {
  const knownUser = requireUuidParam('user');
  return new Hono<AppEnv>()
    .post(
      '/v1/admin/users/:id/recovery',
      describeRoute({
        operationId: 'sendUserRecovery',
        summary: 'Send a user a password recovery link, or receive it to pass on',
        description:
          'Audited either way (`user.recovery_sent`, never with the link). A mailed link goes through the send limits: a second one within a minute is skipped.',
        tags: TAGS,
        query: [DELIVERY_PARAMETER],
        responses: {
          201: {
            description: 'The link (`?delivery=link`): give it to the user; it is shown only this once.',
            schema: recoveryLinkDocumentSchema,
            example: recoveryLinkDocument(
              '0192e3a4-5b6c-7d8e-9f00-112233445566',
              'https://id.example.com/account/reset-password?token=q2Wm5cQ0bX1v9K3sH7dZpA',
            ),
          },
          202: {
            description: 'The link is queued for mailing to the user.',
            schema: messageDocumentSchema,
            example: mailQueuedDocument('A recovery link is queued for the user.'),
          },
        },
      }),
      adminAccess(access, 'users.message'),
      knownUser,
      async (c) => {
        const delivery = deliveryOf(c.req.url);
        const id = c.req.param('id');
        const link = await adminAccountMail.sendRecovery(id, delivery, caller(c));
        if (link === null) return c.json(mailQueuedDocument('A recovery link is queued for the user.'), 202);
        c.header('Cache-Control', 'no-store');
        return c.json(recoveryLinkDocument(id, link), 201);
      },
    )
    .post(
      '/v1/admin/users/:id/verification',
      describeRoute({
        operationId: 'resendUserVerification',
        summary: 'Mail a user the verification link again',
        description:
          'For a user whose address is not verified; a verified one → 409 `email_already_verified` (nothing to do). Audited (`user.verification_resent`). A second message within a minute is skipped by the send limits.',
        tags: TAGS,
        responses: {
          202: {
            description: 'A verification link is queued for the user.',
            schema: messageDocumentSchema,
            example: mailQueuedDocument('A verification link is queued for the user.'),
          },
        },
        errors: ['email_already_verified'],
      }),
      adminAccess(access, 'users.message'),
      knownUser,
      async (c) => {
        await adminAccountMail.resendVerification(c.req.param('id'), caller(c));
        return c.json(mailQueuedDocument('A verification link is queued for the user.'), 202);
      },
    );
}
