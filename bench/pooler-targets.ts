import { type ComparedRun, figuresOf, table } from './report';

/** Issue 31's target: through the pooler, each of these at least this share of its direct figure. */
const NAMES = ['GET /v1/admin/users', 'GET /v1/admin/users?search[email]=@orgNN.', 'PATCH /v1/admin/users/{id}'];
const MIN_SHARE = 0.8;

/**
 * A Markdown list: the targeted requests through the pooler (the last run, as the operator's guide
 * sets it) as shares of direct (the first run), each with whether it was met, and the two
 * ceilings' ratio, which says how much of a share is the machine's own drift within the run.
 */
export function poolerTargetsSection(runs: readonly ComparedRun[]): string {
  const direct = runs[0];
  const pooled = runs.at(-1);
  if (!direct || !pooled || pooled === direct) return '';
  const lines: string[] = [];
  for (const name of NAMES) {
    const [through, base] = [pooled, direct].map((run) => figuresOf(run.rows, name)?.perSecond);
    if (base === undefined) continue;
    const share = through === undefined ? 0 : through / base;
    lines.push(
      `- \`${name}\`: ${through?.toFixed(0) ?? 'errors'} against ${base.toFixed(0)} req/s, ${(100 * share).toFixed(0)} % (target ≥ ${100 * MIN_SHARE} %): ${share >= MIN_SHARE ? 'met' : '**missed**'}`,
    );
  }
  if (lines.length === 0) return '';
  const ceilings = (100 * pooled.ceiling.perSecond) / direct.ceiling.perSecond;
  return `\n\n**Targets** (issue 31), ${pooled.label} against ${direct.label}; their ceilings' ratio ${ceilings.toFixed(0)} %:\n\n${lines.join('\n')}${cpuTable(runs)}`;
}

/**
 * Where each targeted request's cost goes: CPU ms per request of the server, of PostgreSQL and of
 * PgBouncer, counted while each server was measured (its probes' requests included).
 */
function cpuTable(runs: readonly ComparedRun[]): string {
  const cell = (run: ComparedRun, name: string) => {
    const figures = figuresOf(run.rows, name);
    if (!figures?.cpu) return '–';
    const perRequest = [figures.cpu.server, figures.cpu.postgres, figures.cpu.pgbouncer];
    const total = perRequest.reduce((sum, each) => sum + each, 0);
    return `${perRequest.map((each) => each.toFixed(2)).join(' + ')} = ${total.toFixed(2)}`;
  };
  const rows = NAMES.filter((name) => runs.some((run) => figuresOf(run.rows, name)?.cpu)).map((name) => [
    `\`${name}\``,
    ...runs.map((run) => cell(run, name)),
  ]);
  if (rows.length === 0) return '';
  return `\n\nCPU per request while each server was measured, in ms: the server's + PostgreSQL's + PgBouncer's (all of this machine's processes of each):\n\n${table(['Request', ...runs.map(({ label }) => label)], rows)}`;
}
