import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { AccountBannedError, InvalidCredentialsError, InvalidTokenError, NotFoundError } from '../shared/errors.ts';
import { ADDRESS, buildDomain, issueSources, PASSWORD, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { FakePasskeyCeremonies } from '../testing/fake-factor-ports.ts';
import { BAN_REASON_MAX_LENGTH } from './user-ban.ts';

const REQUEST = { requestId: null, clientAddress: ADDRESS, userAgent: 'test' };
const ADMIN_ACTOR = { type: 'admin', id: '00000000-0000-4000-8000-00000000ad01' } as const;
const BY_ADMIN = { actor: ADMIN_ACTOR, request: REQUEST };
const UNKNOWN_ID = '00000000-0000-4000-8000-ffffffffffff';
const { assertion } = FakePasskeyCeremonies;

describe('banning a user', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const inSeconds = (seconds: number) => new Date(domain.clock.now().getTime() + seconds * 1000).toISOString();
  const events = () => domain.repositories.audit.events;

  it("ends every session of the user, and records the ban under the admin, with its reason and end, in the ban's write", async () => {
    const { user, grant } = await domain.signedInUser();
    const other = await domain.signedInUser();
    const until = inSeconds(3600);
    const banned = await domain.users.ban(user.id, { reason: 'spam', until }, BY_ADMIN);
    expect(banned).toMatchObject({
      banned: true,
      bannedAt: domain.clock.now(),
      bannedUntil: new Date(until),
      banReason: 'spam',
      version: user.version + 1,
    });
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
    await rejectionOf(domain.userAuth.refresh(grant.refreshToken), InvalidTokenError);
    expect(await domain.isOpen(other.grant.accessToken)).toBe(true);
    expect(events().at(-1)).toMatchObject({
      action: 'user.banned',
      actor: ADMIN_ACTOR,
      target: { type: 'users', id: user.id },
      changes: {
        banned: { before: false, after: true },
        ban_reason: { before: null, after: 'spam' },
        banned_until: { before: null, after: until },
      },
    });
  });

  it('refuses a login with the right password as banned, and a wrong one as any wrong password', async () => {
    const user = await domain.createUser();
    await domain.users.ban(user.id, { reason: 'spam', until: null });
    await rejectionOf(domain.userSignIn.password.login(user.email, PASSWORD, ADDRESS), AccountBannedError);
    await rejectionOf(domain.userSignIn.password.login(user.email, 'wrong-password', ADDRESS), InvalidCredentialsError);
  });

  it('lifts itself at its end: the user shows unbanned and logs in again, with nothing written', async () => {
    const user = await domain.createUser();
    await domain.users.ban(user.id, { reason: 'cooling off', until: inSeconds(60) });
    domain.clock.advance(59);
    await rejectionOf(domain.userSignIn.password.login(user.email, PASSWORD, ADDRESS), AccountBannedError);
    domain.clock.advance(1);
    expect(await domain.users.get(user.id)).toMatchObject({ banned: false, banReason: 'cooling off' });
    const { grant } = await domain.logIn(domain.userAuth, user.email, PASSWORD);
    expect(await domain.isOpen(grant.accessToken)).toBe(true);
  });

  it('unban() lifts the ban (user.unbanned), after which the user logs in; unbanning an unbanned user records nothing', async () => {
    const user = await domain.createUser();
    await domain.users.ban(user.id, { reason: 'spam', until: null }, BY_ADMIN);
    const lifted = await domain.users.unban(user.id, BY_ADMIN);
    expect(lifted).toMatchObject({ banned: false, bannedAt: null, bannedUntil: null, banReason: null });
    expect(events().at(-1)).toMatchObject({
      action: 'user.unbanned',
      actor: ADMIN_ACTOR,
      changes: { banned: { before: true, after: false }, ban_reason: { before: 'spam', after: null } },
    });
    await domain.logIn(domain.userAuth, user.email, PASSWORD);
    const count = events().length;
    expect(await domain.users.unban(user.id, BY_ADMIN)).toMatchObject({ version: lifted.version });
    expect(events()).toHaveLength(count);
  });

  it('a second ban replaces the first: its reason and end are the latest', async () => {
    const user = await domain.createUser();
    await domain.users.ban(user.id, { reason: 'spam', until: null });
    const until = inSeconds(60);
    expect(await domain.users.ban(user.id, { reason: 'appeal heard', until })).toMatchObject({
      banReason: 'appeal heard',
      bannedUntil: new Date(until),
    });
  });

  it('names every problem with the reason and the end, and changes nothing', async () => {
    const user = await domain.createUser();
    const cases = [
      [{ reason: '', until: null }, ['/reason']],
      [{ reason: '   ', until: null }, ['/reason']],
      [{ reason: 'x'.repeat(BAN_REASON_MAX_LENGTH + 1), until: null }, ['/reason']],
      [{ reason: 'spam', until: 'tomorrow' }, ['/until']],
      [{ reason: 'spam', until: domain.clock.now().toISOString() }, ['/until']],
      [{ reason: '', until: inSeconds(-1) }, ['/reason', '/until']],
    ] as const;
    for (const [input, pointers] of cases) {
      const sources = await issueSources(domain.users.ban(user.id, input));
      expect(sources).toEqual(pointers.map((pointer) => ({ pointer })));
    }
    expect(await domain.users.get(user.id)).toMatchObject({ banned: false, version: user.version });
    await domain.users.ban(user.id, { reason: 'x'.repeat(BAN_REASON_MAX_LENGTH), until: null });
  });

  it('of an unknown user fails with NotFoundError, as does its unban', async () => {
    await rejectionOf(domain.users.ban(UNKNOWN_ID, { reason: 'spam', until: null }), NotFoundError);
    await rejectionOf(domain.users.unban(UNKNOWN_ID), NotFoundError);
  });

  it('refuses the passwordless passkey sign-in and the second step of a banned user', async () => {
    const user = await domain.createUser();
    const { credential } = await domain.enrol.passkey('user', user.id, domain.clock.now());
    const { secret } = await domain.enrol.totp('user', user.id, domain.clock.now());
    const login = await domain.userSignIn.password.login(user.email, PASSWORD, ADDRESS, REQUEST);
    await domain.users.ban(user.id, { reason: 'spam', until: null });
    const options = await domain.userSignIn.passkey.options(REQUEST);
    await rejectionOf(
      domain.userSignIn.passkey.signIn(assertion(credential, options.challenge), REQUEST),
      AccountBannedError,
    );
    const code = domain.codes.codeAt(secret, domain.clock.now());
    await rejectionOf(
      domain.userSignIn.secondStep.complete(login.challenge!.handle, { code }, REQUEST),
      AccountBannedError,
    );
  });

  it("refuses an access token and a refresh of a session the ban's write did not end", async () => {
    const { user, grant } = await domain.signedInUser();
    // As a store would hold a session opened beside the ban: the ban written without ending it.
    await domain.repositories.users.update(user.id, (current) => ({
      user: { ...current, bannedAt: domain.clock.now(), bannedUntil: null, banReason: 'spam' },
    }));
    await rejectionOf(domain.userAuth.refresh(grant.refreshToken), InvalidTokenError);
    expect(await domain.isOpen(grant.accessToken)).toBe(false);
  });
});
