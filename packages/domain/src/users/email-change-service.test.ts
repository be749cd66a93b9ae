import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { TooManyAttemptsError, ValidationError } from '../shared/errors.ts';
import { buildDomain, PASSWORD, POLICY, PUBLIC_URL, rejectionOf, type Domain } from '../testing/domain-fixture.ts';

const NEW_EMAIL = 'moved@example.com';

describe('EmailChangeService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  it('request() mails a link to the new address and a notice to the current one; the email stays until confirmed', async () => {
    const { user, identity } = await domain.signedInUser();
    await domain.emailChange.request(identity, { email: ' Moved@Example.com', current_password: PASSWORD });
    const [link] = await domain.mailTexts('email_change', NEW_EMAIL);
    expect(link).toContain(`${PUBLIC_URL}account/confirm-email?token=`);
    expect(await domain.mailTexts('email_change_notice', user.email)).toHaveLength(1);
    expect((await domain.users.get(user.id)).email).toBe(user.email);
    const { events } = await domain.repositories.audit.list({ page: 1, size: 10 });
    expect(events[0]).toMatchObject({
      action: 'user.email_change_requested',
      changes: { email: { before: user.email, after: NEW_EMAIL } },
    });
  });

  it('says nothing of an address that another account has: the request is made all the same', async () => {
    const { identity } = await domain.signedInUser();
    await domain.createUser({ email: NEW_EMAIL });
    await domain.emailChange.request(identity, { email: NEW_EMAIL, current_password: PASSWORD });
    expect(await domain.mailTexts('email_change', NEW_EMAIL)).toHaveLength(1);
  });

  it('refuses a wrong or missing current password as a password change does, at /current_password, nothing mailed', async () => {
    const { identity } = await domain.signedInUser();
    for (const current_password of ['wrong password', undefined, 42]) {
      const error = await rejectionOf(
        domain.emailChange.request(identity, { email: NEW_EMAIL, current_password }),
        ValidationError,
      );
      expect(error.issues).toEqual([
        { source: { pointer: '/current_password' }, detail: 'current_password is missing or wrong' },
      ]);
    }
    expect(await domain.mailTexts('email_change', NEW_EMAIL)).toHaveLength(0);
  });

  it('throttles current_password guesses under the per-account limit of a password change', async () => {
    const { identity } = await domain.signedInUser();
    const { limit } = POLICY.throttle.perAccountAndAddress;
    for (let n = 0; n < limit; n += 1) {
      await rejectionOf(
        domain.emailChange.request(identity, { email: NEW_EMAIL, current_password: 'nope nope' }),
        ValidationError,
      );
    }
    await rejectionOf(
      domain.emailChange.request(identity, { email: NEW_EMAIL, current_password: PASSWORD }),
      TooManyAttemptsError,
    );
  });

  it('refuses an invalid address, or the address the account has', async () => {
    const { user, identity } = await domain.signedInUser();
    for (const email of ['not an address', user.email.toUpperCase(), undefined]) {
      const error = await rejectionOf(
        domain.emailChange.request(identity, { email, current_password: PASSWORD }),
        ValidationError,
      );
      expect(error.issues[0]?.source).toEqual({ pointer: '/email' });
    }
  });
});
