import { initiatorOf, type AdminAccess, type FactorService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { factorListDocument, factorListDocumentSchema } from '../presenters/factor.presenter';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];

/** A user's second factors as an admin sees them (never a secret), and their reset after a lost device. */
export function adminUserFactorsRoutes({
  factors,
  adminAccess: access,
}: {
  factors: FactorService;
  adminAccess: AdminAccess;
}) {
  const knownUser = requireUuidParam('user');
  return new Hono<AppEnv>()
    .get(
      '/v1/admin/users/:id/factors',
      describeRoute({
        operationId: 'listUserFactors',
        summary: "List a user's second factors: kind, status, created, last used",
        tags: TAGS,
        responses: { 200: { description: "The user's factors, oldest first.", schema: factorListDocumentSchema } },
      }),
      adminAccess(access, 'users.read'),
      knownUser,
      async (c) => c.json(factorListDocument(await factors.listOfUser(c.req.param('id'))), 200),
    )
    .delete(
      '/v1/admin/users/:id/factors',
      describeRoute({
        operationId: 'resetUserFactors',
        summary: 'Remove every second factor and recovery code of a user (a lost device)',
        description:
          "Also ends the user's sessions, is audited (`factors.reset`) and mails the user a notice. The user then signs in with the password alone and may enrol again.",
        tags: TAGS,
        responses: { 204: { description: 'The user has no second factor any more.' } },
      }),
      adminAccess(access, 'users.write'),
      knownUser,
      async (c) => {
        await factors.resetOfUser(c.req.param('id'), initiatorOf(c.get('identity'), requestContext(c)));
        return c.body(null, 204);
      },
    );
}
