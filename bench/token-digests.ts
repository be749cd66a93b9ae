/**
 * `pnpm bench:token-digests`: what finding a presented single-use token costs the key ring, apart
 * from the HTTP path: `SecretKeyRing.digests()` over a fresh SQLite file whose `token-hmac`
 * purpose has been rotated monthly for a year (13 secrets, 12 retired), as an operator following
 * the rotation advice would have it. Prints calls/s and the number of digests each call makes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@uas/adapters-persistence';
import { SecretKeyRing } from '../apps/server/src/adapters/secret-key-ring';
import { RandomIdGenerator } from '../apps/server/src/adapters/random-id-generator';
import { VARIABLES } from '../apps/server/src/config-variables';

const ROTATIONS = 12;
const DAY_MS = 86_400_000;
const DURATION_MS = 3_000;
/** The longest token lifetime by default (an invitation's week), as the server computes it, plus its clock tolerance. */
const LIVE_AFTER_RETIRING =
  Math.max(
    ...(['VERIFICATION', 'RECOVERY', 'EMAIL_CHANGE', 'INVITATION'] as const).map((purpose) =>
      Number(VARIABLES[`${purpose}_TOKEN_TTL_SECONDS`].default),
    ),
  ) + 5;

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'uas-digests-'));
  const path = join(directory, 'bench.db');
  const database = await openDatabase({ dialect: 'sqlite', url: `sqlite:${path}`, path });
  try {
    await database.migrate();
    let now = Date.UTC(2025, 0, 1);
    const clock = { now: () => new Date(now) };
    const keyRing = new SecretKeyRing({
      secrets: database.repositories.secrets,
      clock,
      ids: new RandomIdGenerator(),
      liveTokensAfterRetiringSeconds: LIVE_AFTER_RETIRING,
      wrapKeys: async () => [randomBytes(32)],
    });
    await keyRing.ensureSecrets();
    for (let n = 0; n < ROTATIONS; n++) {
      now += 30 * DAY_MS;
      await keyRing.rotate('token-hmac');
    }
    now += DAY_MS;
    const token = keyRing.generate();
    const hashed = (await keyRing.digests(token)).length;
    let calls = 0;
    const started = performance.now();
    while (performance.now() - started < DURATION_MS) {
      await keyRing.digests(token);
      calls++;
    }
    const perSecond = calls / ((performance.now() - started) / 1000);
    const reloadedStarted = performance.now();
    let reloaded = 0;
    while (performance.now() - reloadedStarted < DURATION_MS) {
      await keyRing.reloadedDigests(token);
      reloaded++;
    }
    const reloadedPerSecond = reloaded / ((performance.now() - reloadedStarted) / 1000);
    console.log(`SecretKeyRing, ${ROTATIONS} monthly rotations of token-hmac, ${hashed} digests per call:
- digests() (every lookup): ${perSecond.toFixed(0)} calls/s
- reloadedDigests() (only after a lookup found nothing): ${reloadedPerSecond.toFixed(0)} calls/s`);
  } finally {
    await database.close();
    await rm(directory, { recursive: true, force: true });
  }
}

void main();
