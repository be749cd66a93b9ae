import { MAIL_KINDS, MAIL_STATUSES, type ListedMail, type MailPage, type MailView } from '@uas/domain';
import * as v from 'valibot';
import type { PageQuery } from '../schemas/list-query.schemas';
import { pageLinks, pageLinksSchema } from './page-links';
import { timestamp } from './timestamp';
import { isoTimestamp, optionalTimestamp } from './user.presenter';

export const MAIL_PATH = '/v1/admin/mail';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

/** What the outbox shows of every message: never its body. */
const listedAttributes = {
  kind: described(v.picklist(MAIL_KINDS), 'What the message is for.'),
  recipient: v.string(),
  subject: v.string(),
  status: described(
    v.picklist(MAIL_STATUSES),
    'queued: waiting for its next attempt; sending: an attempt is in progress; delivered: the mail server accepted it; failed: refused for good, or given up after its last attempt.',
  ),
  attempts: described(v.pipe(v.number(), v.integer()), 'Attempts made so far, one in progress included.'),
  created: isoTimestamp(),
  next_attempt_at: described(
    v.nullable(isoTimestamp()),
    'When it is tried next (queued), or when the attempt in progress is given up as lost (sending); null once delivered or failed.',
  ),
  last_error: described(v.nullable(v.string()), "Why the last attempt failed: the mail server's reply."),
  delivered_at: v.nullable(isoTimestamp()),
};

const mailMessageListResourceSchema = v.object({
  type: v.literal('mail-messages'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object(listedAttributes),
});

export const mailMessageListDocumentSchema = v.object({
  data: v.array(mailMessageListResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: v.pipe(v.number(), v.integer(), v.description('How many messages the outbox holds.')) }),
});

export const mailMessageDocumentSchema = v.object({
  data: v.object({
    ...mailMessageListResourceSchema.entries,
    attributes: v.object({
      ...listedAttributes,
      body: described(
        v.nullable(v.object({ text: v.string(), html: v.string() })),
        'The text and HTML as they are (or were to be) sent, links and their tokens included, while the message is queued, sending or failed with a body; null once delivered, when the body is erased. Show the HTML only sandboxed.',
      ),
    }),
  }),
});

function listedResource(message: ListedMail): v.InferOutput<typeof mailMessageListResourceSchema> {
  return {
    type: 'mail-messages',
    id: message.id,
    attributes: {
      kind: message.kind,
      recipient: message.recipient,
      subject: message.subject,
      status: message.status,
      attempts: message.attempts,
      created: timestamp(message.created),
      next_attempt_at: optionalTimestamp(message.nextAttemptAt),
      last_error: message.lastError,
      delivered_at: optionalTimestamp(message.deliveredAt),
    },
  };
}

export function mailMessageListDocument(
  page: MailPage,
  query: PageQuery,
): v.InferOutput<typeof mailMessageListDocumentSchema> {
  return {
    data: page.messages.map(listedResource),
    links: pageLinks(MAIL_PATH, query, page.total),
    meta: { total: page.total },
  };
}

export function mailMessageDocument({ message, content }: MailView): v.InferOutput<typeof mailMessageDocumentSchema> {
  const listed = listedResource(message);
  return {
    data: {
      ...listed,
      attributes: { ...listed.attributes, body: content && { text: content.text, html: content.html } },
    },
  };
}
