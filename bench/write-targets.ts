import type { Row } from './report';

/** Issue 29's targets for an admin's PATCH of a user at 100,000 users, per database. */
const ADMIN_PATCH_MIN_PER_SECOND = { sqlite: 1_500, postgres: 1_000 } as const;
const ADMIN_PATCH = 'PATCH /v1/admin/users/{id}';

/** A Markdown list: the write target of the rows present, its figure beside the ceiling, and whether it was met. */
export function writeTargetsSection(
  rows: Row[],
  ceiling: { perSecond: number },
  database: keyof typeof ADMIN_PATCH_MIN_PER_SECOND,
  users: number,
): string {
  const row = rows.find((each) => each.name === ADMIN_PATCH && !each.probe);
  if (!row || !('figures' in row)) return '';
  const { figures } = row;
  const clean = Object.keys(figures.unexpected).length === 0;
  const target = ADMIN_PATCH_MIN_PER_SECOND[database];
  const met = clean && figures.perSecond >= target;
  const at =
    users === 100_000 ? '' : ` (the target is set at 100,000 users; this run has ${users.toLocaleString('en')})`;
  return `\n\n**Targets** (issue 29):\n\n- \`${ADMIN_PATCH}\`: ${figures.perSecond.toFixed(0)} req/s, ${((100 * figures.perSecond) / ceiling.perSecond).toFixed(1)} % of the ceiling (target ≥ ${target.toLocaleString('en')} req/s)${at}: ${met ? 'met' : '**missed**'}`;
}
