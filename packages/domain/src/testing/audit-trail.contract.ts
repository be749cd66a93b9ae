import { describe, expect, it } from './test-api.ts';
import { chainLength, sealAuditEvent } from '../audit/audit-chain.ts';
import { SYSTEM, type AuditAction, type AuditRecord, type Initiator } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import { AuditService } from '../audit/audit-service.ts';
import type { Repositories } from '../repositories.ts';
import { EmailTakenError, PreconditionFailedError } from '../shared/errors.ts';
import type { User } from '../users/user.ts';
import { applyUserPatch } from '../users/user.rules.ts';
import {
  useFreshRepositories,
  type AuditTampering,
  type OpenRepositories,
  type RepositoryHarness,
} from './contract-harness.ts';
import { firstTokenOf, sampleSession } from './sample-session.ts';
import { sampleUser } from './user.repository.contract.ts';

const T0 = Date.UTC(2026, 5, 1);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const ADMIN: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-00000000a001' },
  request: { requestId: 'req-1', clientAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (żółw 🐢)' },
};

function record(action: AuditAction, seconds: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return { ...auditRecord(crypto.randomUUID(), at(seconds), ADMIN, action, null), ...overrides };
}

/** The behaviour every AuditTrail promises, and the writes that carry an event, on the fake, SQLite and PostgreSQL. */
export function describeAuditTrailContract(backend: string, open: OpenRepositories): void {
  describe(`AuditTrail contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    let tamper: AuditTampering;
    let holdAuditedWrite: RepositoryHarness['holdAuditedWrite'];
    useFreshRepositories(open, (opened, second, harness) => {
      repositories = opened;
      another = second;
      tamper = harness.tamper;
      holdAuditedWrite = harness.holdAuditedWrite;
    });
    const verify = () => new AuditService({ audit: repositories.audit }).verify();
    const all = async () => (await repositories.audit.list({ page: 1, size: 100 })).events;
    const actions = async () => (await all()).map((event) => event.action).sort();

    it('appends events as one chain: places 1, 2, 3, each naming the hash of the one before', async () => {
      const first = await repositories.audit.append(record('admin.login', 1));
      const second = await repositories.audit.append(record('admin.login_failed', 2));
      expect([first.seq, second.seq]).toEqual([1, 2]);
      expect(first.previousHash).toBeNull();
      expect(second.previousHash).toBe(first.hash);
      expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await repositories.audit.state()).toEqual({
        head: { seq: 2, hash: second.hash },
        cut: { seq: 0, hash: null },
      });
      expect((await verify()).broken).toBeNull();
    });

    it('gives an event back as it was recorded: nested changes, Unicode, the request it came from', async () => {
      const changes = {
        metadata: { before: { b: 1, a: [1, 'two', null, true] }, after: { a: { z: 'żółw 🐢' } } },
        password: { before: 'changed', after: 'changed' },
      };
      const sent = record('user.updated', 5, { target: userTarget('u-1'), changes });
      const stored = await repositories.audit.append(sent);
      expect(await all()).toEqual([stored]);
      expect(stored).toMatchObject(sent);
      expect((await verify()).broken).toBeNull();
    });

    it('lists newest first, a page at a time, with the total', async () => {
      for (const second of [3, 1, 2, 5, 4]) await repositories.audit.append(record('user.created', second));
      const page = (number: number) => repositories.audit.list({ page: number, size: 2 });
      expect((await page(1)).events.map((event) => event.time)).toEqual([at(5), at(4)]);
      expect((await page(3)).events.map((event) => event.time)).toEqual([at(1)]);
      expect((await page(4)).events).toEqual([]);
      expect((await page(1)).total).toBe(5);
    });

    it('filters by target, by actor (an id, or the system), by action and by time, and counts what matches', async () => {
      const target = userTarget('00000000-0000-4000-8000-0000000000t1');
      await repositories.audit.append(record('user.created', 1, { target }));
      await repositories.audit.append(record('user.updated', 2, { target, actor: SYSTEM.actor }));
      await repositories.audit.append(record('user.updated', 3));
      await repositories.audit.append(record('admin.login_failed', 4, { actor: { type: 'admin', id: null } }));
      const seconds = async (filters: Parameters<Repositories['audit']['list']>[0]) => {
        const { events, total } = await repositories.audit.list(filters);
        expect(total).toBe(events.length);
        return events.map((event) => (event.time.getTime() - T0) / 1000);
      };
      const page = { page: 1, size: 10 };
      expect(await seconds({ ...page, targetId: target.id })).toEqual([2, 1]);
      expect(await seconds({ ...page, actorId: ADMIN.actor.id })).toEqual([3, 1]);
      expect(await seconds({ ...page, actorId: null })).toEqual([2]);
      expect(await seconds({ ...page, action: 'user.updated' })).toEqual([3, 2]);
      expect(await seconds({ ...page, since: at(2), until: at(4) })).toEqual([3, 2]);
      expect(await seconds({ ...page, targetId: target.id, action: 'user.updated', since: at(2) })).toEqual([2]);
      expect(await seconds({ ...page, targetId: 'nobody' })).toEqual([]);
    });

    it("writes a change's event in the change's transaction, for every write that carries one", async () => {
      const { users, sessions, signingKeys, imports } = repositories;
      const user = sampleUser();
      await users.insert(user, record('user.created', 1));
      await users.update(user.id, (current) => ({
        user: applyUserPatch(current, { name: 'Renamed' }, at(2)),
        audit: record('user.updated', 2),
      }));
      const session = sampleSession({ subjectId: user.id, created: at(3), expires: at(9999) });
      const token = firstTokenOf(session);
      expect(await sessions.create(session, token, user, record('admin.login', 3))).toBe(true);
      await sessions.revokeToken(token.id, at(4), record('session.revoked', 4));
      await sessions.revokeSession(session.id, at(5), record('session.reuse_detected', 5));
      const another = sampleSession({ subjectId: user.id, created: at(5), expires: at(9999) });
      expect(await sessions.create(another, { ...token, id: crypto.randomUUID(), sessionId: another.id }, user)).toBe(
        true,
      );
      expect(await sessions.revokeSubjectSession('user', user.id, another.id, at(5), record('session.logout', 5))).toBe(
        true,
      );
      await signingKeys.rotate(
        {
          kid: 'k1',
          algorithm: 'ES256',
          privateJwk: {},
          publicJwk: {},
          created: at(6),
          activates: at(6),
          retires: null,
        },
        at(100),
        record('signing_key.rotated', 6),
      );
      const imported = sampleUser();
      await imports.importBatch(
        [{ line: 1, user: imported, given: { id: true, created: true, updated: true, password: true } }],
        () => ({ outcomes: [], inserts: [imported], updates: [], endSessions: [], failure: null }),
        { write: true, now: at(7), audit: () => record('users.imported', 7) },
      );
      expect(await users.delete(user.id, at(8), () => record('user.deleted', 8))).toBe(true);
      expect(await actions()).toEqual(
        [
          'admin.login',
          'session.logout',
          'session.revoked',
          'session.reuse_detected',
          'signing_key.rotated',
          'user.created',
          'user.deleted',
          'user.updated',
          'users.imported',
        ].sort(),
      );
      expect((await verify()).broken).toBeNull();
    });

    it('records no event for a write that fails or changes nothing', async () => {
      const { users, sessions, imports } = repositories;
      const [user, other] = [sampleUser(), sampleUser()];
      await users.insert(user);
      await users.insert(other);
      // A refused change, a clashing email, a refused deletion.
      await expect(
        users.update(user.id, () => {
          throw new PreconditionFailedError();
        }),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      await expect(
        users.update(user.id, (current) => ({
          user: { ...current, email: other.email },
          audit: record('user.updated', 1),
        })),
      ).rejects.toBeInstanceOf(EmailTakenError);
      await expect(users.insert(sampleUser({ email: user.email }), record('user.created', 2))).rejects.toBeInstanceOf(
        EmailTakenError,
      );
      await expect(
        users.delete(user.id, at(3), () => {
          throw new PreconditionFailedError();
        }),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      // A login whose account changed meanwhile; revocations of what is revoked already.
      const session = sampleSession({ subjectId: user.id, created: at(4), expires: at(9999) });
      const token = firstTokenOf(session);
      const stale = { email: user.email, passwordHash: 'not-the-stored-hash' };
      expect(await sessions.create(session, token, stale, record('admin.login', 4))).toBe(false);
      await sessions.revokeToken('no-such-token', at(5), record('session.revoked', 5));
      await sessions.revokeSession('no-such-session', at(5), record('session.reuse_detected', 5));
      await sessions.revokeSubjectSessions('user', user.id, at(5), undefined, record('session.logout', 5));
      expect(
        await sessions.revokeSubjectSession('user', user.id, session.id, at(5), record('session.revoked', 5)),
      ).toBe(false);
      // An import batch whose plan failed, and one whose write is refused whole.
      const clash = sampleUser({ email: other.email });
      const entries = [{ line: 1, user: clash, given: { id: true, created: true, updated: true, password: true } }];
      await imports.importBatch(
        entries,
        () => ({ outcomes: [], inserts: [], updates: [], endSessions: [], failure: { line: 1, reason: 'conflict' } }),
        { write: true, now: at(6), audit: () => record('users.imported', 6) },
      );
      await expect(
        imports.importBatch(
          entries,
          () => ({ outcomes: [], inserts: [clash], updates: [], endSessions: [], failure: null }),
          { write: true, now: at(6), audit: () => record('users.imported', 6) },
        ),
      ).rejects.toBeInstanceOf(EmailTakenError);
      expect(await all()).toEqual([]);
      expect(await repositories.audit.state()).toEqual({ head: { seq: 0, hash: null }, cut: { seq: 0, hash: null } });
    });

    it('of 40 concurrent writes with events, on users and on the trail alone, none is lost and the chain stays one', async () => {
      const people: User[] = Array.from({ length: 4 }, () => sampleUser({ metadata: {} }));
      for (const user of people) await repositories.users.insert(user);
      const writes = Array.from({ length: 40 }, (_, index) => {
        const user = people[index % people.length]!;
        return index % 2 === 0
          ? repositories.audit.append(record('admin.login_failed', index))
          : repositories.users.update(user.id, (current) => ({
              user: applyUserPatch(current, { metadata: { ...current.metadata, [`k${index}`]: index } }, at(index)),
              audit: record('user.updated', index),
            }));
      });
      await Promise.all(writes);
      const { events, total } = await repositories.audit.list({ page: 1, size: 100 });
      expect(total).toBe(40);
      expect(events.map((event) => event.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      const report = await verify();
      expect(report.broken).toBeNull();
      expect(report.checked).toBe(40);
    });

    it("commits a write while another user's write, its event appended, is still open", async () => {
      // Where writes run side by side: the fake and SQLite take them one at a time.
      if (!holdAuditedWrite) return;
      const [held, other] = [sampleUser(), sampleUser()];
      await repositories.users.insert(held);
      await repositories.users.insert(other);
      const commitHeld = await holdAuditedWrite(record('user.updated', 1, { target: userTarget(held.id) }));
      try {
        const write = another.users.update(other.id, (current) => ({
          user: applyUserPatch(current, { name: 'Not waiting' }, at(2)),
          audit: record('user.updated', 2, { target: userTarget(other.id) }),
        }));
        const waited = new Promise<string>((resolve) => setTimeout(() => resolve('waited 2 s'), 2000));
        expect(await Promise.race([write.then(() => 'committed'), waited])).toBe('committed');
      } finally {
        await commitHeld();
      }
      const { events } = await repositories.audit.list({ page: 1, size: 10 });
      expect(events.map((event) => event.target?.id).sort()).toEqual([held.id, other.id].sort());
      expect((await verify()).broken).toBeNull();
    });

    describe('verification', () => {
      async function chainOf(count: number) {
        const events = [];
        for (let i = 1; i <= count; i += 1) events.push(await repositories.audit.append(record('user.updated', i)));
        return events;
      }

      it('names an event whose content was edited', async () => {
        const events = await chainOf(4);
        await tamper.setClientAddress(2, '192.0.2.66');
        const { broken } = await verify();
        expect(broken?.event).toEqual({ id: events[1]!.id, seq: 2 });
        expect(broken?.reason).toMatch(/content/);
      });

      it('names the event after one that was deleted', async () => {
        const events = await chainOf(4);
        await tamper.remove(2);
        expect((await verify()).broken?.event).toEqual({ id: events[2]!.id, seq: 3 });
      });

      it('names the first event out of place when two were swapped', async () => {
        const events = await chainOf(4);
        await tamper.swap(2, 3);
        expect((await verify()).broken?.event?.id).toBe(events[2]!.id);
      });

      it('names the event after one that was inserted, though the inserted one is sealed right', async () => {
        const events = await chainOf(4);
        // Whoever can write the database can seal an event of their own after event 2.
        await tamper.insert(sealAuditEvent(record('user.deleted', 2), { seq: 2, hash: events[1]!.hash }));
        expect((await verify()).broken?.event).toEqual({ id: events[2]!.id, seq: 4 });
      });

      it('finds the last events missing', async () => {
        await chainOf(3);
        await tamper.remove(3);
        const { broken } = await verify();
        expect(broken?.event).toBeNull();
        expect(broken?.reason).toMatch(/ends at event 2, but its head is event 3/);
      });
    });

    it('prunes events older than a time, records the cut, and what remains still verifies', async () => {
      const events = [];
      for (let i = 1; i <= 5; i += 1) events.push(await repositories.audit.append(record('user.updated', i * 10)));
      expect(await repositories.audit.prune(at(30))).toBe(2);
      const state = await repositories.audit.state();
      expect(state.cut).toEqual({ seq: 2, hash: events[1]!.hash });
      expect(chainLength(state)).toBe(3);
      expect((await repositories.audit.list({ page: 1, size: 10 })).total).toBe(3);
      expect(await repositories.audit.prune(at(30))).toBe(0);
      await repositories.audit.append(record('user.updated', 60));
      const report = await verify();
      expect(report.broken).toBeNull();
      expect(report.checked).toBe(4);
      // The first event after the cut is checked against the cut, too.
      await tamper.remove(3);
      expect((await verify()).broken?.event?.id).toBe(events[3]!.id);
    });
  });
}
