import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { EmailNotVerifiedError, ForbiddenError, SignupDisabledError, ValidationError } from '../shared/errors.ts';
import { buildDomain, PASSWORD, PUBLIC_URL, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import type { User } from '../users/user.ts';

const EMAIL = 'newcomer@example.com';

describe('SignupService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const usersNamed = async (email: string) =>
    (await domain.repositories.users.list({ page: 1, size: 100 })).users.filter((user) => user.email === email);
  const mailCount = async () => (await domain.repositories.mail.list({ page: 1, size: 100 })).total;

  it('signUp() makes an unverified account and mails it a link to /account/verify, with a user.signed_up event', async () => {
    await domain.signup.signUp({
      email: ' NewComer@Example.com ',
      password: PASSWORD,
      name: 'New',
      metadata: { a: 1 },
    });
    const [user] = await usersNamed(EMAIL);
    expect(user).toMatchObject({ name: 'New', metadata: { a: 1 }, app: {}, active: 1, emailVerified: null });
    const [text] = await domain.mailTexts('verification', EMAIL);
    expect(text).toContain(`${PUBLIC_URL}account/verify?token=`);
    const { events } = await domain.repositories.audit.list({ page: 1, size: 10 });
    expect(events.find((event) => event.action === 'user.signed_up')?.actor.id).toBe(user!.id);
  });

  it('the account cannot log in until its address is verified (EMAIL_VERIFICATION=required)', async () => {
    await domain.signup.signUp({ email: EMAIL, password: PASSWORD });
    await rejectionOf(domain.userLogin(EMAIL, PASSWORD, '203.0.113.7'), EmailNotVerifiedError);
    await domain.verification.verify(await domain.mailedToken('verification', EMAIL));
    expect((await domain.userLogin(EMAIL, PASSWORD, '203.0.113.7')).accessToken).toBeTruthy();
  });

  it('an address that has an account gets a notice to its owner, no second account and no token', async () => {
    const owner: User = await domain.createUser({ email: EMAIL });
    await domain.signup.signUp({ email: EMAIL, password: 'another password' });
    expect(await usersNamed(EMAIL)).toHaveLength(1);
    expect(await domain.mailTexts('signup_existing', EMAIL)).toHaveLength(1);
    expect(await domain.mailTexts('verification', EMAIL)).toHaveLength(0);
    expect((await domain.users.get(owner.id)).passwordHash).toBe(owner.passwordHash);
  });

  it('hashes the password on both paths, so a known address takes as long as a new one', async () => {
    const hashed: string[] = [];
    const hash = domain.hasher.hash.bind(domain.hasher);
    domain.hasher.hash = async (password: string) => {
      hashed.push(password);
      return hash(password);
    };
    await domain.createUser({ email: 'known@example.com' });
    hashed.length = 0;
    await domain.signup.signUp({ email: 'known@example.com', password: 'first password' });
    await domain.signup.signUp({ email: EMAIL, password: 'second password' });
    expect(hashed).toEqual(['first password', 'second password']);
  });

  it('concurrent sign-ups of one new address make exactly one account, with exactly one link', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => domain.signup.signUp({ email: EMAIL, password: PASSWORD })),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await usersNamed(EMAIL)).toHaveLength(1);
    expect(await domain.mailTexts('verification', EMAIL)).toHaveLength(1);
  });

  it.each(['app', 'active', 'email_verified'])(
    '%s is refused whole with ForbiddenError, nothing made',
    async (name) => {
      const attempt = domain.signup.signUp({ email: EMAIL, password: PASSWORD, [name]: name === 'active' ? 1 : {} });
      expect((await rejectionOf(attempt, ForbiddenError)).message).toContain(name);
      expect(await usersNamed(EMAIL)).toHaveLength(0);
      expect(await mailCount()).toBe(0);
    },
  );

  it('refuses a bad address or password with the validation rules of an admin create', async () => {
    const error = await rejectionOf(
      domain.signup.signUp({ email: 'not-an-address', password: 'short' }),
      ValidationError,
    );
    expect(error.issues.map((issue) => issue.source)).toEqual([
      { pointer: '/data/attributes/email' },
      { pointer: '/data/attributes/password' },
    ]);
  });

  it.each(['invite-only', 'closed'] as const)(
    'SIGNUP=%s refuses every sign-up with SignupDisabledError',
    async (mode) => {
      domain = buildDomain({ signup: mode });
      await rejectionOf(domain.signup.signUp({ email: EMAIL, password: PASSWORD }), SignupDisabledError);
      expect(await usersNamed(EMAIL)).toHaveLength(0);
    },
  );

  it('a second sign-up of a new address within the minute makes no second message (send limits)', async () => {
    await domain.signup.signUp({ email: EMAIL, password: PASSWORD });
    await domain.signup.signUp({ email: EMAIL, password: PASSWORD });
    expect(await domain.mailTexts('verification', EMAIL)).toHaveLength(1);
    expect(await domain.mailTexts('signup_existing', EMAIL)).toHaveLength(1);
    await domain.signup.signUp({ email: EMAIL, password: PASSWORD });
    expect(await domain.mailTexts('signup_existing', EMAIL)).toHaveLength(1);
  });
});
