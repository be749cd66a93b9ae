import type { Figures } from './load';
import type { Row } from './report';

type Database = 'sqlite' | 'postgres';

/** Issue 29's targets, per database: each scenario's name, the users it is set at, and its floor. */
const TARGETS: readonly {
  name: string;
  users: number;
  minPerSecond: Record<Database, number>;
  maxP99Ms?: Partial<Record<Database, number>>;
}[] = [
  {
    name: 'GET /v1/admin/users?search[email]=@orgNN.&page[number]=…',
    users: 1_000_000,
    minPerSecond: { sqlite: 1_000, postgres: 300 },
    maxP99Ms: { sqlite: 100 },
  },
  { name: 'PATCH /v1/admin/users/{id}', users: 100_000, minPerSecond: { sqlite: 1_500, postgres: 1_000 } },
];

const met = (figures: Figures, floor: number, maxP99: number | undefined) =>
  Object.keys(figures.unexpected).length === 0 &&
  figures.perSecond >= floor &&
  (maxP99 === undefined || figures.p99 < maxP99);

/** A Markdown list: the targets of the rows present, each figure beside the ceiling, and whether it was met. */
export function scaleTargetsSection(
  rows: Row[],
  ceiling: { perSecond: number },
  database: Database,
  users: number,
): string {
  const lines: string[] = [];
  for (const { name, users: setAt, minPerSecond, maxP99Ms } of TARGETS) {
    const row = rows.find((each) => each.name === name && !each.probe);
    if (!row || !('figures' in row)) continue;
    const { figures } = row;
    const floor = minPerSecond[database];
    const maxP99 = maxP99Ms?.[database];
    const target = `≥ ${floor.toLocaleString('en')} req/s${maxP99 === undefined ? '' : `, p99 < ${maxP99} ms`}`;
    const at =
      users === setAt
        ? ''
        : ` (set at ${setAt.toLocaleString('en')} users; this run has ${users.toLocaleString('en')})`;
    lines.push(
      `- \`${name}\`: ${figures.perSecond.toFixed(0)} req/s, p99 ${figures.p99.toFixed(1)} ms, ${((100 * figures.perSecond) / ceiling.perSecond).toFixed(1)} % of the ceiling (target ${target})${at}: ${met(figures, floor, maxP99) ? 'met' : '**missed**'}`,
    );
  }
  return lines.length === 0 ? '' : `\n\n**Targets** (issue 29):\n\n${lines.join('\n')}`;
}
