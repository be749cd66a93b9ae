import type { AdminAccess, OverviewService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { overviewExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import { overviewDocument, overviewDocumentSchema } from '../presenters/overview.presenter';

/** The panel's overview: user totals and the last 30 days' activity, read from counters. */
export function adminStatsRoutes({
  overview,
  adminAccess: access,
}: {
  overview: OverviewService;
  adminAccess: AdminAccess;
}) {
  return new Hono<AppEnv>().get(
    '/v1/admin/stats',
    describeRoute({
      operationId: 'getStats',
      summary: "Users by state, and the last 30 days' sign-ups, logins and failed logins",
      description: 'Read from counters kept by every write: its cost does not grow with the number of users.',
      tags: ['Admin users'],
      responses: { 200: { description: 'The overview.', schema: overviewDocumentSchema, example: overviewExample } },
    }),
    adminAccess(access, 'stats.read'),
    async (c) => c.json(overviewDocument(await overview.overview()), 200),
  );
}
