import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '../../src/application';
import { AdminClient } from '../support/admin-client';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { accept, Inviter, secondInstance, sendTo, userLogin, type Send } from './invitation-support';

/** Rounds of each race per database, as the issue asks. */
const ROUNDS = 50;
/** Rounds in flight at once: enough to keep the database busy, few enough for two shared cores. */
const ROUNDS_AT_ONCE = 5;
const PASSWORD = 'invited-password-1';

/** Runs `round` ROUNDS times, ROUNDS_AT_ONCE at once, and answers each round's outcome. */
async function rounds(round: (index: number) => Promise<string>): Promise<string[]> {
  const outcomes: string[] = [];
  for (let start = 0; start < ROUNDS; start += ROUNDS_AT_ONCE) {
    const batch = Array.from({ length: ROUNDS_AT_ONCE }, (_, i) => start + i);
    outcomes.push(...(await Promise.all(batch.map(round))));
  }
  return outcomes;
}

const tally = (outcomes: string[]) =>
  Object.fromEntries([...new Set(outcomes)].map((outcome) => [outcome, outcomes.filter((o) => o === outcome).length]));

/**
 * Two instances of the real application over one database (one SQLite file, one PostgreSQL
 * schema): the two requests of every round go one to each, truly at once.
 */
describe.each(BACKENDS)('invitation races over two instances on %s', (backend) => {
  let t: TestApplication;
  let other: Application;
  let a: Send;
  let b: Send;
  let inviter: Inviter;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await startTestApplication(backend);
    other = await secondInstance(t, logs);
    a = sendTo(t.app);
    b = sendTo(other.app);
    inviter = new Inviter(a, await new AdminClient(t).adminToken());
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it(`one link posted twice at once: exactly one 204, ${ROUNDS} rounds`, { timeout: 180_000 }, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `twice${index}@example.com`;
      const { token } = await inviter.invited(email);
      const statuses = (await Promise.all([accept(a, token, PASSWORD), accept(b, token, PASSWORD)])).map(
        (response) => response.status,
      );
      const login = await userLogin(index % 2 ? a : b, email, PASSWORD);
      return `${statuses.sort().join('+')}, login ${login.status}`;
    });
    console.info(`${backend}: one link twice at once, ${ROUNDS} rounds:`, tally(outcomes));
    expect(tally(outcomes)).toEqual({ '204+400, login 200': ROUNDS });
    for (const line of [...t.logs, ...logs]) expect(line).not.toMatch(/token=[A-Za-z0-9_-]{16}/);
  });

  it(`an acceptance racing a revocation: exactly one wins and the state is its, ${ROUNDS} rounds`, {
    timeout: 180_000,
  }, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `raced${index}@example.com`;
      const { id, userId, token } = await inviter.invited(email);
      // Alternate which instance takes which request, and which is sent first.
      const [acceptOn, revokeOn] = index % 2 ? [a, b] : [b, a];
      const acceptIt = () => accept(acceptOn, token, PASSWORD);
      // The acceptance hashes the password before its write: in half the rounds the revocation
      // leaves a few milliseconds later, so that each side wins some rounds on either database.
      const lag = index % 2 ? index % 6 : 0;
      const revokeIt = async () => {
        if (lag > 0) await new Promise((resolve) => setTimeout(resolve, lag));
        return inviter.on(revokeOn).revoke(id);
      };
      const [accepted, revoked] =
        index % 4 < 2
          ? await Promise.all([acceptIt(), revokeIt()])
          : (await Promise.all([revokeIt(), acceptIt()])).reverse();
      const user = await inviter.user(userId);
      const login = await userLogin(a, email, PASSWORD);
      const pending = await inviter.isPending(id);
      const state = `accept ${accepted!.status}, revoke ${revoked!.status}, user ${user.status}, login ${login.status}`;
      if (state === 'accept 204, revoke 404, user 200, login 200' && !pending) return 'accepted';
      if (state === 'accept 400, revoke 204, user 404, login 401' && !pending) return 'revoked';
      return `inconsistent: ${state}, pending ${pending}`;
    });
    const counted = tally(outcomes);
    console.info(`${backend}: accept racing revoke, ${ROUNDS} rounds:`, counted);
    expect(outcomes.filter((outcome) => outcome.startsWith('inconsistent'))).toEqual([]);
  });
});
