import { AUDIT_ACTIONS, type AuditEvent, type AuditPage } from '@uas/domain';
import * as v from 'valibot';
import type { AuditListQuery } from '../schemas/audit-query.schemas';
import { pageLinks, pageLinksSchema } from './page-links';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const AUDIT_EVENTS_PATH = '/v1/admin/audit-events';

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));
const sha256 = (description: string) => v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description(description));

/** An audit event as the API shows it. Presenters are typed by it. */
export const auditEventResourceSchema = v.object({
  type: v.literal('audit-events'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    time: isoTimestamp(),
    actor: v.object({
      type: v.picklist(['admin', 'user', 'system']),
      id: text("The account's id; null for the system, and for a failed admin login that named no admin."),
    }),
    action: v.picklist(AUDIT_ACTIONS),
    target: v.nullable(v.object({ type: v.string(), id: v.string() })),
    changes: v.pipe(
      v.nullable(v.record(v.string(), v.object({ before: v.unknown(), after: v.unknown() }))),
      v.description('Each attribute that changed, before and after; a password only as "changed".'),
    ),
    request_id: text('The X-Request-Id of the request that made the change; null for the CLI.'),
    client_address: text('The client address of that request.'),
    user_agent: text('Its User-Agent, at most 512 characters.'),
    hash: sha256("SHA-256 of the event's canonical content and previous_hash."),
    previous_hash: v.nullable(sha256('The hash of the event before it in the chain; null for the first.')),
  }),
});
type AuditEventResource = v.InferOutput<typeof auditEventResourceSchema>;

export const auditEventListDocumentSchema = v.object({
  data: v.array(auditEventResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: v.pipe(v.number(), v.integer(), v.description('How many events match.')) }),
});

function auditEventResource(event: AuditEvent): AuditEventResource {
  return {
    type: 'audit-events',
    id: event.id,
    attributes: {
      time: timestamp(event.time),
      actor: { type: event.actor.type, id: event.actor.id },
      action: event.action,
      target: event.target && { type: event.target.type, id: event.target.id },
      changes: event.changes,
      request_id: event.request.requestId,
      client_address: event.request.clientAddress,
      user_agent: event.request.userAgent,
      hash: event.hash,
      previous_hash: event.previousHash,
    },
  };
}

export function auditEventListDocument(
  result: AuditPage,
  query: AuditListQuery,
): v.InferOutput<typeof auditEventListDocumentSchema> {
  return {
    data: result.events.map(auditEventResource),
    links: pageLinks(AUDIT_EVENTS_PATH, query, result.total, query.filters),
    meta: { total: result.total },
  };
}
