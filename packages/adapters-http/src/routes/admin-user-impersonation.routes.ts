import type { AdminAccess, ImpersonationService } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv, AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { impersonationDocument, impersonationDocumentSchema } from '../presenters/impersonation.presenter';
import { impersonationDocument as impersonationBody } from '../schemas/impersonation.schemas';
import { jsonBody, parseWith } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

/** Support acting as an end user (IMPERSONATION=on). */
export function adminUserImpersonationRoutes({
  adminAccess: access,
  impersonation,
}: {
  adminAccess: AdminAccess;
  impersonation: ImpersonationService;
}) {
  return new Hono<AppEnv>().post(
    '/v1/admin/users/:id/impersonation',
    describeRoute({
      operationId: 'impersonateUser',
      summary: 'Act as a user: a short session of theirs, for support',
      description:
        'Only with IMPERSONATION=on (else 403 `impersonation_disabled`, judged after the token and the role, before the id and the body\'s members). Opens a session of the user, which the user sees among their own (`impersonated_by`), and answers its one access token: at most 15 minutes, no refresh token, an `act` claim `{ "sub": "<your id>" }`. With it, password, email, second-factor and recovery-code changes → 403 `forbidden`; everything else it does is audited under you. Ending the session (by the user, or `DELETE /v1/admin/users/{id}/sessions…`) stops the token at once. An administrator with an active second factor sends a `code` or `credential` along (else 403 `second_factor_required`). Only an end user can be impersonated: any other id → 404; an inactive user → 403 `account_inactive`, a banned one → 403 `account_banned`. Recorded as `user.impersonated`, with the reason.',
      tags: ['Admin users'],
      body: {
        schema: impersonationBody,
        example: { reason: 'Ticket 4711: the user cannot find the export button' },
      },
      responses: {
        201: {
          description: 'The session and its access token, shown this once.',
          schema: impersonationDocumentSchema,
        },
      },
      errors: [
        'impersonation_disabled',
        'account_inactive',
        'account_banned',
        'second_factor_required',
        'invalid_second_factor',
        'too_many_attempts',
      ],
    }),
    adminAccess(access, 'users.impersonate'),
    // Off is an answer about the service, given once the caller may impersonate at all, before
    // the id or the body's members are judged (the body's JSON framing is judged for every request first).
    async (_c, next) => {
      impersonation.ensureEnabled();
      await next();
    },
    requireUuidParam('user'),
    jsonBody<ReturnType<typeof parseImpersonation>, AdminEnv>(parseImpersonation),
    async (c) => {
      const started = await impersonation.start(
        c.get('identity'),
        c.req.param('id'),
        c.req.valid('json'),
        requestContext(c),
      );
      return c.json(impersonationDocument(started), 201);
    },
  );
}

const parseImpersonation = (body: unknown) => parseWith(impersonationBody, body);
