import { describe, expect, it } from './test-api.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import type { RefreshToken, Session } from '../sessions/session.ts';
import type { SessionRepository, VerifiedAccount } from '../sessions/session.repository.ts';
import type { Repositories } from '../repositories.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleAdmin } from './admin.repository.contract.ts';
import { sampleUser } from './user.repository.contract.ts';
import { sampleSession } from './sample-session.ts';

let sequence = 0;
const nextId = () => `10000000-0000-4000-8000-${(++sequence).toString(16).padStart(12, '0')}`;
const T0 = new Date('2026-01-01T00:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function sampleToken(sessionId: string, overrides: Partial<RefreshToken> = {}): RefreshToken {
  return { id: nextId(), sessionId, issued: T0, expires: later(3600), retired: null, revoked: null, ...overrides };
}

/** The behaviour every SessionRepository promises: rotation is atomic, revocation is final. */
export function describeSessionRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`SessionRepository contract (${backend})`, () => {
    let sessions: SessionRepository;
    let repositories: Repositories;
    useFreshRepositories(open, (opened) => ({ sessions } = repositories = opened));

    const stored = async <T>(store: { insert(record: T): Promise<void> }, record: T) => (
      await store.insert(record), record
    );

    /** The session's account, stored on first use. */
    async function accountOf({ kind, subjectId: id }: Session): Promise<VerifiedAccount> {
      const store = kind === 'admin' ? repositories.admins : repositories.users;
      const found = await store.findById(id);
      if (found) return found;
      if (kind === 'user') return stored(repositories.users, sampleUser({ id }));
      return stored(repositories.admins, sampleAdmin({ id }));
    }

    async function started(overrides: Partial<Session> = {}) {
      const session = sampleSession(overrides);
      const token = sampleToken(session.id);
      expect(await sessions.create(session, token, await accountOf(session))).toBe(true);
      return { session, token };
    }

    it('returns a created session and its first token unchanged', async () => {
      const { session, token } = await started({ kind: 'admin' });
      expect(await sessions.findSession(session.id)).toEqual(session);
      expect(await sessions.findToken(token.id)).toEqual(token);
    });

    it("keeps how each session's login proved the account (amr), in order", async () => {
      for (const amr of [['pwd'], ['pwd', 'otp', 'mfa'], ['swk']] as const) {
        const { session } = await started({ amr });
        expect((await sessions.findSession(session.id))?.amr).toEqual(amr);
        expect((await sessions.listLive(session.kind, session.subjectId, T0, 10)).map((live) => live.amr)).toEqual([
          amr,
        ]);
      }
    });

    it('create() stores nothing when the account no longer has what the login verified', async () => {
      const user = sampleUser();
      await repositories.users.insert(user);
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      const attempts: [Partial<Session>, VerifiedAccount][] = [
        [{ subjectId: user.id }, { ...user, passwordHash: `${user.passwordHash}-old` }],
        [{ subjectId: user.id }, { ...user, email: `old-${user.email}` }],
        [
          { subjectId: admin.id, kind: 'admin' },
          { ...admin, passwordHash: 'old-hash' },
        ],
        [{ subjectId: admin.id }, admin],
        [{ subjectId: nextId() }, user],
      ];
      for (const [overrides, verified] of attempts) {
        const session = sampleSession(overrides);
        const token = sampleToken(session.id);
        expect(await sessions.create(session, token, verified)).toBe(false);
        expect(await sessions.findSession(session.id)).toBeNull();
        expect(await sessions.findToken(token.id)).toBeNull();
      }
      await repositories.users.update(user.id, (current) => ({ user: { ...current, active: 0 } }));
      const ofInactive = sampleSession({ subjectId: user.id });
      expect(await sessions.create(ofInactive, sampleToken(ofInactive.id), user)).toBe(false);
    });

    it("create() refuses a user banned at the session's creation, and opens a session once the ban has ended", async () => {
      const banned = sampleUser({ bannedAt: T0, bannedUntil: later(60), banReason: 'spam' });
      const forever = sampleUser({ bannedAt: T0, bannedUntil: null, banReason: 'fraud' });
      await repositories.users.insert(banned);
      await repositories.users.insert(forever);
      const opened = async (user: typeof banned, created: Date) => {
        const session = sampleSession({ subjectId: user.id, created, lastUsed: created });
        return sessions.create(session, sampleToken(session.id), user);
      };
      expect(await opened(banned, later(59))).toBe(false);
      expect(await opened(forever, later(3600 * 24 * 365))).toBe(false);
      expect(await opened(banned, later(60))).toBe(true);
    });

    it('create() racing a password change never leaves a live session with the old password', async () => {
      const lost: number[] = [];
      for (let round = 0; round < 10; round += 1) {
        const user = sampleUser();
        await repositories.users.insert(user);
        const session = sampleSession({ subjectId: user.id });
        const login = () => sessions.create(session, sampleToken(session.id), user);
        const reset = () =>
          repositories.users.update(user.id, (current) => ({
            user: { ...current, passwordHash: 'new-hash' },
            endSessions: {},
          }));
        // Either may reach the store first; both orders are tried.
        const opened =
          round % 2 ? (await Promise.all([login(), reset()]))[0] : (await Promise.all([reset(), login()]))[1];
        const after = await sessions.findSession(session.id);
        if (opened ? !after?.revoked : after !== null) lost.push(round);
      }
      expect(lost).toEqual([]);
    });

    it("findSessionWithAccount() reads a session of a kind with whether its account is still active, and an admin's role", async () => {
      const withAccount = (session: Session, at: Date) => sessions.findSessionWithAccount(session.id, session.kind, at);
      const { session: ofUser } = await started();
      const { session: ofAdmin } = await started({ kind: 'admin' });
      expect(await withAccount(ofUser, T0)).toEqual({ session: ofUser, accountActive: true, role: null });
      expect(await withAccount(ofAdmin, T0)).toEqual({ session: ofAdmin, accountActive: true, role: 'owner' });
      expect(await sessions.findSessionWithAccount(nextId(), 'user', T0)).toBeNull();
      // A session of the other kind is none: a token of one kind never opens the other's door.
      expect(await sessions.findSessionWithAccount(ofUser.id, 'admin', T0)).toBeNull();
      expect(await sessions.findSessionWithAccount(ofAdmin.id, 'user', T0)).toBeNull();
      // A role changed after the session opened is the role read with it; an admin removed has none.
      const support = await stored(repositories.admins, sampleAdmin({ role: 'support' }));
      const { session: ofSupport } = await started({ kind: 'admin', subjectId: support.id });
      expect(await withAccount(ofSupport, T0)).toEqual({ session: ofSupport, accountActive: true, role: 'support' });
      await repositories.admins.update({ ...support, role: 'auditor' });
      expect(await withAccount(ofSupport, T0)).toEqual({ session: ofSupport, accountActive: true, role: 'auditor' });
      const removal = auditRecord(nextId(), T0, SYSTEM, 'admin.removed', { type: 'admins', id: support.id });
      await repositories.admins.remove(support.id, later(1), () => removal);
      expect(await withAccount(ofSupport, T0)).toMatchObject({ accountActive: false, role: null });
      // Banned without ending its sessions: not in good standing until the ban's end.
      const { session: ofBanned } = await started();
      await repositories.users.update(ofBanned.subjectId, (current) => ({
        user: { ...current, bannedAt: T0, bannedUntil: later(60), banReason: 'spam' },
      }));
      expect(await withAccount(ofBanned, later(59))).toEqual({
        session: ofBanned,
        accountActive: false,
        role: null,
      });
      expect(await withAccount(ofBanned, later(60))).toEqual({ session: ofBanned, accountActive: true, role: null });
      // Deactivated without ending its sessions, as a login racing the deactivation leaves one.
      await repositories.users.update(ofUser.subjectId, (current) => ({ user: { ...current, active: 0 } }));
      expect(await withAccount(ofUser, T0)).toEqual({ session: ofUser, accountActive: false, role: null });
      const { session: ofDeleted } = await started();
      await repositories.users.delete(ofDeleted.subjectId, later(5));
      expect(await withAccount(ofDeleted, T0)).toEqual({
        session: { ...ofDeleted, revoked: later(5) },
        accountActive: false,
        role: null,
      });
    });

    it('answers null for unknown sessions and tokens', async () => {
      expect(await sessions.findSession(nextId())).toBeNull();
      expect(await sessions.findToken(nextId())).toBeNull();
    });

    it('rotate() retires the current token and stores its successor', async () => {
      const { session, token } = await started();
      const next = sampleToken(session.id, { issued: later(10), expires: later(4000) });
      expect(await sessions.rotate(token.id, next, later(10))).toBe(true);
      expect(await sessions.findToken(token.id)).toEqual({ ...token, retired: later(10) });
      expect(await sessions.findToken(next.id)).toEqual(next);
    });

    it('rotate() refuses a token that was already retired or revoked', async () => {
      const { session, token } = await started();
      expect(await sessions.rotate(token.id, sampleToken(session.id), later(1))).toBe(true);
      const second = sampleToken(session.id);
      expect(await sessions.rotate(token.id, second, later(2))).toBe(false);
      expect(await sessions.findToken(second.id)).toBeNull();

      const other = await started();
      await sessions.revokeToken(other.token.id, later(1));
      expect(await sessions.rotate(other.token.id, sampleToken(other.session.id), later(2))).toBe(false);
    });

    it('rotate() refuses a token whose session has ended', async () => {
      const { session, token } = await started();
      await sessions.revokeSession(session.id, later(1));
      const next = sampleToken(session.id);
      expect(await sessions.rotate(token.id, next, later(2))).toBe(false);
      expect(await sessions.findToken(next.id)).toBeNull();
    });

    it('rotate() racing the end of its session never leaves a live token in an ended session', async () => {
      for (let round = 0; round < 10; round += 1) {
        const { session, token } = await started();
        const next = sampleToken(session.id);
        await Promise.all([
          sessions.rotate(token.id, next, later(1)),
          sessions.revokeSubjectSessions('user', session.subjectId, later(1)),
        ]);
        expect((await sessions.findSession(session.id))?.revoked).toEqual(later(1));
        expect(await sessions.findCurrentToken(session.id, later(2))).toBeNull();
      }
    });

    it('findCurrentToken() answers the token that may be exchanged now, and null once none may', async () => {
      const { session, token } = await started();
      expect(await sessions.findCurrentToken(session.id, later(1))).toEqual(token);
      const next = sampleToken(session.id, { issued: later(10), expires: later(4000) });
      await sessions.rotate(token.id, next, later(10));
      expect(await sessions.findCurrentToken(session.id, later(11))).toEqual(next);
      expect(await sessions.findCurrentToken(session.id, later(4000))).toBeNull();
      await sessions.revokeToken(next.id, later(12));
      expect(await sessions.findCurrentToken(session.id, later(13))).toBeNull();

      const other = await started();
      await sessions.revokeSession(other.session.id, later(1));
      expect(await sessions.findCurrentToken(other.session.id, later(2))).toBeNull();
      expect(await sessions.findCurrentToken(nextId(), later(2))).toBeNull();
    });

    it('lets exactly one of 10 concurrent rotations of one token win', async () => {
      const { session, token } = await started();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => sessions.rotate(token.id, sampleToken(session.id), later(i + 1))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('revokeToken() keeps the first revocation time', async () => {
      const { token } = await started();
      await sessions.revokeToken(token.id, later(5));
      await sessions.revokeToken(token.id, later(9));
      expect((await sessions.findToken(token.id))?.revoked).toEqual(later(5));
    });

    it('revokeSession() ends that session only', async () => {
      const one = await started();
      const two = await started({ subjectId: one.session.subjectId });
      await sessions.revokeSession(one.session.id, later(7));
      expect((await sessions.findSession(one.session.id))?.revoked).toEqual(later(7));
      expect((await sessions.findSession(two.session.id))?.revoked).toBeNull();
    });

    it("revokeSubjectSessions() ends the subject's sessions of that kind, except the one kept", async () => {
      const subjectId = nextId();
      const a = await started({ subjectId });
      const b = await started({ subjectId });
      const kept = await started({ subjectId });
      const adminWithSameId = await started({ subjectId, kind: 'admin' });
      const stranger = await started();
      await sessions.revokeSubjectSessions('user', subjectId, later(3), kept.session.id);
      expect((await sessions.findSession(a.session.id))?.revoked).toEqual(later(3));
      expect((await sessions.findSession(b.session.id))?.revoked).toEqual(later(3));
      expect((await sessions.findSession(kept.session.id))?.revoked).toBeNull();
      expect((await sessions.findSession(adminWithSameId.session.id))?.revoked).toBeNull();
      expect((await sessions.findSession(stranger.session.id))?.revoked).toBeNull();
    });

    it("create() of a user's session sets the user's last login and counts the day's login; an admin's neither", async () => {
      const { session } = await started({ created: later(60) });
      expect((await repositories.users.findById(session.subjectId))?.lastLogin).toEqual(later(60));
      const admin = await started({ kind: 'admin', created: later(60) });
      expect(await repositories.admins.findById(admin.session.subjectId)).not.toHaveProperty('lastLogin');
      const [day] = await repositories.activity.days('2026-01-01', '2026-01-01');
      expect(day).toMatchObject({ day: '2026-01-01', logins: 1 });
    });

    it('keeps the admin who opened a session by impersonation, everywhere a session is read', async () => {
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      const { session } = await started({ impersonatorId: admin.id, amr: [] });
      expect(await sessions.findSession(session.id)).toEqual(session);
      expect(await sessions.listLive('user', session.subjectId, T0, 10)).toEqual([session]);
      expect(await sessions.findSessionWithAccount(session.id, 'user', T0)).toEqual({
        session,
        accountActive: true,
        role: null,
      });
      const { session: login } = await started({ subjectId: session.subjectId, created: later(1) });
      expect((await sessions.findSession(login.id))?.impersonatorId).toBeNull();
    });

    it("create() of an impersonation session is no login of the user: neither their last login nor the day's logins move", async () => {
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      const { session } = await started({ impersonatorId: admin.id, created: later(60) });
      expect((await repositories.users.findById(session.subjectId))?.lastLogin).toBeNull();
      const days = await repositories.activity.days('2026-01-01', '2026-01-01');
      expect(days.reduce((logins, day) => logins + day.logins, 0)).toBe(0);
    });

    it("rotate() makes the rotation the session's last use and its new token's expiry the session's", async () => {
      const { session, token } = await started();
      const next = sampleToken(session.id, { issued: later(30), expires: later(7200) });
      expect(await sessions.rotate(token.id, next, later(30))).toBe(true);
      expect(await sessions.findSession(session.id)).toEqual({ ...session, lastUsed: later(30), expires: later(7200) });
    });

    it('listLive() answers the live sessions of one subject, most recently used first, at most `limit`', async () => {
      const subjectId = nextId();
      const older = await started({ subjectId });
      const newer = await started({ subjectId, created: later(10) });
      const ended = await started({ subjectId });
      await sessions.revokeSession(ended.session.id, later(20));
      const expired = await started({ subjectId, expires: later(15) });
      await started({ subjectId, kind: 'admin' });
      await started();
      const live = await sessions.listLive('user', subjectId, later(20), 10);
      expect(live).toEqual([newer.session, older.session]);
      expect(live.map((session) => session.id)).not.toContain(expired.session.id);
      expect(await sessions.listLive('user', subjectId, later(20), 1)).toEqual([newer.session]);
      expect(await sessions.listLive('user', nextId(), later(20), 10)).toEqual([]);
    });

    it('revokeSubjectSession() ends one live session of the subject, and nothing of anyone else', async () => {
      const subjectId = nextId();
      const target = await started({ subjectId });
      const sibling = await started({ subjectId });
      const stranger = await started();
      expect(await sessions.revokeSubjectSession('user', subjectId, stranger.session.id, later(5))).toBe(false);
      expect(await sessions.revokeSubjectSession('admin', subjectId, target.session.id, later(5))).toBe(false);
      expect(await sessions.revokeSubjectSession('user', subjectId, nextId(), later(5))).toBe(false);
      expect(await sessions.revokeSubjectSession('user', subjectId, target.session.id, later(5))).toBe(true);
      // Ending it again finds nothing live: the first end time stays.
      expect(await sessions.revokeSubjectSession('user', subjectId, target.session.id, later(6))).toBe(false);
      expect((await sessions.findSession(target.session.id))?.revoked).toEqual(later(5));
      expect((await sessions.findSession(sibling.session.id))?.revoked).toBeNull();
      expect((await sessions.findSession(stranger.session.id))?.revoked).toBeNull();
      // An expired session is no longer live: there is nothing to end.
      const expired = await started({ subjectId, expires: later(60) });
      expect(await sessions.revokeSubjectSession('user', subjectId, expired.session.id, later(60))).toBe(false);
    });

    it('a session ended while its token rotates is never left live, however the two interleave', async () => {
      for (let round = 0; round < 25; round += 1) {
        const { session, token } = await started();
        const next = sampleToken(session.id, { issued: later(1) });
        const [rotated, ended] = await Promise.all([
          sessions.rotate(token.id, next, later(1)),
          sessions.revokeSubjectSession('user', session.subjectId, session.id, later(1)),
        ]);
        expect(ended).toBe(true);
        expect((await sessions.findSession(session.id))?.revoked).toEqual(later(1));
        // Whichever came first, no token of the session can be exchanged any more.
        expect(await sessions.findCurrentToken(session.id, later(2))).toBeNull();
        if (rotated) expect(await sessions.findToken(next.id)).toEqual(next);
      }
    });

    it('prune() forgets expired tokens, sessions revoked before the cut-off and sessions left without tokens', async () => {
      const live = await started();
      const rotated = sampleToken(live.session.id, { expires: later(9000) });
      await sessions.rotate(live.token.id, rotated, later(1));
      const expired = await started();
      const revokedEarly = await started();
      await sessions.revokeSession(revokedEarly.session.id, later(100));
      const revokedLate = await started();
      await sessions.revokeSession(revokedLate.session.id, later(5000));

      // The first tokens of every session expire at 3600 s; `rotated` lives on until 9000 s.
      await sessions.prune(later(4000));
      expect(await sessions.findToken(live.token.id)).toBeNull();
      expect(await sessions.findToken(rotated.id)).toEqual(rotated);
      expect(await sessions.findSession(live.session.id)).toEqual({
        ...live.session,
        lastUsed: later(1),
        expires: later(9000),
      });
      expect(await sessions.findSession(expired.session.id)).toBeNull();
      expect(await sessions.findSession(revokedEarly.session.id)).toBeNull();
      expect(await sessions.findToken(revokedEarly.token.id)).toBeNull();
      expect(await sessions.findSession(revokedLate.session.id)).toBeNull();
    });
  });
}
