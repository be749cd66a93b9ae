import { permissionToOpen, requirePermission, type AdminAccess, type MailService } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { mailMessageExample, mailMessagesExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  MAIL_PATH,
  mailMessageDocument,
  mailMessageDocumentSchema,
  mailMessageListDocument,
  mailMessageListDocumentSchema,
} from '../presenters/mail-message.presenter';
import { pageParameters, parsePageQuery, type PageQueryInput } from '../schemas/list-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { queryParameters } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Mail'];

/** The outbox: every message the service has queued, with an admin access token. */
export function adminMailRoutes({ mail, adminAccess: access }: { mail: MailService; adminAccess: AdminAccess }) {
  return new Hono<AdminEnv>()
    .get(
      MAIL_PATH,
      describeRoute({
        operationId: 'listMailMessages',
        summary: 'List mail messages, newest first, a page at a time',
        description:
          'Every message the service has queued, with its status and attempts; without SMTP_URL, nothing is sent and this is where messages wait. Bodies are not listed.',
        tags: TAGS,
        query: pageParameters('Messages'),
        responses: {
          200: {
            description: 'One page of messages, with links to the others.',
            schema: mailMessageListDocumentSchema,
            example: mailMessagesExample,
          },
        },
      }),
      adminAccess(access, 'mail.read'),
      queryParameters<PageQueryInput, ReturnType<typeof parsePageQuery>>((c) =>
        parsePageQuery(decodeQueryString(c.req.url)),
      ),
      async (c) => {
        const query = c.req.valid('query');
        return c.json(mailMessageListDocument(await mail.list(query), query), 200);
      },
    )
    .get(
      `${MAIL_PATH}/:id`,
      describeRoute({
        operationId: 'getMailMessage',
        summary: 'Read a mail message, with its body while it is still to be delivered',
        description:
          "A body holds the message's link, so a message opens only for a role its link grants nothing beyond: an administrator's invitation (kind `admin_invitation`) opens for owners only, 403 `forbidden` for the others.",
        tags: TAGS,
        responses: {
          200: { description: 'The message.', schema: mailMessageDocumentSchema, example: mailMessageExample },
        },
      }),
      adminAccess(access, 'mail.open'),
      requireUuidParam('mail message'),
      async (c) => {
        const view = await mail.read(c.req.param('id'));
        requirePermission(c.get('role'), permissionToOpen(view.message.kind));
        return c.json(mailMessageDocument(view), 200);
      },
    );
}
