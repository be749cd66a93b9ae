import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { InvalidCredentialsError, AccountInactiveError } from '../shared/errors.ts';
import { ADDRESS, buildDomain, PASSWORD, rejectionOf, type Domain } from '../testing/domain-fixture.ts';

describe('AuthService.login() with a hash from elsewhere', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  async function userWithHash(passwordHash: string, active: 0 | 1 = 1) {
    const user = await domain.createUser({ active });
    await domain.repositories.users.update(user.id, (current) => ({ user: { ...current, passwordHash } }));
    return user;
  }
  const storedHash = async (id: string) => (await domain.repositories.users.findById(id))?.passwordHash;

  it('logs in with the original password, then stores a hash of the configured kind', async () => {
    const user = await userWithHash(`legacy:${PASSWORD}`);
    await domain.userLogin(user.email, PASSWORD, ADDRESS);
    expect(await storedHash(user.id)).toBe(`plain:${PASSWORD}`);
    await domain.userLogin(user.email, PASSWORD, ADDRESS);
  });

  it('never rehashes before the password verified: a wrong one leaves the hash as it was', async () => {
    const user = await userWithHash(`legacy:${PASSWORD}`);
    await rejectionOf(domain.userLogin(user.email, 'wrong password', ADDRESS), InvalidCredentialsError);
    expect(await storedHash(user.id)).toBe(`legacy:${PASSWORD}`);
  });

  it('does not rehash for an inactive account, which gets no session', async () => {
    const user = await userWithHash(`legacy:${PASSWORD}`, 0);
    await rejectionOf(domain.userLogin(user.email, PASSWORD, ADDRESS), AccountInactiveError);
    expect(await storedHash(user.id)).toBe(`legacy:${PASSWORD}`);
  });

  it('leaves a hash of the configured kind untouched', async () => {
    const user = await domain.createUser();
    const before = await storedHash(user.id);
    await domain.userLogin(user.email, PASSWORD, ADDRESS);
    expect(await storedHash(user.id)).toBe(before);
  });

  it('keeps a password an admin set while the login was verifying the old one', async () => {
    const user = await userWithHash(`legacy:${PASSWORD}`);
    const { hasher } = domain;
    const verify = hasher.verify.bind(hasher);
    // The admin's change lands between the verify and the rehash.
    hasher.verify = async (password, hash) => {
      const result = await verify(password, hash);
      await domain.users.update(user.id, { password: 'set by the admin' });
      return result;
    };
    // The login itself is refused (its session would outlive the change); the rehash never happens.
    await rejectionOf(domain.userLogin(user.email, PASSWORD, ADDRESS), InvalidCredentialsError);
    expect(await storedHash(user.id)).toBe('plain:set by the admin');
  });
});
