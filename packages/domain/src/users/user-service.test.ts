import { beforeEach, describe, expect, it, vi } from '../testing/test-api.ts';
import {
  EmailTakenError,
  InvalidTokenError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
} from '../shared/errors.ts';
import { buildDomain, issueSources, PASSWORD, pointerTo, rejectionOf, type Domain } from '../testing/domain-fixture.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-ffffffffffff';

describe('UserService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const isOpen = (accessToken: string) => domain.isOpen(accessToken);

  describe('create()', () => {
    it('defaults name to "", metadata and app to {}, active to 1, and stamps created = updated = email_verified = now', async () => {
      const user = await domain.users.create({ email: 'alice@example.com', password: PASSWORD });
      expect(user).toEqual({
        id: expect.any(String),
        name: '',
        email: 'alice@example.com',
        passwordHash: expect.any(String),
        metadata: {},
        app: {},
        active: 1,
        created: domain.clock.now(),
        updated: domain.clock.now(),
        version: 1,
        lastLogin: null,
        emailVerified: domain.clock.now(),
        bannedAt: null,
        bannedUntil: null,
        banReason: null,
        recentFailedLogins: 0,
        banned: false,
      });
    });

    it('stores what was given', async () => {
      const user = await domain.users.create({
        email: 'bob@example.com',
        password: PASSWORD,
        name: 'Bob',
        metadata: { theme: 'dark' },
        app: { roles: ['editor'] },
        active: 0,
      });
      expect(await domain.users.get(user.id)).toMatchObject({
        name: 'Bob',
        metadata: { theme: 'dark' },
        app: { roles: ['editor'] },
        active: 0,
      });
    });

    it('stores the verification as stated: false unverified, a time as given, true now', async () => {
      const times = await Promise.all(
        [false, '2026-01-02T03:04:05.678Z', true].map(async (emailVerified) => {
          return (await domain.createUser({ emailVerified })).emailVerified;
        }),
      );
      expect(times).toEqual([null, new Date('2026-01-02T03:04:05.678Z'), domain.clock.now()]);
    });

    it('stores the email trimmed and lower-cased', async () => {
      const user = await domain.users.create({ email: '  Alice@Example.COM ', password: PASSWORD });
      expect(user.email).toBe('alice@example.com');
      expect(await domain.users.get(user.id)).toEqual(user);
      expect((await domain.repositories.users.findByEmail('alice@example.com'))?.id).toBe(user.id);
    });

    it('stores a hash, never the password', async () => {
      const user = await domain.users.create({ email: 'alice@example.com', password: PASSWORD });
      expect(user.passwordHash).not.toBe(PASSWORD);
      expect(await domain.hasher.verify(PASSWORD, user.passwordHash)).toBe(true);
    });

    it('refuses an email already taken in any case with EmailTakenError', async () => {
      await domain.users.create({ email: 'alice@example.com', password: PASSWORD });
      await expect(domain.users.create({ email: 'ALICE@example.com ', password: PASSWORD })).rejects.toBeInstanceOf(
        EmailTakenError,
      );
    });

    it('lists every problem in one ValidationError and stores nothing', async () => {
      const sources = await issueSources(domain.users.create({ email: 'nope', password: 'short', active: 5 }));
      expect(sources).toEqual([pointerTo('email'), pointerTo('password'), pointerTo('active')]);
      expect((await domain.users.list({ page: 1, size: 10 })).total).toBe(0);
    });
  });

  describe('get() and delete()', () => {
    it('get() answers the stored user', async () => {
      const user = await domain.createUser();
      expect(await domain.users.get(user.id)).toEqual(user);
    });

    it('get() of an unknown id fails with NotFoundError', async () => {
      await expect(domain.users.get(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('delete() removes the user; a second delete fails with NotFoundError', async () => {
      const user = await domain.createUser();
      await domain.users.delete(user.id);
      await expect(domain.users.get(user.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(domain.users.delete(user.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('delete() ends every session of the user', async () => {
      const { user, grant } = await domain.signedInUser();
      await domain.users.delete(user.id);
      expect(await isOpen(grant.accessToken)).toBe(false);
      await expect(domain.userAuth.refresh(grant.refreshToken)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });

  describe('update()', () => {
    it('changes only the attributes sent and stamps updated', async () => {
      const user = await domain.createUser({ name: 'Alice', metadata: { theme: 'dark' } });
      domain.clock.advance(60);
      const updated = await domain.users.update(user.id, { name: 'Alicia' });
      expect(updated).toEqual({ ...user, name: 'Alicia', updated: domain.clock.now(), version: 2 });
      expect(await domain.users.get(user.id)).toEqual(updated);
    });

    it('replaces metadata and app whole', async () => {
      const user = await domain.createUser({ metadata: { a: 1, b: 2 }, app: { roles: ['reader'] } });
      const updated = await domain.users.update(user.id, { metadata: { c: 3 }, app: {} });
      expect([updated.metadata, updated.app]).toEqual([{ c: 3 }, {}]);
    });

    it('hashes a new password', async () => {
      const user = await domain.createUser();
      const updated = await domain.users.update(user.id, { password: 'a brand new password' });
      expect(await domain.hasher.verify('a brand new password', updated.passwordHash)).toBe(true);
    });

    it('normalises a new email, and refuses one another user has in any case', async () => {
      const user = await domain.createUser();
      await domain.createUser({ email: 'taken@example.com' });
      expect((await domain.users.update(user.id, { email: ' Fresh@Example.com' })).email).toBe('fresh@example.com');
      await expect(domain.users.update(user.id, { email: 'TAKEN@example.com' })).rejects.toBeInstanceOf(
        EmailTakenError,
      );
      expect((await domain.users.get(user.id)).email).toBe('fresh@example.com');
    });

    it('keeps the verification of a changed email unless the change states it; true keeps its time', async () => {
      const user = await domain.createUser();
      domain.clock.advance(60);
      expect((await domain.users.update(user.id, { email: 'moved@example.com' })).emailVerified).toEqual(user.created);
      expect((await domain.users.update(user.id, { emailVerified: true })).emailVerified).toEqual(user.created);
      expect((await domain.users.update(user.id, { emailVerified: false })).emailVerified).toBeNull();
      expect((await domain.users.update(user.id, { emailVerified: true })).emailVerified).toEqual(domain.clock.now());
    });

    it('refuses a verification that is neither true, false nor an ISO 8601 UTC timestamp', async () => {
      const user = await domain.createUser();
      const error = await rejectionOf(domain.users.update(user.id, { emailVerified: 'yesterday' }), ValidationError);
      expect(error.issues).toEqual([
        {
          source: { pointer: '/data/attributes/email_verified' },
          detail: 'email_verified must be true, false or an ISO 8601 UTC timestamp',
        },
      ]);
    });

    it('lists every problem in one ValidationError and changes nothing', async () => {
      const user = await domain.createUser();
      const sources = await issueSources(domain.users.update(user.id, { name: 'ok', password: 'short', active: 7 }));
      expect(sources).toEqual([pointerTo('password'), pointerTo('active')]);
      expect(await domain.users.get(user.id)).toEqual(user);
    });

    it('of an unknown id fails with NotFoundError', async () => {
      await expect(domain.users.update(UNKNOWN_ID, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('applies only when the stored version is one of those given, and otherwise changes nothing', async () => {
      const user = await domain.createUser({ name: 'Alice' });
      await expect(
        domain.users.update(user.id, { name: 'Stale' }, { ifVersion: [user.version + 1] }),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(await domain.users.get(user.id)).toEqual(user);
      const updated = await domain.users.update(user.id, { name: 'Fresh' }, { ifVersion: [7, user.version] });
      expect(updated).toMatchObject({ name: 'Fresh', version: user.version + 1 });
    });

    it('of two concurrent updates of different attributes keeps both', async () => {
      const user = await domain.createUser({ name: 'Alice', metadata: { theme: 'dark' } });
      await Promise.all([
        domain.users.update(user.id, { name: 'Alicia' }),
        domain.users.update(user.id, { metadata: { theme: 'light' } }),
      ]);
      expect(await domain.users.get(user.id)).toMatchObject({
        name: 'Alicia',
        metadata: { theme: 'light' },
        version: 3,
      });
    });

    it.each([
      ['a new password', { password: 'a brand new password' }],
      ['a new email', { email: 'moved@example.com' }],
    ])('%s ends every session of the user except the one kept', async (_case, patch) => {
      const { user, grant: first } = await domain.signedInUser();
      const second = await domain.userLogin(user.email, PASSWORD, '198.51.100.1');
      const kept = await domain.userLogin(user.email, PASSWORD, '198.51.100.2');
      await domain.users.update(user.id, patch, { keepSessionId: kept.sessionId });
      expect(await isOpen(first.accessToken)).toBe(false);
      expect(await isOpen(second.accessToken)).toBe(false);
      expect(await isOpen(kept.accessToken)).toBe(true);
    });

    it('a new password or deactivation without a kept session ends them all', async () => {
      const one = await domain.signedInUser();
      const two = await domain.signedInUser();
      await domain.users.update(one.user.id, { password: 'a brand new password' });
      await domain.users.update(two.user.id, { active: 0 });
      expect(await isOpen(one.grant.accessToken)).toBe(false);
      expect(await isOpen(two.grant.accessToken)).toBe(false);
    });

    it("other changes keep the user's sessions open", async () => {
      const { user, grant } = await domain.signedInUser({ active: 1 });
      await domain.users.update(user.id, {
        name: 'New name',
        email: user.email.toUpperCase(),
        metadata: { x: 1 },
        app: { y: 2 },
        active: 1,
      });
      expect(await isOpen(grant.accessToken)).toBe(true);
    });

    it("ends no other user's sessions", async () => {
      const alice = await domain.signedInUser();
      const bob = await domain.signedInUser();
      await domain.users.update(alice.user.id, { active: 0 });
      expect(await isOpen(bob.grant.accessToken)).toBe(true);
    });
  });

  describe('list()', () => {
    it('passes the search term to the repository trimmed and lower-cased', async () => {
      const list = vi.spyOn(domain.repositories.users, 'list');
      await domain.users.list({ page: 2, size: 5, emailContains: '  Alice@EX ' });
      expect(list).toHaveBeenCalledWith({ page: 2, size: 5, emailContains: 'alice@ex' });
    });

    it('drops a blank search term', async () => {
      const list = vi.spyOn(domain.repositories.users, 'list');
      await domain.users.list({ page: 1, size: 20, emailContains: '   ' });
      expect(list).toHaveBeenCalledWith({ page: 1, size: 20, emailContains: undefined });
    });

    it('answers the matching page and total', async () => {
      await domain.createUser({ email: 'alice@example.com' });
      await domain.createUser({ email: 'malice@example.com' });
      await domain.createUser({ email: 'bob@example.com' });
      const page = await domain.users.list({ page: 1, size: 1, emailContains: ' ALICE ' });
      expect(page.total).toBe(2);
      expect(page.users.map((user) => user.email)).toEqual(['alice@example.com']);
    });
  });
});
