import { describe, expect, it } from './test-api.ts';
import { EmailTakenError } from '../shared/errors.ts';
import type { Repositories } from '../repositories.ts';
import { planImport, type ImportEntry, type ImportPlan } from '../transfer/import-plan.ts';
import type { User } from '../users/user.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleUser } from './user.repository.contract.ts';
import { firstTokenOf, sampleSession } from './sample-session.ts';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const entry = (user: User, line = 1): ImportEntry => ({
  line,
  user,
  given: { id: true, created: true, updated: true, password: true },
});
const plan = (overrides: Partial<ImportPlan>): ImportPlan => ({
  outcomes: [],
  inserts: [],
  updates: [],
  endSessions: [],
  failure: null,
  ...overrides,
});

/** The behaviour every UserImportRepository promises, run against the fake, SQLite and PostgreSQL. */
export function describeUserImportRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`UserImportRepository contract (${backend})`, () => {
    let repositories: Repositories;
    useFreshRepositories(open, (opened) => (repositories = opened));
    const stored = async () =>
      (await repositories.imports.exportPage(null, 10_000)).sort((a, b) => a.email.localeCompare(b.email));

    it('hands the plan every stored user sharing an email or an id with the batch, and writes its inserts and updates', async () => {
      const [byEmail, byId, unrelated] = [sampleUser(), sampleUser(), sampleUser()];
      for (const user of [byEmail, byId, unrelated]) await repositories.users.insert(user);
      const fresh = sampleUser();
      const unverified = sampleUser({ emailVerified: null });
      const entries = [
        entry({ ...sampleUser(), email: byEmail.email }),
        entry({ ...sampleUser(), id: byId.id }),
        entry(fresh),
        entry(unverified),
      ];
      let seen: readonly User[] = [];
      const renamed = { ...byEmail, name: 'Renamed', metadata: { b: 2, a: { z: [1] } } };
      await repositories.imports.importBatch(
        entries,
        (users) => {
          seen = users;
          return plan({ inserts: [fresh, unverified], updates: [renamed] });
        },
        { write: true, now: NOW },
      );
      expect([...seen].sort((a, b) => a.email.localeCompare(b.email))).toEqual(
        [byEmail, byId].sort((a, b) => a.email.localeCompare(b.email)),
      );
      expect(await repositories.users.findById(fresh.id)).toEqual(fresh);
      expect(await repositories.users.findById(unverified.id)).toEqual(unverified);
      expect(await repositories.users.findById(byEmail.id)).toEqual(renamed);
      expect(await repositories.users.findById(unrelated.id)).toEqual(unrelated);
    });

    it('writes nothing for a dry run or for a plan that failed', async () => {
      const fresh = sampleUser();
      await repositories.imports.importBatch([entry(fresh)], () => plan({ inserts: [fresh] }), {
        write: false,
        now: NOW,
      });
      await repositories.imports.importBatch(
        [entry(fresh)],
        () => plan({ inserts: [fresh], failure: { line: 1, reason: 'conflict' } }),
        { write: true, now: NOW },
      );
      expect(await stored()).toEqual([]);
    });

    it("writes a batch whole or not at all: an email taken behind the plan's back undoes its other inserts", async () => {
      const taken = sampleUser();
      await repositories.users.insert(taken);
      const fresh = sampleUser();
      const clash = { ...sampleUser(), email: taken.email };
      await expect(
        repositories.imports.importBatch([entry(fresh)], () => plan({ inserts: [fresh, clash] }), {
          write: true,
          now: NOW,
        }),
      ).rejects.toBeInstanceOf(EmailTakenError);
      expect(await stored()).toEqual([taken]);
    });

    it('ends the sessions the plan names, at the time given, and only those', async () => {
      const [changed, kept] = [sampleUser(), sampleUser()];
      for (const user of [changed, kept]) await repositories.users.insert(user);
      const opened = new Date('2026-05-01T00:00:00.000Z');
      for (const [i, user] of [changed, kept].entries()) {
        const sessionId = `00000000-0000-4000-9000-00000000000${i}`;
        const session = sampleSession({ id: sessionId, subjectId: user.id, created: opened, expires: NOW });
        await repositories.sessions.create(session, firstTokenOf(session), user);
      }
      const update = { ...changed, passwordHash: '$2b$04$another' };
      await repositories.imports.importBatch(
        [entry(update)],
        () => plan({ updates: [update], endSessions: [changed.id] }),
        { write: true, now: NOW },
      );
      expect((await repositories.sessions.findSession('00000000-0000-4000-9000-000000000000'))?.revoked).toEqual(NOW);
      expect((await repositories.sessions.findSession('00000000-0000-4000-9000-000000000001'))?.revoked).toBeNull();
    });

    it('pages through users in (created, id) order after a cursor, and filters by a literal email substring', async () => {
      const same = new Date('2026-02-01T00:00:00.000Z');
      const users = [
        sampleUser({ email: 'b_%@example.com', created: same, id: '00000000-0000-4000-8000-00000000000b' }),
        sampleUser({ email: 'a@example.com', created: same, id: '00000000-0000-4000-8000-00000000000a' }),
        sampleUser({ email: 'bx@example.com', created: new Date('2026-01-01T00:00:00.000Z') }),
      ];
      for (const user of users) await repositories.users.insert(user);
      const first = await repositories.imports.exportPage(null, 2);
      expect(first.map((user) => user.email)).toEqual(['bx@example.com', 'a@example.com']);
      const rest = await repositories.imports.exportPage({ created: first[1]!.created, id: first[1]!.id }, 2);
      expect(rest).toEqual([users[0]]);
      expect((await repositories.imports.exportPage(null, 10, '_%')).map((user) => user.email)).toEqual([
        'b_%@example.com',
      ]);
    });

    it('serialises concurrent batches over the same emails: each meets what the others wrote, none is lost or doubled', async () => {
      const rounds = 5;
      const racers = 6;
      let lost = 0;
      for (let round = 0; round < rounds; round += 1) {
        const emails = Array.from({ length: 4 }, (_, i) => `race${round}-${i}@example.com`);
        const outcomes = await Promise.allSettled(
          Array.from({ length: racers }, () => {
            const entries = emails.map((email, line) => ({
              line,
              user: { ...sampleUser(), email },
              given: { id: false, created: false, updated: false, password: true },
            }));
            return repositories.imports.importBatch(entries, (users) => planImport(entries, users, 'skip', NOW), {
              write: true,
              now: NOW,
            });
          }),
        );
        const created = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value.inserts : []));
        const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
        const rows = (await repositories.imports.exportPage(null, 10_000)).filter((user) =>
          user.email.startsWith(`race${round}-`),
        );
        if (failed > 0 || created.length !== emails.length || rows.length !== emails.length) lost += 1;
      }
      expect(lost).toBe(0);
    });
  });
}
