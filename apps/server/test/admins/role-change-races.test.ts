import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { usersDocument } from '@uas/adapters-http/testing';
import type { Database } from '@uas/adapters-persistence';
import { sessionOf } from '../support/admin-api';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { insertAdmin } from '../support/second-admin';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { withApplicationDatabase } from '../support/token-forgery';
import { USER_PASSWORD } from '../support/wire';

/** Requests launched before the change starts, and at least as many started after it committed. */
const BEFORE = 3;
const AFTER = 4;

interface Outcome {
  /** Whether the request left the client after the role change had committed. */
  afterCommit: boolean;
  answer: string;
}

/**
 * The role is read on every request, on any instance: an admin demoted to auditor while their
 * writes are in flight may see those already under way go through, but none that started once the
 * change committed. Two instances of the real application over one database; the change is
 * written by a third connection, as another owner's would be.
 */
describe.each(BACKENDS)('a role changed while that admin’s requests are in flight, on %s, two instances', (backend) => {
  const two = twoInstances(backend);

  /** Writes the admin's new role straight into the store; answers once it has committed. */
  async function demote(database: Database, id: string): Promise<void> {
    const admin = await database.repositories.admins.findById(id);
    if (!admin) throw new Error('the admin is gone');
    await database.repositories.admins.update({ ...admin, role: 'auditor', updated: two.a.clock.now() });
  }

  it(`admin → auditor during a stream of user creations on both instances: nothing started after the commit is allowed, ${ROUNDS} rounds`, async () => {
    const outcomes = await withApplicationDatabase(two.a, (database) =>
      rounds(async (index): Promise<Outcome[]> => {
        const admin = await insertAdmin(two.a, 'admin', { email: `role-race-${backend}-${index}@example.com` });
        const { accessToken } = await sessionOf(await two.clientA.login(admin.email, admin.password));
        const round: Outcome[] = [];
        const inFlight: Promise<void>[] = [];
        let committed = false;
        let change: Promise<void> | undefined;
        let after = 0;
        for (let k = 0; !committed || after < AFTER; k += 1) {
          const afterCommit = committed;
          if (afterCommit) after += 1;
          const client = k % 2 === 0 ? two.clientA : two.clientB;
          const email = `role-race-${backend}-${index}-${k}@example.com`;
          inFlight.push(
            client
              .send('POST', '/v1/admin/users', usersDocument({ email, password: USER_PASSWORD }), accessToken)
              .then(async (response) => {
                const code = response.status === 201 ? 'allowed' : (await response.json()).errors?.[0]?.code;
                round.push({ afterCommit, answer: `${response.status} ${code}` });
              }),
          );
          if (k === BEFORE - 1) change = demote(database, admin.id).then(() => void (committed = true));
          await sleep(1);
        }
        await Promise.all([change, ...inFlight]);
        return round;
      }),
    );
    const after = outcomes.flat().filter((outcome) => outcome.afterCommit);
    const before = outcomes.flat().filter((outcome) => !outcome.afterCommit);
    const violations = after.filter((outcome) => outcome.answer !== '403 forbidden');
    console.info(`role changed while requests in flight (${backend}):`, {
      startedBeforeCommit: tally(before.map((outcome) => outcome.answer)),
      startedAfterCommit: tally(after.map((outcome) => outcome.answer)),
      violations: violations.length,
    });
    expect(after.length).toBeGreaterThanOrEqual(ROUNDS * AFTER);
    expect(before.filter((outcome) => !['201 allowed', '403 forbidden'].includes(outcome.answer))).toEqual([]);
    expect(violations).toEqual([]);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 180_000);
});
