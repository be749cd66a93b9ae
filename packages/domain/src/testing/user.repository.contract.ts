import { beforeEach, describe, expect, it } from './test-api.ts';
import { EmailTakenError, PreconditionFailedError } from '../shared/errors.ts';
import type { JsonObject } from '../shared/json.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import type { User } from '../users/user.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { applyUserPatch } from '../users/user.rules.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { firstTokenOf, sampleSession } from './sample-session.ts';
import { NO_BAN } from '../users/user-ban.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';

let sequence = 0;
const T0 = new Date('2026-01-01T00:00:00.000Z');
export function sampleUser(overrides: Partial<User> = {}): User {
  sequence += 1;
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, sequence));
  return {
    id: `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    name: `User ${sequence}`,
    email: `user${sequence}@example.com`,
    passwordHash: '$2b$04$abcdefghijklmnopqrstuuDmB0GW2xPDL6lExdWxKmbF0rPjmz6Oy',
    metadata: { plan: 'free', nested: { list: [1, 'two', null, true] }, unicode: 'żółw 🐢' },
    app: { roles: ['reader'] },
    active: 1,
    created,
    updated: created,
    version: 1,
    lastLogin: null,
    emailVerified: created,
    ...NO_BAN,
    ...overrides,
  };
}

/** The behaviour every UserRepository promises, run against the fake, SQLite and PostgreSQL. */
export function describeUserRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`UserRepository contract (${backend})`, () => {
    let users: UserRepository;
    let sessions: SessionRepository;
    let audit: AuditTrail;
    /** The same users through another instance (another process's connections and caches). */
    let elsewhere: UserRepository;
    useFreshRepositories(open, (repositories, another) => {
      ({ users, sessions, audit } = repositories);
      elsewhere = another.users;
    });
    const later = (user: User, seconds: number) => new Date(user.updated.getTime() + seconds * 1000);
    const rename = (name: string, at: Date) => (current: User) => ({ user: applyUserPatch(current, { name }, at) });

    /** A session of the stored `user` with its first refresh token; answers the session's id. */
    async function openSession(user: User): Promise<string> {
      const id = crypto.randomUUID();
      const at = user.created;
      const expires = new Date(at.getTime() + 3_600_000);
      const session = sampleSession({ id, subjectId: user.id, created: at, expires });
      const opened = await sessions.create(session, firstTokenOf(session), user);
      expect(opened).toBe(true);
      return id;
    }
    const isLive = async (sessionId: string) => (await sessions.findSession(sessionId))?.revoked === null;

    it('returns an inserted user unchanged, by id and by email, verified or not, banned or not', async () => {
      const banned = sampleUser({ bannedAt: T0, bannedUntil: new Date(T0.getTime() + 60_000), banReason: 'spam 🥫' });
      const bannedForever = sampleUser({ bannedAt: T0, bannedUntil: null, banReason: 'fraud' });
      for (const user of [sampleUser(), sampleUser({ emailVerified: null }), banned, bannedForever]) {
        await users.insert(user);
        expect(await users.findById(user.id)).toEqual(user);
        expect(await users.findByEmail(user.email)).toEqual(user);
      }
    });

    it('answers null for an unknown id or email', async () => {
      expect(await users.findById('00000000-0000-4000-8000-ffffffffffff')).toBeNull();
      expect(await users.findByEmail('nobody@example.com')).toBeNull();
    });

    it('refuses a second user with the same email with EmailTakenError', async () => {
      await users.insert(sampleUser({ email: 'same@example.com' }));
      await expect(users.insert(sampleUser({ email: 'same@example.com' }))).rejects.toBeInstanceOf(EmailTakenError);
    });

    it('lets exactly one of 20 concurrent inserts of one email succeed', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => users.insert(sampleUser({ email: 'race@example.com' }))),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results.filter((r) => r.status === 'rejected')) {
        expect((result as PromiseRejectedResult).reason).toBeInstanceOf(EmailTakenError);
      }
    });

    it('update hands the stored user to the change, writes every attribute it returns and answers the stored record', async () => {
      const user = sampleUser();
      await users.insert(user);
      const changed: User = {
        ...user,
        name: 'Renamed',
        email: 'renamed@example.com',
        passwordHash: 'other-hash',
        metadata: { theme: 'dark' },
        app: {},
        active: 0,
        emailVerified: null,
        bannedAt: later(user, 5),
        bannedUntil: later(user, 65),
        banReason: 'spam',
        updated: later(user, 5),
        version: 2,
      };
      const seen: User[] = [];
      expect(await users.update(user.id, (current) => (seen.push(current), { user: changed }))).toEqual(changed);
      expect(seen).toEqual([user]);
      expect(await users.findById(user.id)).toEqual(changed);
      expect(await users.findByEmail(user.email)).toBeNull();
    });

    it("update to another user's email fails with EmailTakenError and changes nothing", async () => {
      const first = sampleUser();
      const second = sampleUser();
      await users.insert(first);
      await users.insert(second);
      await expect(
        users.update(second.id, (current) => ({ user: { ...current, email: first.email } })),
      ).rejects.toBeInstanceOf(EmailTakenError);
      expect(await users.findById(second.id)).toEqual(second);
    });

    it('update of an unknown id answers null without calling the change', async () => {
      let called = false;
      expect(await users.update(sampleUser().id, (current) => ((called = true), { user: current }))).toBeNull();
      expect(called).toBe(false);
    });

    it('update whose change throws writes nothing, ends no session, and passes the error on', async () => {
      const user = sampleUser();
      await users.insert(user);
      const sessionId = await openSession(user);
      const refused = users.update(user.id, () => {
        throw new PreconditionFailedError();
      });
      await expect(refused).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(await users.findById(user.id)).toEqual({ ...user, lastLogin: user.created });
      expect(await isLive(sessionId)).toBe(true);
    });

    it('update that ends sessions ends every session of the user at its `updated`, but the one kept', async () => {
      const user = sampleUser();
      const other = sampleUser();
      await users.insert(user);
      await users.insert(other);
      const [ended, kept, othersSession] = [await openSession(user), await openSession(user), await openSession(other)];
      const at = later(user, 9);
      await users.update(user.id, (current) => ({
        user: applyUserPatch(current, { active: 0 }, at),
        endSessions: { keepSessionId: kept },
      }));
      expect((await sessions.findSession(ended))?.revoked).toEqual(at);
      expect(await isLive(kept)).toBe(true);
      expect(await isLive(othersSession)).toBe(true);
    });

    it('delete removes the user once, and ends its sessions with it', async () => {
      const user = sampleUser();
      await users.insert(user);
      const sessionId = await openSession(user);
      const at = later(user, 3);
      expect(await users.delete(user.id, at)).toBe(true);
      expect(await users.findById(user.id)).toBeNull();
      expect((await sessions.findSession(sessionId))?.revoked).toEqual(at);
      expect(await users.delete(user.id, at)).toBe(false);
    });

    it('delete whose check throws deletes nothing and ends no session', async () => {
      const user = sampleUser();
      await users.insert(user);
      const sessionId = await openSession(user);
      const seen: User[] = [];
      const refused = users.delete(user.id, later(user, 1), (current) => {
        seen.push(current);
        throw new PreconditionFailedError();
      });
      await expect(refused).rejects.toBeInstanceOf(PreconditionFailedError);
      // The session opened as the user logged in, which is all that changed.
      const loggedIn = { ...user, lastLogin: user.created };
      expect(seen).toEqual([loggedIn]);
      expect(await users.findById(user.id)).toEqual(loggedIn);
      expect(await isLive(sessionId)).toBe(true);
    });

    it('of 12 concurrent updates, each adding its own key to what it reads, none is lost', async () => {
      const user = sampleUser({ metadata: {} });
      await users.insert(user);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          users.update(user.id, (current) => ({
            user: applyUserPatch(current, { metadata: { ...current.metadata, [`key${i}`]: i } }, later(user, 1)),
          })),
        ),
      );
      const stored = await users.findById(user.id);
      expect(Object.keys(stored?.metadata ?? {}).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `key${i}`).sort(),
      );
      expect(stored?.version).toBe(13);
      expect(results.map((result) => result?.version).sort((a = 0, b = 0) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 2),
      );
    });

    it('concurrent updates of different attributes all land', async () => {
      const user = sampleUser();
      await users.insert(user);
      const at = later(user, 1);
      await Promise.all([
        users.update(user.id, rename('Renamed', at)),
        users.update(user.id, (current) => ({ user: applyUserPatch(current, { metadata: { theme: 'light' } }, at) })),
        users.update(user.id, (current) => ({ user: applyUserPatch(current, { app: { plan: 'pro' } }, at) })),
        users.update(user.id, (current) => ({
          user: applyUserPatch(current, { email: 'new-address@example.com' }, at),
        })),
      ]);
      expect(await users.findById(user.id)).toMatchObject({
        name: 'Renamed',
        metadata: { theme: 'light' },
        app: { plan: 'pro' },
        email: 'new-address@example.com',
        version: 5,
      });
    });

    it('of rounds of renames racing logins on two instances, neither loses the other: the name and the last login both land', async () => {
      for (let round = 0; round < 10; round++) {
        const user = sampleUser();
        await users.insert(user);
        const at = later(user, 1);
        const [renamed] = await Promise.all([
          (round % 2 ? elsewhere : users).update(user.id, rename(`Round ${round}`, at)),
          openSession(user),
        ]);
        expect(renamed?.name).toBe(`Round ${round}`);
        const stored = await users.findById(user.id);
        expect({ name: stored?.name, lastLogin: stored?.lastLogin }).toEqual({
          name: `Round ${round}`,
          lastLogin: user.created,
        });
      }
    });

    it('of 12 concurrent audited updates on two instances, each commits its event exactly once', async () => {
      const user = sampleUser({ metadata: {} });
      await users.insert(user);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? elsewhere : users).update(user.id, (current) => ({
            user: applyUserPatch(current, { metadata: { ...current.metadata, [`key${i}`]: i } }, later(user, 1)),
            audit: auditRecord(
              crypto.randomUUID(),
              later(user, 1),
              SYSTEM,
              'user.updated',
              { type: 'users', id: user.id },
              {
                [`key${i}`]: { before: null, after: i },
              },
            ),
          })),
        ),
      );
      const { events } = await audit.list({ targetId: user.id, page: 1, size: 100 });
      const keys = events.flatMap((event) => Object.keys(event.changes ?? {})).sort();
      expect(keys).toEqual(Array.from({ length: 12 }, (_, i) => `key${i}`).sort());
      expect(Object.keys((await users.findById(user.id))?.metadata ?? {})).toHaveLength(12);
    });

    it('of two concurrent updates of one attribute, one wins whole', async () => {
      const user = sampleUser();
      await users.insert(user);
      const values: JsonObject[] = [
        { owner: 'a', a: 1 },
        { owner: 'b', b: 2 },
      ];
      await Promise.all(
        values.map((metadata) =>
          users.update(user.id, (current) => ({ user: applyUserPatch(current, { metadata }, later(user, 1)) })),
        ),
      );
      const stored = (await users.findById(user.id))?.metadata;
      expect(['a', 'b']).toContain(stored?.owner);
      expect(stored).toEqual(values.find((value) => value.owner === stored?.owner));
    });

    it('a deactivation racing a rename leaves the user inactive, renamed, and with no live session', async () => {
      const user = sampleUser({ active: 1 });
      await users.insert(user);
      const sessionId = await openSession(user);
      const at = later(user, 1);
      await Promise.all([
        users.update(user.id, rename('Renamed', at)),
        users.update(user.id, (current) => ({ user: applyUserPatch(current, { active: 0 }, at), endSessions: {} })),
        users.update(user.id, rename('Renamed', at)),
      ]);
      expect(await users.findById(user.id)).toMatchObject({ active: 0, name: 'Renamed' });
      expect(await isLive(sessionId)).toBe(false);
    });

    it('an update racing a delete resurrects nothing: the user and its sessions stay gone', async () => {
      const user = sampleUser();
      await users.insert(user);
      const sessionId = await openSession(user);
      const [updated, deleted] = await Promise.all([
        users.update(user.id, rename('Renamed', later(user, 1))),
        users.delete(user.id, later(user, 1)),
      ]);
      expect(deleted).toBe(true);
      expect([null, 'Renamed']).toContain(updated?.name ?? null);
      expect(await users.findById(user.id)).toBeNull();
      expect(await users.findByEmail(user.email)).toBeNull();
      expect(await isLive(sessionId)).toBe(false);
    });

    it('lists by created ascending, then id, in pages, with the total', async () => {
      const sameInstant = new Date('2026-02-01T00:00:00.000Z');
      const later = sampleUser({ created: new Date('2026-03-01T00:00:00.000Z') });
      const tieB = sampleUser({ id: '00000000-0000-4000-8000-00000000bbbb', created: sameInstant });
      const tieA = sampleUser({ id: '00000000-0000-4000-8000-00000000aaaa', created: sameInstant });
      const earliest = sampleUser({ created: new Date('2025-12-01T00:00:00.000Z') });
      for (const user of [later, tieB, tieA, earliest]) await users.insert(user);

      const first = await users.list({ page: 1, size: 3 });
      expect(first.total).toBe(4);
      expect(first.users.map((u) => u.id)).toEqual([earliest.id, tieA.id, tieB.id]);
      const second = await users.list({ page: 2, size: 3 });
      expect(second.users.map((u) => u.id)).toEqual([later.id]);
      expect(await users.list({ page: 3, size: 3 })).toEqual({ users: [], total: 4 });
    });

    it('searches email by substring (the term lower-cased, as the domain hands it over)', async () => {
      await users.insert(sampleUser({ email: 'alice@example.com' }));
      await users.insert(sampleUser({ email: 'malice@corp.io' }));
      await users.insert(sampleUser({ email: 'bob@example.com' }));
      const found = await users.list({ page: 1, size: 10, emailContains: 'alice' });
      expect(found.users.map((u) => u.email).sort()).toEqual(['alice@example.com', 'malice@corp.io']);
      expect(found.total).toBe(2);
      expect((await users.list({ page: 1, size: 10, emailContains: 'alice@ex' })).total).toBe(1);
    });

    it('matches a term beyond ASCII, by trigrams and by a short scan alike', async () => {
      await users.insert(sampleUser({ email: 'élodie@exemple.fr' }));
      await users.insert(sampleUser({ email: 'elodie@example.fr' }));
      for (const term of ['élodie', 'élo', 'é']) {
        const found = await users.list({ page: 1, size: 10, emailContains: term });
        expect({ term, emails: found.users.map((u) => u.email), total: found.total }).toEqual({
          term,
          emails: ['élodie@exemple.fr'],
          total: 1,
        });
      }
    });

    it('takes %, _ and \\ in the search term literally', async () => {
      for (const email of ['a%b@x.io', 'axb@x.io', 'a_b@x.io', 'ayb@x.io', 'a\\b@x.io', 'a\\\\b@x.io']) {
        await users.insert(sampleUser({ email }));
      }
      const emails = async (term: string) =>
        (await users.list({ page: 1, size: 10, emailContains: term })).users.map((u) => u.email);
      expect(await emails('a%b')).toEqual(['a%b@x.io']);
      expect(await emails('a_b')).toEqual(['a_b@x.io']);
      expect(await emails('a\\b')).toEqual(['a\\b@x.io']);
      expect(await emails('%')).toEqual(['a%b@x.io']);
      expect(await emails('_')).toEqual(['a_b@x.io']);
    });

    it('insertMany inserts a batch, and refuses a batch holding a taken email whole', async () => {
      const batch = Array.from({ length: 30 }, () => sampleUser());
      await users.insertMany(batch);
      expect((await users.list({ page: 1, size: 50 })).users.map((u) => u.id)).toEqual(batch.map((u) => u.id));
      const taken = [sampleUser(), sampleUser({ email: batch[3]!.email })];
      await expect(users.insertMany(taken)).rejects.toBeInstanceOf(EmailTakenError);
      const twice = [sampleUser({ email: 'twice@example.com' }), sampleUser({ email: 'twice@example.com' })];
      await expect(users.insertMany(twice)).rejects.toBeInstanceOf(EmailTakenError);
      expect(await users.findById(taken[0]!.id)).toBeNull();
      expect((await users.list({ page: 1, size: 1 })).total).toBe(30);
    });

    it('lists users without their password hash, with their ban', async () => {
      const { passwordHash: _hash, ...listed } = sampleUser({ bannedAt: T0, bannedUntil: null, banReason: 'spam' });
      await users.insert({ ...listed, passwordHash: 'secret-hash' });
      const [first] = (await users.list({ page: 1, size: 1 })).users;
      expect(first).toEqual(listed);
    });

    describe('paging and search over 120 users', () => {
      // Ten share each instant, so the id decides their order; every 40th has a rare domain.
      const all = Array.from({ length: 120 }, (_, n) =>
        sampleUser({
          id: `00000000-0000-4000-8000-${(1000 - n).toString(16).padStart(12, '0')}`,
          email: `member${n}@${n % 40 === 7 ? 'rare' : n % 2 ? 'odd' : 'even'}.example`,
          created: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 10) * 1000),
        }),
      );
      const ordered = [...all].sort((a, b) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1));
      beforeEach(async () => users.insertMany(all));

      /** Every page of `size` in turn, until one comes back empty, with the totals each one gave. */
      async function everyPage(size: number, emailContains?: string) {
        const ids: string[] = [];
        const totals = new Set<number>();
        for (let page = 1; ; page++) {
          const result = await users.list({ page, size, emailContains });
          totals.add(result.total);
          if (result.users.length === 0) return { ids, totals: [...totals] };
          ids.push(...result.users.map((u) => u.id));
        }
      }

      it('walks every page, from either end, in (created, id) order, the last one short', async () => {
        for (const size of [1, 7, 20, 120]) {
          expect(await everyPage(size)).toEqual({ ids: ordered.map((u) => u.id), totals: [120] });
        }
        expect((await users.list({ page: 18, size: 7 })).users.map((u) => u.id)).toEqual(
          ordered.slice(119).map((u) => u.id),
        );
      });

      it('pages through a search the same way, for common, rare and too-short-for-trigrams terms', async () => {
        for (const term of [
          'odd.ex',
          'rare.example',
          'member11',
          'member7@',
          'mber119@',
          'er1',
          'r1',
          '1',
          'd.',
          'nobody',
        ]) {
          const matching = ordered.filter((u) => u.email.includes(term)).map((u) => u.id);
          for (const size of [3, 20]) {
            expect({ term, size, ...(await everyPage(size, term)) }).toEqual({
              term,
              size,
              ids: matching,
              totals: [matching.length],
            });
          }
        }
      });
    });

    it('keeps search in step with email changes and deletes', async () => {
      const user = sampleUser({ email: 'before-change@example.com' });
      await users.insert(user);
      await users.update(user.id, (current) => ({ user: { ...current, email: 'after-change@example.com' } }));
      expect((await users.list({ page: 1, size: 10, emailContains: 'before-change' })).total).toBe(0);
      expect((await users.list({ page: 1, size: 10, emailContains: 'after-change' })).users.map((u) => u.id)).toEqual([
        user.id,
      ]);
      await users.update(user.id, (current) => ({ user: { ...current, name: 'Same email' } }));
      expect((await users.list({ page: 1, size: 10, emailContains: 'after-change' })).total).toBe(1);
      await users.delete(user.id, new Date());
      expect((await users.list({ page: 1, size: 10, emailContains: 'after-change' })).total).toBe(0);
    });

    it('keeps the total exact through rounds of concurrent creates, deletes and lists', async () => {
      const ROUNDS = 5;
      const alive = new Set<string>();
      const lost: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const fresh = Array.from({ length: 20 }, () => sampleUser());
        const doomed = [...alive].slice(0, 10);
        const batch = Array.from({ length: 5 }, () => sampleUser());
        const results = await Promise.allSettled([
          ...fresh.map((user) => users.insert(user)),
          users.insertMany(batch),
          ...doomed.map((id) => users.delete(id, new Date())),
          // A delete of a user already gone, racing the first, must not count twice.
          ...doomed.slice(0, 3).map((id) => users.delete(id, new Date())),
          ...Array.from({ length: 5 }, () => users.list({ page: 1, size: 5 })),
        ]);
        lost.push(
          ...results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
        );
        for (const user of [...fresh, ...batch]) alive.add(user.id);
        for (const id of doomed) alive.delete(id);
        const { total } = await users.list({ page: 1, size: 1 });
        if (total !== alive.size) lost.push(`round ${round}: total ${total}, expected ${alive.size}`);
      }
      expect(lost).toEqual([]);
      expect((await users.list({ page: 1, size: 200 })).users.map((u) => u.id).sort()).toEqual([...alive].sort());
    });

    it('answers no search from before a write that changed its matches, on either instance, through rounds of racing writes', async () => {
      const ROUNDS = 6;
      const size = 4;
      const matching = new Map<string, User>();
      const seed = Array.from({ length: 30 }, (_, n) => sampleUser({ email: `cached${n}@search.example` }));
      await users.insertMany(seed);
      for (const user of seed) matching.set(user.id, user);
      const order = (a: User, b: User) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1);
      /** Both ends and the middle of the search, and its total, through both instances: what a cache would serve. */
      const look = () =>
        Promise.all(
          [users, elsewhere].flatMap((instance) =>
            [1, Math.ceil(matching.size / size / 2), Math.ceil(matching.size / size)].map((page) =>
              instance.list({ page, size, emailContains: 'cached' }).then((found) => ({ page, found })),
            ),
          ),
        );
      const stale: unknown[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await look(); // fills the caches, if any
        const [moved, gone] = [...matching.values()].slice(round * 2, round * 2 + 2) as [User, User];
        const added = sampleUser({ email: `cached-new${round}@search.example` });
        const [racing] = await Promise.all([
          look(),
          users.insert(added),
          elsewhere.delete(gone.id, new Date()),
          users.update(moved.id, (current) => ({ user: { ...current, email: `moved${round}@elsewhere.example` } })),
          look(),
        ]);
        matching.set(added.id, added);
        matching.delete(gone.id);
        matching.delete(moved.id);
        // A search racing the writes sees some moment: its page agrees with its total.
        for (const { page, found } of racing)
          if (found.users.length !== Math.max(0, Math.min(size, found.total - (page - 1) * size)))
            stale.push({ round, racing: true, page, total: found.total, ids: found.users.map((u) => u.id) });
        const expected = [...matching.values()].sort(order).map((u) => u.id);
        for (const { page, found } of await look()) {
          const ids = expected.slice((page - 1) * size, page * size);
          if (found.total !== expected.length || found.users.map((u) => u.id).join() !== ids.join())
            stale.push({ round, page, total: found.total, expected: expected.length });
        }
      }
      expect(stale).toEqual([]);
    });

    it('serves deep pages of a search read before as a fresh read does, and sees a write between two pages on either instance', async () => {
      // 1,200 of 1,300 match: 172 pages of 7, far more than the first and last few.
      const seed = Array.from({ length: 1300 }, (_, n) =>
        sampleUser({ email: `deep${n}@${n % 13 === 5 ? 'other' : 'paged'}.example` }),
      );
      await users.insertMany(seed);
      const order = (a: User, b: User) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1);
      let matching = seed.filter((user) => user.email.includes('@paged.'));
      const size = 7;
      const term = '@paged.';
      const wrong: unknown[] = [];
      /** Page `page` through `instance`, against the matches as they are now. */
      const check = async (instance: UserRepository, page: number, label: string) => {
        const found = await instance.list({ page, size, emailContains: term });
        const expected = [...matching].sort(order).slice((page - 1) * size, page * size);
        if (found.total !== matching.length || found.users.map((u) => u.id).join() !== expected.map((u) => u.id).join())
          wrong.push({ label, page, total: found.total, expected: matching.length });
      };
      const pages = () => Math.ceil(matching.length / size);
      for (const instance of [users, elsewhere]) await instance.list({ page: 1, size, emailContains: term });
      // Every page, in an order that jumps about, through one instance and then the other.
      for (const [name, instance] of [
        ['this', users],
        ['another', elsewhere],
      ] as const)
        for (let step = 0; step < pages(); step++) await check(instance, 1 + ((step * 37) % pages()), name);
      // A write between two deep pages, on the other instance: the next page sees it.
      const middle = [...matching].sort(order)[600]!;
      const added = sampleUser({ email: 'deep-added@paged.example', created: middle.created });
      await check(users, 80, 'before the insert');
      await elsewhere.insert(added);
      matching = [...matching, added];
      await check(users, 86, 'after the insert');
      await check(users, 87, 'after the insert');
      const gone = [...matching].sort(order)[300]!;
      await users.delete(gone.id, new Date());
      matching = matching.filter((user) => user.id !== gone.id);
      await check(elsewhere, 43, 'after the delete');
      const moved = [...matching].sort(order)[900]!;
      await elsewhere.update(moved.id, (current) => ({ user: { ...current, email: 'moved@elsewhere.example' } }));
      matching = matching.filter((user) => user.id !== moved.id);
      await check(users, 129, 'after the email change');
      await check(elsewhere, 129, 'after the email change');
      expect(wrong).toEqual([]);
    });

    it('keeps the search index in step through rounds of concurrent email changes', async () => {
      const ROUNDS = 5;
      const people = Array.from({ length: 12 }, () => sampleUser());
      await users.insertMany(people);
      const lost: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const renamed = people.map((user, n) => ({ ...user, email: `round${round}x${n}@renamed.example` }));
        await Promise.all([
          ...renamed.map((user) => users.update(user.id, (current) => ({ user: { ...current, email: user.email } }))),
          users.list({ page: 1, size: 5, emailContains: 'renamed' }),
        ]);
        const found = await users.list({ page: 1, size: 50, emailContains: `round${round}x` });
        if (found.total !== people.length) lost.push(`round ${round}: ${found.total} of ${people.length} found`);
        const stale =
          round === 0 ? 0 : (await users.list({ page: 1, size: 50, emailContains: `round${round - 1}x` })).total;
        if (stale !== 0) lost.push(`round ${round}: ${stale} stale emails still found`);
      }
      expect(lost).toEqual([]);
    });
  });
}
