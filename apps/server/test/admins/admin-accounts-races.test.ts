import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { ADMIN_PASSWORD, ADMINS, invite, joined, roleDocument, type AdminResource } from './admin-accounts-support';

/**
 * Two instances of the real application over one database (each its own connections and
 * caches), as two processes behind a load balancer: the two requests of every round go one to each.
 */
describe.each(BACKENDS)('administrator races on %s, across two instances', (backend) => {
  const two = twoInstances(backend, { MAIL_HOURLY_LIMIT: '100000' });
  beforeAll(() => {
    // The key file's admin is the earliest: every admin made here comes later, as in life.
    two.a.clock.advance(1);
    two.b.clock.advance(1);
  });

  const accept = (client: AdminClient, token: string) =>
    client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD });

  it(`one invitation accepted on both instances at once: exactly one admin, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `accept-race-${backend}-${index}@example.com`;
      const token = await invite(two.clientA, email, 'support');
      const answers = await Promise.all([accept(two.clientA, token), accept(two.clientB, token)]);
      const listed = (await (await two.clientB.get(ADMINS, await two.clientB.adminToken())).json()) as {
        data: AdminResource[];
      };
      return {
        statuses: answers
          .map((answer) => answer.status)
          .sort()
          .join('+'),
        admins: listed.data.filter((admin) => admin.attributes.email === email).length,
      };
    });
    console.info(`one admin invitation accepted twice at once (${backend}):`, {
      statuses: tally(outcomes.map((outcome) => outcome.statuses)),
      admins: tally(outcomes.map((outcome) => outcome.admins)),
    });
    expect(outcomes.filter((outcome) => outcome.statuses !== '201+400' || outcome.admins !== 1)).toEqual([]);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 180_000);

  it(`two owners demoting each other at once: never zero owners, ${ROUNDS} rounds`, async () => {
    // Two owners besides the key file's admin, who steps down so that they are the only two.
    const x = await joined(two.clientA, `owner-x-${backend}@example.com`, 'owner');
    const y = await joined(two.clientA, `owner-y-${backend}@example.com`, 'owner');
    const session = (email: string) => two.clientA.adminSession({}, { email, password: ADMIN_PASSWORD });
    const [xToken, yToken] = [
      (await session(x.attributes.email)).accessToken,
      (await session(y.attributes.email)).accessToken,
    ];
    const keyFileAdmin = (await two.clientA.adminSession()).id;
    const stepDown = await two.clientA.send(
      'PATCH',
      `${ADMINS}/${keyFileAdmin}`,
      roleDocument(keyFileAdmin, 'admin'),
      xToken,
    );
    expect(stepDown.status).toBe(200);
    const roleOf = async (token: string) =>
      ((await (await two.clientA.get('/v1/admin/me', token)).json()) as { data: AdminResource }).data.attributes.role;

    const outcomes: { statuses: string; owners: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which instance takes which owner's request.
      const [forX, forY] = round % 2 ? [two.clientA, two.clientB] : [two.clientB, two.clientA];
      const answers = await Promise.all([
        forX.send('PATCH', `${ADMINS}/${y.id}`, roleDocument(y.id, 'admin'), xToken),
        forY.send('PATCH', `${ADMINS}/${x.id}`, roleDocument(x.id, 'admin'), yToken),
      ]);
      const roles = [await roleOf(xToken), await roleOf(yToken)];
      const owners = roles.filter((role) => role === 'owner').length;
      outcomes.push({
        statuses: answers
          .map((answer) => answer.status)
          .sort()
          .join('+'),
        owners,
      });
      // The owner left makes the other an owner again for the next round.
      if (owners === 1) {
        const [survivor, other] = roles[0] === 'owner' ? [xToken, y] : [yToken, x];
        const restored = await two.clientA.send(
          'PATCH',
          `${ADMINS}/${other.id}`,
          roleDocument(other.id, 'owner'),
          survivor,
        );
        expect(restored.status).toBe(200);
      }
      if (owners === 0) break;
    }
    console.info(`two owners demoting each other at once (${backend}):`, {
      statuses: tally(outcomes.map((outcome) => outcome.statuses)),
      'rounds ending with zero owners': outcomes.filter((outcome) => outcome.owners === 0).length,
    });
    expect(outcomes).toHaveLength(ROUNDS);
    expect(outcomes.filter((outcome) => outcome.owners !== 1)).toEqual([]);
    // One demotion wins; the other is refused: 409 last_owner, or 403 once its sender is no owner.
    expect(outcomes.filter((outcome) => !['200+409', '200+403'].includes(outcome.statuses))).toEqual([]);
    const restored = await two.clientA.send(
      'PATCH',
      `${ADMINS}/${keyFileAdmin}`,
      roleDocument(keyFileAdmin, 'owner'),
      xToken,
    );
    expect(restored.status).toBe(200);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 180_000);
});
