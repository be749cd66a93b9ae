import { figuresOf, type Row } from './report';

/** The issue's targets for the account flows (issue 23), checked against a run's rows. */
const RECOVER_MIN_PER_SECOND = 1_000;
const RECOVER_MAX_P99_MS = 50;
/** Known and unknown addresses' medians may differ by this share of the larger, at most. */
const RECOVER_MAX_MEDIAN_GAP = 0.1;
const SIGNUP_MIN_SHARE_OF_BCRYPT = 0.9;
/**
 * Throughput targets, each with the issue that set it: issue 24's, the second step and the passkey
 * sign-in (neither hashes a password); issue 28's, the OpenID provider's endpoints, set on SQLite.
 */
const MIN_PER_SECOND = [
  ['POST /v1/login/mfa (TOTP)', 1_000, 'issue 24'],
  ['POST /v1/login/passkey', 500, 'issue 24'],
  ['POST /oidc/token (authorization_code)', 500, 'issue 28, set on SQLite'],
  ['POST /oidc/token (refresh_token)', 500, 'issue 28, set on SQLite'],
  ['GET /oidc/userinfo', 2_000, 'issue 28, set on SQLite'],
] as const;

const mark = (met: boolean) => (met ? 'met' : '**missed**');

/**
 * The machine's bcrypt ceiling: how many hashes a second its cores can make at `cost`, from the
 * median of a few hashes made one after another in this process (cores ÷ one hash's time).
 */
export async function bcryptCeiling(
  hash: () => Promise<unknown>,
  cores: number,
): Promise<{ perSecond: number; ms: number }> {
  const times: number[] = [];
  for (let n = 0; n < 7; n++) {
    const started = performance.now();
    await hash();
    times.push(performance.now() - started);
  }
  const ms = times.sort((a, b) => a - b)[3]!;
  return { perSecond: (cores * 1000) / ms, ms };
}

/** A Markdown list: each target of the rows present, its figure, and whether it was met. */
export function targetsSection(rows: Row[], bcrypt: { perSecond: number; ms: number }, cores: number): string {
  const lines: string[] = [];
  const known = figuresOf(rows, 'POST /v1/recover (known)');
  const unknown = figuresOf(rows, 'POST /v1/recover (unknown)');
  for (const [label, figures] of [
    ['known', known],
    ['unknown', unknown],
  ] as const) {
    if (!figures) continue;
    const met = figures.perSecond >= RECOVER_MIN_PER_SECOND && figures.p99 < RECOVER_MAX_P99_MS;
    lines.push(
      `- \`POST /v1/recover\`, ${label} addresses: ${figures.perSecond.toFixed(0)} req/s, p99 ${figures.p99.toFixed(1)} ms (target ≥ ${RECOVER_MIN_PER_SECOND} req/s, p99 < ${RECOVER_MAX_P99_MS} ms): ${mark(met)}`,
    );
  }
  if (known && unknown) {
    const gap = Math.abs(known.p50 - unknown.p50) / Math.max(known.p50, unknown.p50);
    lines.push(
      `- their medians: ${known.p50.toFixed(2)} ms and ${unknown.p50.toFixed(2)} ms, ${(100 * gap).toFixed(1)} % apart (target ≤ ${100 * RECOVER_MAX_MEDIAN_GAP} %): ${mark(gap <= RECOVER_MAX_MEDIAN_GAP)}`,
    );
  }
  const signup = figuresOf(rows, 'POST /v1/signup');
  if (signup) {
    const share = signup.perSecond / bcrypt.perSecond;
    lines.push(
      `- \`POST /v1/signup\`: ${signup.perSecond.toFixed(1)} req/s, ${(100 * share).toFixed(0)} % of the bcrypt ceiling, ${bcrypt.perSecond.toFixed(1)} hashes/s (${cores} cores ÷ ${bcrypt.ms.toFixed(1)} ms a hash, measured before and after the load; target ≥ ${100 * SIGNUP_MIN_SHARE_OF_BCRYPT} %): ${mark(share >= SIGNUP_MIN_SHARE_OF_BCRYPT)}`,
    );
  }
  for (const [name, min, issue] of MIN_PER_SECOND) {
    const figures = figuresOf(rows, name);
    if (!figures) continue;
    lines.push(
      `- \`${name}\` (${issue}): ${figures.perSecond.toFixed(0)} req/s, p99 ${figures.p99.toFixed(1)} ms (target ≥ ${min} req/s): ${mark(figures.perSecond >= min)}`,
    );
  }
  return lines.length === 0 ? '' : `\n\n**Targets** (issues 23, 24 and 28):\n\n${lines.join('\n')}`;
}
