import { beforeEach, describe, expect, it, vi } from '../testing/test-api.ts';
import { InvalidCredentialsError, ValidationError } from '../shared/errors.ts';
import { ADDRESS, ADMIN, buildDomain, issueSources, pointerTo, type Domain } from '../testing/domain-fixture.ts';
import { DEFAULT_ADMIN_NAME } from './admin-service.ts';

describe('AdminService.applyCredentials()', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  it('creates the admin on the first call', async () => {
    expect(await domain.repositories.admins.findFirst()).toBeNull();
    const admin = await domain.admins.applyCredentials({ email: ' Admin@Example.com ', password: ADMIN.password });
    expect(admin).toEqual({
      id: expect.any(String),
      name: DEFAULT_ADMIN_NAME,
      email: 'admin@example.com',
      passwordHash: expect.any(String),
      role: 'owner',
      created: domain.clock.now(),
      updated: domain.clock.now(),
      keyFileStamp: null,
    });
    expect(await domain.hasher.verify(ADMIN.password, admin.passwordHash)).toBe(true);
    expect(await domain.repositories.admins.findFirst()).toEqual(admin);
  });

  it('takes the name from the credentials when given', async () => {
    expect((await domain.admins.applyCredentials({ ...ADMIN, name: 'Root' })).name).toBe('Root');
  });

  it('changes nothing when the credentials are the same, the email in any case', async () => {
    const created = await domain.admins.applyCredentials(ADMIN);
    const { grant } = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password);
    domain.clock.advance(60);
    const again = await domain.admins.applyCredentials({ ...ADMIN, email: ADMIN.email.toUpperCase() });
    expect(again).toEqual(created);
    expect(await domain.repositories.admins.findFirst()).toEqual(created);
    expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(true);
  });

  it.each([
    ['a new password', { ...ADMIN, password: 'another-admin-password' }],
    ['a new email', { ...ADMIN, email: 'root@example.com' }],
  ])("applies %s, stamps updated, and ends the admin's sessions", async (_case, credentials) => {
    const created = await domain.admins.applyCredentials(ADMIN);
    const { grant } = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password);
    domain.clock.advance(60);
    const updated = await domain.admins.applyCredentials(credentials);

    expect(updated).toMatchObject({
      id: created.id,
      email: credentials.email,
      created: created.created,
      updated: domain.clock.now(),
    });
    expect(await domain.repositories.admins.findFirst()).toEqual(updated);
    expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(false);
    await expect(domain.adminLogin(credentials.email, credentials.password, ADDRESS)).resolves.toBeDefined();
  });

  it('refuses the old password after a reset', async () => {
    await domain.admins.applyCredentials(ADMIN);
    await domain.admins.applyCredentials({ ...ADMIN, password: 'another-admin-password' });
    await expect(domain.adminLogin(ADMIN.email, ADMIN.password, ADDRESS)).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
  });

  it('renames the admin without ending its sessions', async () => {
    await domain.admins.applyCredentials(ADMIN);
    const { grant } = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password);
    expect((await domain.admins.applyCredentials({ ...ADMIN, name: 'Root' })).name).toBe('Root');
    expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(true);
  });

  it('refuses an invalid email and a short password with one ValidationError, and stores nothing', async () => {
    const sources = await issueSources(domain.admins.applyCredentials({ email: 'not-an-email', password: 'short' }));
    expect(sources).toEqual([pointerTo('email'), pointerTo('password')]);
    expect(await domain.repositories.admins.findFirst()).toBeNull();
  });

  describe("with the key file's stamp", () => {
    it('checks no password when the stamp is that of the file last applied', async () => {
      await domain.admins.applyCredentials(ADMIN, 'file-1');
      const verify = vi.spyOn(domain.hasher, 'verify');
      const again = await domain.admins.applyCredentials(ADMIN, 'file-1');
      expect(verify.mock.calls).toHaveLength(0);
      expect(again).toEqual(await domain.repositories.admins.findFirst());
    });

    it('checks the password again, and remembers the new stamp, when the stamp differs or is unknown', async () => {
      const created = await domain.admins.applyCredentials(ADMIN, null);
      const verify = vi.spyOn(domain.hasher, 'verify');
      domain.clock.advance(60);
      const stamped = await domain.admins.applyCredentials(ADMIN, 'file-2');
      expect(verify.mock.calls).toHaveLength(1);
      expect(stamped).toEqual({ ...created, keyFileStamp: 'file-2' });
      expect(await domain.repositories.admins.findFirst()).toEqual(stamped);
      await domain.admins.applyCredentials(ADMIN, null);
      expect(verify.mock.calls).toHaveLength(2);
    });

    it('applies an edited file (another stamp) and remembers its stamp', async () => {
      await domain.admins.applyCredentials(ADMIN, 'file-1');
      const { grant } = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password);
      const reset = await domain.admins.applyCredentials({ ...ADMIN, password: 'another-admin-password' }, 'file-2');
      expect(reset.keyFileStamp).toBe('file-2');
      expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(false);
      await expect(domain.adminLogin(ADMIN.email, ADMIN.password, ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    });
  });

  it('refuses invalid credentials for an existing admin and keeps the old ones', async () => {
    const created = await domain.admins.applyCredentials(ADMIN);
    await expect(domain.admins.applyCredentials({ ...ADMIN, password: 'p'.repeat(73) })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await domain.repositories.admins.findFirst()).toEqual(created);
  });
});
