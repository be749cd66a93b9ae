import { describe, expect, it } from '../testing/test-api.ts';
import { buildDomain, POLICY, rejectionOf } from '../testing/domain-fixture.ts';
import { initiatorOf } from '../audit/audit-records.ts';
import {
  AccountBannedError,
  AccountInactiveError,
  ForbiddenError,
  ImpersonationDisabledError,
  InvalidSecondFactorError,
  NotFoundError,
  SecondFactorRequiredError,
  ValidationError,
} from '../shared/errors.ts';
import { NO_REQUEST, SYSTEM } from '../audit/audit-event.ts';
import { IMPERSONATION_RULES, impersonatorCheck } from './impersonation-rules.ts';

const REASON = 'Ticket 4711: cannot find the export button';

async function setup({ accessTokenSeconds = POLICY.accessTokenSeconds, impersonation = true } = {}) {
  const domain = buildDomain({ policy: { ...POLICY, accessTokenSeconds }, impersonation });
  const { admin, identity: adminIdentity } = await domain.signedInAdmin();
  const { user, identity: ownIdentity } = await domain.signedInUser();
  const start = (input: Record<string, unknown> = { reason: REASON }, userId = user.id) =>
    domain.impersonation.start(adminIdentity, userId, input);
  /** Starts an impersonation and authenticates its token, as the API does on every request. */
  const acting = async () => {
    const started = await start();
    return { ...started, identity: await domain.userAuth.authenticate(started.accessToken) };
  };
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;
  return { ...domain, admin, adminIdentity, user, ownIdentity, start, acting, events };
}

describe('ImpersonationService', () => {
  it('refuses while IMPERSONATION is off, and opens nothing', async () => {
    const { start, userAuth, user, events } = await setup({ impersonation: false });
    const before = (await events()).length;
    await rejectionOf(start(), ImpersonationDisabledError);
    expect(await userAuth.sessionsOf(user.id)).toHaveLength(1);
    expect(await events()).toHaveLength(before);
  });

  it("opens a session of the user, named for the admin, with one access token: the user's claims, act naming the admin, 15 minutes, no refresh token", async () => {
    const { start, admin, user, claimsOf, clock } = await setup();
    const started = await start();
    expect(started).not.toHaveProperty('refreshToken');
    expect(started.session).toMatchObject({ kind: 'user', subjectId: user.id, impersonatorId: admin.id, amr: [] });
    const claims = await claimsOf(started.accessToken);
    expect(claims).toMatchObject({
      sub: user.id,
      sid: started.session.id,
      email: user.email,
      act: { sub: admin.id },
      amr: [],
      aal: 'aal1',
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(IMPERSONATION_RULES.maxSeconds);
    expect(started.session.expires).toEqual(new Date(clock.now().getTime() + IMPERSONATION_RULES.maxSeconds * 1000));
  });

  it('lasts 15 minutes however long a user access token lives, and less when those live less', async () => {
    for (const [accessTokenSeconds, lasts] of [
      [3600, IMPERSONATION_RULES.maxSeconds],
      [300, 300],
    ] as const) {
      const { start, claimsOf } = await setup({ accessTokenSeconds });
      const claims = await claimsOf((await start()).accessToken);
      expect(Number(claims.exp) - Number(claims.iat)).toBe(lasts);
    }
  });

  it('is a session the user sees among their own, and stops working when it ends, whoever ends it', async () => {
    const { acting, userAuth, user, ownIdentity, isOpen, clock } = await setup();
    const byUser = await acting();
    expect((await userAuth.sessionsOf(user.id)).map((session) => session.impersonatorId)).toContain(
      byUser.identity.impersonatorId,
    );
    await userAuth.endSession(user.id, byUser.session.id, initiatorOf(ownIdentity, NO_REQUEST));
    expect(await isOpen(byUser.accessToken)).toBe(false);

    const byAdmin = await acting();
    await userAuth.endAllSessions(user.id, {
      actor: { type: 'admin', id: byAdmin.identity.impersonatorId! },
      request: NO_REQUEST,
    });
    expect(await isOpen(byAdmin.accessToken)).toBe(false);

    const byClock = await acting();
    clock.advance(IMPERSONATION_RULES.maxSeconds);
    expect(await isOpen(byClock.accessToken)).toBe(false);
  });

  it('ends when its admin may no longer impersonate: demoted to a role without it, or with IMPERSONATION off', async () => {
    const { acting, admin, repositories, userAuth, user, isOpen } = await setup();
    const started = await acting();
    await repositories.admins.update({ ...admin, role: 'auditor' });
    expect(await isOpen(started.accessToken)).toBe(false);
    expect((await userAuth.sessionsOf(user.id)).map((session) => session.id)).not.toContain(started.session.id);
    expect(await impersonatorCheck(repositories.admins, true)(admin.id)).toBe(false);
    await repositories.admins.update({ ...admin, role: 'support' });
    expect(await impersonatorCheck(repositories.admins, true)(admin.id)).toBe(true);
    expect(await impersonatorCheck(repositories.admins, false)(admin.id)).toBe(false);
  });

  it('authenticates as the user, with the admin behind it, whom the audit trail names for what the token does', async () => {
    const { acting, admin, user, self, events } = await setup();
    const { identity } = await acting();
    expect(identity).toMatchObject({ kind: 'user', subjectId: user.id, impersonatorId: admin.id });
    expect(initiatorOf(identity, NO_REQUEST).actor).toEqual({ type: 'admin', id: admin.id });
    await self.update(identity, { name: 'Renamed by support' });
    const renamed = (await events()).find((event) => event.action === 'user.updated');
    expect(renamed).toMatchObject({ actor: { type: 'admin', id: admin.id }, target: { type: 'users', id: user.id } });
  });

  it('records the start as user.impersonated by the admin, with the session and the reason', async () => {
    const { start, admin, user, events } = await setup();
    const { session } = await start();
    expect((await events()).find((event) => event.action === 'user.impersonated')).toMatchObject({
      actor: { type: 'admin', id: admin.id },
      target: { type: 'users', id: user.id },
      changes: { session: { before: null, after: session.id }, reason: { before: null, after: REASON } },
    });
  });

  it("cannot change the account's password, email, second factors or recovery codes", async () => {
    const { acting, self, emailChange, factors, user, ownIdentity, enrol, clock } = await setup();
    const { id: factorId } = await enrol.totp('user', user.id, clock.now());
    const { identity } = await acting();
    const refusals = [
      self.update(identity, { password: 'taken-over-1', current_password: 'correct horse battery' }),
      emailChange.request(identity, { email: 'attacker@example.com', current_password: 'correct horse battery' }),
      factors.enrol(identity, 'totp'),
      factors.verify(identity, factorId, { code: '000000' }),
      factors.remove(identity, factorId, { code: '000000' }),
      factors.regenerateRecoveryCodes(identity, { code: '000000' }),
    ];
    for (const refusal of refusals) await rejectionOf(refusal, ForbiddenError);
    // The user's own session may.
    await self.update(ownIdentity, { password: 'changed-by-owner-1', current_password: 'correct horse battery' });
  });

  it("acts only as an active end user: an unknown id or an admin's is not found, a banned or inactive user refused", async () => {
    const { start, admin, users, user } = await setup();
    await rejectionOf(start(undefined, admin.id), NotFoundError);
    await rejectionOf(start(undefined, '00000000-0000-4000-8000-0000000fffff'), NotFoundError);
    await users.ban(user.id, { reason: 'spam', until: null }, SYSTEM);
    await rejectionOf(start(), AccountBannedError);
    await users.update(user.id, { active: 0 });
    await rejectionOf(start(), AccountInactiveError);
  });

  it('needs a reason: present, not blank, of limited length, storable', async () => {
    const { start } = await setup();
    for (const reason of [undefined, '', '   ', 42, 'x'.repeat(IMPERSONATION_RULES.reasonMaxLength + 1), 'a\u0000b']) {
      const error = await rejectionOf(start({ reason }), ValidationError);
      expect(error.issues.map((issue) => issue.source)).toEqual([{ pointer: '/reason' }]);
    }
    await start({ reason: 'x'.repeat(IMPERSONATION_RULES.reasonMaxLength) });
  });

  it('asks an admin with an active second factor for a proof each time, and uses the code up', async () => {
    const { start, enrol, admin, codes, clock } = await setup();
    const { secret } = await enrol.totp('admin', admin.id, clock.now());
    await rejectionOf(start({ reason: REASON }), SecondFactorRequiredError);
    await rejectionOf(start({ reason: REASON, code: '000000' }), InvalidSecondFactorError);
    const code = codes.codeAt(secret, clock.now());
    await start({ reason: REASON, code });
    await rejectionOf(start({ reason: REASON, code }), InvalidSecondFactorError);
  });
});
