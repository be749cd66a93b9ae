import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { InvalidTokenError, NotFoundError } from '../shared/errors.ts';
import {
  ADDRESS,
  buildDomain,
  OTHER_ADDRESS,
  PASSWORD,
  POLICY,
  rejectionOf,
  type Domain,
} from '../testing/domain-fixture.ts';

describe('AuthService session management', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  it('sessionsOf() lists where the account is signed in, most recently used first', async () => {
    const user = await domain.createUser();
    const first = await domain.userLogin(user.email, PASSWORD, ADDRESS, {
      requestId: null,
      clientAddress: ADDRESS,
      userAgent: 'Firefox/140',
    });
    domain.clock.advance(60);
    const second = await domain.userLogin(user.email, PASSWORD, OTHER_ADDRESS);
    domain.clock.advance(60);
    await domain.userAuth.refresh(first.refreshToken);
    const sessions = await domain.userAuth.sessionsOf(user.id);
    expect(sessions.map((session) => session.id)).toEqual([first.sessionId, second.sessionId]);
    expect(sessions[0]).toMatchObject({
      clientAddress: ADDRESS,
      userAgent: 'Firefox/140',
      lastUsed: domain.clock.now(),
      expires: new Date(domain.clock.now().getTime() + POLICY.refreshTokenSeconds * 1000),
    });
    expect(sessions[1]).toMatchObject({ clientAddress: OTHER_ADDRESS, userAgent: null });
  });

  it("endSession() stops that session's access and refresh tokens at once, and leaves the others", async () => {
    const { user, grant } = await domain.signedInUser();
    const other = await domain.userLogin(user.email, PASSWORD, ADDRESS);
    await domain.userAuth.endSession(user.id, grant.sessionId, SYSTEM);
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
    await rejectionOf(domain.userAuth.refresh(grant.refreshToken), InvalidTokenError);
    expect(await domain.isOpen(other.accessToken)).toBe(true);
    expect((await domain.userAuth.sessionsOf(user.id)).map((session) => session.id)).toEqual([other.sessionId]);
  });

  it("endSession() of a session that is not the account's, or not live, is NotFoundError", async () => {
    const { user, grant } = await domain.signedInUser();
    const stranger = await domain.signedInUser();
    await rejectionOf(domain.userAuth.endSession(user.id, stranger.grant.sessionId, SYSTEM), NotFoundError);
    expect(await domain.isOpen(stranger.grant.accessToken)).toBe(true);
    await domain.userAuth.endSession(user.id, grant.sessionId, SYSTEM);
    await rejectionOf(domain.userAuth.endSession(user.id, grant.sessionId, SYSTEM), NotFoundError);
  });

  it('endSession() records one session.revoked event, with who ended it, in its write; a refused one records nothing', async () => {
    const { user, grant } = await domain.signedInUser();
    const request = { requestId: 'r1', clientAddress: ADDRESS, userAgent: 'UA' };
    const by = { actor: { type: 'admin', id: 'an-admin' }, request } as const;
    const revoked = async () =>
      (await domain.repositories.audit.list({ page: 1, size: 10, action: 'session.revoked' })).events;
    await rejectionOf(domain.userAuth.endSession(user.id, '00000000-0000-4000-8000-00000000dead', by), NotFoundError);
    expect(await revoked()).toEqual([]);
    await domain.userAuth.endSession(user.id, grant.sessionId, by);
    const [event] = await revoked();
    expect(event).toMatchObject({
      actor: by.actor,
      action: 'session.revoked',
      target: { type: 'users', id: user.id },
      changes: { session: { before: grant.sessionId, after: null } },
    });
    // Ending all when none is left ends nothing, and records nothing; with one live, one event.
    await domain.userAuth.endAllSessions(user.id, by);
    expect(await revoked()).toHaveLength(1);
    await domain.userLogin(user.email, PASSWORD, ADDRESS);
    await domain.userAuth.endAllSessions(user.id, by);
    expect(await revoked()).toHaveLength(2);
  });

  it("endAllSessions() ends every session of the account and no one else's", async () => {
    const { user, grant } = await domain.signedInUser();
    const again = await domain.userLogin(user.email, PASSWORD, ADDRESS);
    const stranger = await domain.signedInUser();
    await domain.userAuth.endAllSessions(user.id, SYSTEM);
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
    expect(await domain.isOpen(again.accessToken)).toBe(false);
    expect(await domain.userAuth.sessionsOf(user.id)).toEqual([]);
    expect(await domain.isOpen(stranger.grant.accessToken)).toBe(true);
  });

  it('answers NotFoundError for an unknown account, and does not confuse an admin with a user', async () => {
    const { admin } = await domain.signedInAdmin();
    for (const id of ['00000000-0000-4000-8000-00000000dead', admin.id]) {
      await rejectionOf(domain.userAuth.sessionsOf(id), NotFoundError);
      await rejectionOf(domain.userAuth.endAllSessions(id, SYSTEM), NotFoundError);
    }
  });

  it("a login sets the user's last login without changing its version; failures count as recent until the window passes", async () => {
    const user = await domain.createUser();
    await domain.failLogins(domain.userAuth, user.email, 2, ADDRESS);
    await domain.failLogins(domain.userAuth, user.email, 1, OTHER_ADDRESS);
    const { grant } = await domain.logIn(domain.userAuth, user.email, PASSWORD);
    const shown = await domain.users.get(user.id);
    expect(shown).toMatchObject({ lastLogin: domain.clock.now(), version: user.version, recentFailedLogins: 3 });
    expect(grant.sessionId).toBeTruthy();
    domain.clock.advance(POLICY.throttle.perAccountAndAddress.windowSeconds);
    expect((await domain.users.list({ page: 1, size: 10 })).users[0]).toMatchObject({ recentFailedLogins: 0 });
  });
});
