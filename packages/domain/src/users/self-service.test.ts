import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { ForbiddenError, InvalidCredentialsError, TooManyAttemptsError, ValidationError } from '../shared/errors.ts';
import {
  ADDRESS,
  buildDomain,
  issueSources,
  OTHER_ADDRESS,
  PASSWORD,
  POLICY,
  pointerTo,
  rejectionOf,
  type Domain,
} from '../testing/domain-fixture.ts';
import { adminOnlyAttributes } from './self-service.ts';

const NEW_PASSWORD = 'a brand new password';

describe('SelfService', () => {
  let domain: Domain;
  let signedIn: Awaited<ReturnType<Domain['signedInUser']>>;
  beforeEach(async () => {
    domain = buildDomain();
    signedIn = await domain.signedInUser({
      name: 'Alice',
      metadata: { theme: 'dark', lang: 'en' },
      app: { roles: ['reader'] },
    });
  });

  const stored = () => domain.users.get(signedIn.user.id);

  it('me() answers the account of the token', async () => {
    expect(await domain.self.me(signedIn.identity)).toEqual(signedIn.user);
  });

  it('changes name and metadata, replacing metadata whole, and keeps the session open', async () => {
    const updated = await domain.self.update(signedIn.identity, { name: 'Alicia', metadata: { lang: 'pl' } });
    expect(updated).toMatchObject({ name: 'Alicia', metadata: { lang: 'pl' }, app: { roles: ['reader'] } });
    expect(await stored()).toEqual(updated);
    expect(await domain.isOpen(signedIn.grant.accessToken)).toBe(true);
  });

  it('puts the new name and metadata into the next token issued', async () => {
    await domain.self.update(signedIn.identity, { name: 'Alicia', metadata: { lang: 'pl' } });
    const next = await domain.userAuth.refresh(signedIn.grant.refreshToken);
    expect(await domain.claimsOf(next.accessToken)).toMatchObject({ name: 'Alicia', metadata: { lang: 'pl' } });
  });

  it.each([
    ['app', { app: { roles: ['admin'] } }],
    ['active', { active: 0 }],
    ['email', { email: 'elsewhere@example.com' }],
    ['email_verified', { email_verified: false }],
    ['app alongside an allowed change', { name: 'Mallory', app: { roles: ['admin'] } }],
  ])('refuses %s with ForbiddenError and changes nothing', async (_case, patch) => {
    await expect(domain.self.update(signedIn.identity, patch)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await stored()).toEqual(signedIn.user);
  });

  it.each([
    ['without current_password', {}],
    ['with a wrong current_password', { current_password: 'not my password' }],
  ])('refuses a password change %s, pointing at /data/attributes/current_password', async (_case, proof) => {
    const sources = await issueSources(
      domain.self.update(signedIn.identity, { password: NEW_PASSWORD, name: 'Alicia', ...proof }),
    );
    expect(sources).toEqual([pointerTo('current_password')]);
    expect(await stored()).toEqual(signedIn.user);
  });

  it('throttles wrong current_password guesses, even a right one while throttled, until the window passes', async () => {
    const guess = (current_password: string) =>
      domain.self.update(signedIn.identity, { password: NEW_PASSWORD, current_password });
    const { limit, windowSeconds } = POLICY.throttle.perAccountAndAddress;
    for (let i = 0; i < limit; i += 1) await expect(guess(`guess ${i}`)).rejects.toBeInstanceOf(ValidationError);
    const throttled = await rejectionOf(guess(PASSWORD), TooManyAttemptsError);
    expect(throttled.message).toBe('Too many wrong current_password guesses; try again later.');
    domain.clock.advance(windowSeconds + 1);
    await expect(guess(PASSWORD)).resolves.toMatchObject({ id: signedIn.user.id });
  });

  it('with the right current_password, changes the password, ends the other sessions and keeps this one', async () => {
    const other = await domain.userLogin(signedIn.user.email, PASSWORD, OTHER_ADDRESS);
    await domain.self.update(signedIn.identity, { password: NEW_PASSWORD, current_password: PASSWORD });

    expect(await domain.isOpen(other.accessToken)).toBe(false);
    expect(await domain.isOpen(signedIn.grant.accessToken)).toBe(true);
    await expect(domain.userAuth.refresh(signedIn.grant.refreshToken)).resolves.toBeDefined();
    await expect(domain.userLogin(signedIn.user.email, PASSWORD, ADDRESS)).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    await expect(domain.userLogin(signedIn.user.email, NEW_PASSWORD, ADDRESS)).resolves.toBeDefined();
  });

  it('applies the password rules to the new password once the current one is proven', async () => {
    const sources = await issueSources(
      domain.self.update(signedIn.identity, { password: 'short', current_password: PASSWORD }),
    );
    expect(sources).toEqual([pointerTo('password')]);
  });

  it('ignores current_password sent without a new password', async () => {
    const updated = await domain.self.update(signedIn.identity, { name: 'Alicia', current_password: 'anything' });
    expect(updated.name).toBe('Alicia');
    expect(updated.passwordHash).toBe(signedIn.user.passwordHash);
  });
});

describe('adminOnlyAttributes', () => {
  it('lists the admin-only attributes present, in a stable order', () => {
    expect(adminOnlyAttributes({ active: 1, name: 'x', app: {}, email: 'a@b.co', email_verified: true })).toEqual([
      'email',
      'email_verified',
      'app',
      'active',
    ]);
    expect(adminOnlyAttributes({ name: 'x', metadata: {}, password: 'p', current_password: 'q' })).toEqual([]);
  });
});

describe('SelfService notices', () => {
  it('a new password sends a password_changed notice to the account, in the transaction of the change', async () => {
    const domain = buildDomain();
    const { user, identity } = await domain.signedInUser();
    await domain.self.update(identity, { password: 'a brand new password', current_password: PASSWORD });
    const [notice] = await domain.mailTexts('password_changed', user.email);
    expect(notice).toContain(user.email);
    expect(notice).not.toContain('a brand new password');
  });

  it('a refused password change sends no notice; a change of name sends none either', async () => {
    const domain = buildDomain();
    const { user, identity } = await domain.signedInUser();
    await domain.self
      .update(identity, { password: 'a brand new password', current_password: 'wrong one' })
      .catch(() => {});
    await domain.self.update(identity, { name: 'Renamed' });
    expect(await domain.mailTexts('password_changed', user.email)).toHaveLength(0);
  });
});
