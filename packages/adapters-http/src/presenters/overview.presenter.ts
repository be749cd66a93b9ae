import type { Overview } from '@uas/domain';
import * as v from 'valibot';

const count = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

export const overviewDocumentSchema = v.object({
  data: v.object({
    type: v.literal('stats'),
    id: v.literal('overview'),
    attributes: v.object({
      users: v.object({
        total: count('Every user.'),
        active: count('Users with active 1.'),
        deactivated: count('Users with active 0.'),
      }),
      days: v.pipe(
        v.array(
          v.object({
            day: v.pipe(v.string(), v.isoDate(), v.description('A UTC day.')),
            signups: count('Users created that day.'),
            logins: count("End users' successful logins."),
            failed_logins: count("End users' failed logins (wrong password or unknown email)."),
          }),
        ),
        v.description('The last 30 days, today included, oldest first.'),
      ),
    }),
  }),
});

/** GET /v1/admin/stats: the user totals, and one entry per day of the last 30, oldest first. */
export function overviewDocument({ users, days }: Overview): v.InferOutput<typeof overviewDocumentSchema> {
  return {
    data: {
      type: 'stats',
      id: 'overview',
      attributes: {
        users: { total: users.total, active: users.active, deactivated: users.deactivated },
        days: days.map((entry) => ({
          day: entry.day,
          signups: entry.signups,
          logins: entry.logins,
          failed_logins: entry.failedLogins,
        })),
      },
    },
  };
}
