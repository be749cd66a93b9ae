import type { AdminAccess, AuditService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { auditEventsExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  AUDIT_EVENTS_PATH,
  auditEventListDocument,
  auditEventListDocumentSchema,
} from '../presenters/audit-event.presenter';
import { AUDIT_QUERY_PARAMETERS, parseAuditQuery, type AuditQueryInput } from '../schemas/audit-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { queryParameters } from '../schemas/validation';

/** The audit trail, newest first, with an admin access token. */
export function adminAuditRoutes({ audit, adminAccess: access }: { audit: AuditService; adminAccess: AdminAccess }) {
  return new Hono<AppEnv>().get(
    AUDIT_EVENTS_PATH,
    describeRoute({
      operationId: 'listAuditEvents',
      summary: 'List audit events, newest first, a page at a time',
      description:
        'Every change to a user, a session or a signing key, every admin login and failed one, throttling, imports and exports. Each event carries the hash of its content and of the event before it.',
      tags: ['Audit trail'],
      query: AUDIT_QUERY_PARAMETERS,
      responses: {
        200: {
          description: 'One page of events, with links to the others.',
          schema: auditEventListDocumentSchema,
          example: auditEventsExample,
        },
      },
    }),
    adminAccess(access, 'audit.read'),
    queryParameters<AuditQueryInput, ReturnType<typeof parseAuditQuery>>((c) =>
      parseAuditQuery(decodeQueryString(c.req.url)),
    ),
    async (c) => {
      const query = c.req.valid('query');
      const { filters: _sent, ...criteria } = query;
      return c.json(auditEventListDocument(await audit.list(criteria), query), 200);
    },
  );
}
