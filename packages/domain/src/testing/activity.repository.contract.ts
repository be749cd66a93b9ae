import { describe, expect, it } from './test-api.ts';
import type { Repositories } from '../repositories.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleUser } from './user.repository.contract.ts';

const day = (iso: string) => new Date(`${iso}T12:00:00.000Z`);

/** The counters the overview reads, kept by every write that changes what they count. */
export function describeActivityRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`ActivityRepository contract (${backend})`, () => {
    let repositories: Repositories;
    useFreshRepositories(open, (opened) => {
      repositories = opened;
    });

    it('counts users and active users through inserts, changes of active and deletes, on every write path', async () => {
      const { users, activity } = repositories;
      expect(await activity.userTotals()).toEqual({ total: 0, active: 0 });
      const [a, b, c] = [sampleUser(), sampleUser({ active: 0 }), sampleUser()];
      await users.insert(a);
      await users.insertMany([b, c, sampleUser({ active: 0 })]);
      expect(await activity.userTotals()).toEqual({ total: 4, active: 2 });
      await users.update(a.id, (current) => ({ user: { ...current, active: 0 } }));
      await users.update(b.id, (current) => ({ user: { ...current, active: 1 } }));
      await users.update(c.id, (current) => ({ user: { ...current, name: 'Renamed' } }));
      expect(await activity.userTotals()).toEqual({ total: 4, active: 2 });
      await users.delete(c.id, new Date());
      await users.delete(a.id, new Date());
      expect(await activity.userTotals()).toEqual({ total: 2, active: 1 });
    });

    it('counts sign-ups on the day each user was created, and failed logins on the day they failed', async () => {
      const { users, activity } = repositories;
      await users.insert(sampleUser({ created: day('2026-03-01') }));
      await users.insertMany([sampleUser({ created: day('2026-03-01') }), sampleUser({ created: day('2026-03-03') })]);
      await activity.countFailedLogin(day('2026-03-03'));
      await activity.countFailedLogin(new Date('2026-03-03T23:59:59.999Z'));
      await activity.countFailedLogin(new Date('2026-03-04T00:00:00.000Z'));
      expect(await activity.days('2026-03-01', '2026-03-03')).toEqual([
        { day: '2026-03-01', signups: 2, logins: 0, failedLogins: 0 },
        { day: '2026-03-03', signups: 1, logins: 0, failedLogins: 2 },
      ]);
      expect(await activity.days('2026-03-04', '2026-03-31')).toEqual([
        { day: '2026-03-04', signups: 0, logins: 0, failedLogins: 1 },
      ]);
    });

    it('loses no user count or sign-up under rounds of concurrent creates, imports, deletes and changes of active', async () => {
      const { users, imports, activity } = repositories;
      const created = day('2026-05-01');
      const alive = new Map<string, 0 | 1>();
      let signups = 0;
      for (let round = 0; round < 5; round++) {
        const fresh = Array.from({ length: 18 }, (_, n) => sampleUser({ created, active: n % 3 === 0 ? 0 : 1 }));
        const [one, many, imported] = [fresh.slice(0, 6), fresh.slice(6, 12), fresh.slice(12)];
        const doomed = [...alive.keys()].slice(0, 6);
        const flipped = [...alive.keys()].slice(6, 9);
        await Promise.all([
          ...one.map((user) => users.insert(user)),
          users.insertMany(many),
          imports.importBatch(
            imported.map((user, line) => ({
              line,
              user,
              given: { id: true, created: true, updated: true, password: true },
            })),
            () => ({ outcomes: [], inserts: imported, updates: [], endSessions: [], failure: null }),
            { write: true, now: created },
          ),
          ...doomed.map((id) => users.delete(id, created)),
          ...flipped.map((id) =>
            users.update(id, (current) => ({ user: { ...current, active: current.active ? 0 : 1 } })),
          ),
        ]);
        for (const id of doomed) alive.delete(id);
        for (const id of flipped) alive.set(id, alive.get(id) ? 0 : 1);
        for (const user of fresh) alive.set(user.id, user.active);
        signups += fresh.length;
        const active = [...alive.values()].filter((flag) => flag === 1).length;
        expect(await activity.userTotals()).toEqual({ total: alive.size, active });
      }
      expect(await activity.days('2026-05-01', '2026-05-01')).toEqual([
        { day: '2026-05-01', signups, logins: 0, failedLogins: 0 },
      ]);
    });

    it('loses no count under concurrent failed logins', async () => {
      const at = day('2026-04-01');
      await Promise.all(Array.from({ length: 40 }, () => repositories.activity.countFailedLogin(at)));
      expect(await repositories.activity.days('2026-04-01', '2026-04-01')).toEqual([
        { day: '2026-04-01', signups: 0, logins: 0, failedLogins: 40 },
      ]);
    });
  });
}
