import { describe, expect, it } from 'vitest';
import { usersDocument } from '@uas/adapters-http/testing';
import type { AdminClient } from '../support/admin-client';
import { mailedToken, outboxIds } from '../support/outbox';
import { loadConfig } from '../../src/config';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';

const PASSWORD = 'race password 1';

/**
 * Two instances of the real application over one database (each its own connections, caches and
 * clock), as two processes behind a load balancer: every race sends one request to each.
 */
describe.each(BACKENDS)('account flow races on %s, across two instances', (backend) => {
  const two = twoInstances(backend, { MAIL_REQUESTS_PER_MINUTE: '100000', MAIL_HOURLY_LIMIT: '100000' });
  /** Every mailed token the races used: none may be stored, logged or audited. */
  const tokens: string[] = [];

  const signUp = (client: AdminClient, email: string) =>
    client.send('POST', '/v1/signup', usersDocument({ email, password: PASSWORD }));
  const verify = (client: AdminClient, token: string) => client.send('POST', '/v1/verify', { token });

  it(`one verification token posted to both instances at once: exactly one 204, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `verify-race-${backend}-${index}@example.com`;
      expect((await signUp(two.clientA, email)).status).toBe(202);
      const token = await mailedToken(two.clientA, 'verification', email);
      tokens.push(token);
      const answers = await Promise.all([verify(two.clientA, token), verify(two.clientB, token)]);
      return answers.map((answer) => answer.status).sort();
    });
    console.info(`verification token twice at once (${backend}):`, tally(outcomes.flat()));
    expect(outcomes.filter((statuses) => statuses.join() !== '204,400')).toEqual([]);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 120_000);

  it(`concurrent sign-ups of one new address on both instances: exactly one account, one link, no 500, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `signup-race-${backend}-${index}@example.com`;
      const answers = await Promise.all([
        signUp(two.clientA, email),
        signUp(two.clientB, email),
        signUp(two.clientA, email),
        signUp(two.clientB, email),
      ]);
      const found = await two.clientA.get(`/v1/admin/users?search[email]=${email}`, await two.clientA.adminToken());
      const { meta } = (await found.json()) as { meta: { total: number } };
      return {
        statuses: answers.map((answer) => answer.status),
        accounts: meta.total,
        links: (await outboxIds(two.clientA, 'verification', email)).length,
      };
    });
    console.info(`sign-ups of one address, 4 at once (${backend}):`, {
      statuses: tally(outcomes.flatMap((outcome) => outcome.statuses)),
      accounts: tally(outcomes.map((outcome) => outcome.accounts)),
      links: tally(outcomes.map((outcome) => outcome.links)),
    });
    expect(outcomes.filter((outcome) => outcome.statuses.some((status) => status !== 202))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.accounts !== 1 || outcome.links !== 1)).toEqual([]);
  }, 120_000);

  it(`one email-change token confirmed on both instances at once: exactly one 204, the email changed once, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `change-race-${backend}-${index}@example.com`;
      const target = `changed-race-${backend}-${index}@example.com`;
      await two.clientA.createUser({ email });
      const session = await two.clientA.userSession(email);
      const asked = await two.clientA.send(
        'POST',
        '/v1/users/me/email',
        { email: target, current_password: 'user-password-1' },
        session.accessToken,
      );
      expect(asked.status).toBe(202);
      const token = await mailedToken(two.clientA, 'email_change', target);
      tokens.push(token);
      const answers = await Promise.all([verify(two.clientA, token), verify(two.clientB, token)]);
      const found = await two.clientB.get(`/v1/admin/users?search[email]=${target}`, await two.clientB.adminToken());
      return {
        statuses: answers.map((answer) => answer.status).sort(),
        moved: ((await found.json()) as { meta: { total: number } }).meta.total,
      };
    });
    console.info(
      `email-change token twice at once (${backend}):`,
      tally(outcomes.flatMap((outcome) => outcome.statuses)),
    );
    expect(outcomes.filter((outcome) => outcome.statuses.join() !== '204,400' || outcome.moved !== 1)).toEqual([]);
  }, 120_000);

  it(`a reset racing the confirmation of an email change of the same user: exactly one wins, the other's link is void, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const email = `reset-race-${backend}-${index}@example.com`;
      const target = `reset-moved-${backend}-${index}@example.com`;
      const user = await two.clientA.createUser({ email });
      const session = await two.clientA.userSession(email);
      await two.clientA.send(
        'POST',
        '/v1/users/me/email',
        { email: target, current_password: 'user-password-1' },
        session.accessToken,
      );
      const changeToken = await mailedToken(two.clientA, 'email_change', target);
      const handed = await two.clientA.request(`/v1/admin/users/${user.id}/recovery?delivery=link`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${await two.clientA.adminToken()}` },
      });
      expect(handed.status).toBe(201);
      const resetToken =
        new URL(
          ((await handed.json()) as { data: { attributes: { link: string } } }).data.attributes.link,
        ).searchParams.get('token') ?? '';
      tokens.push(changeToken, resetToken);
      // The reset hashes its password before its transaction: the confirmation starts a little
      // later, by a varying delay, so that either may commit first.
      const [reset, confirmed] = await Promise.all([
        two.clientA.send('POST', '/v1/reset-password', { token: resetToken, password: 'a reset password 1' }),
        new Promise((resolve) => setTimeout(resolve, index % 6)).then(() => verify(two.clientB, changeToken)),
      ]);
      // What the account is now: which address and which password open it.
      const opens = async (address: string, password: string) =>
        (await two.clientB.login(address, password, {}, '/v1/login')).status === 200;
      const state = {
        oldAddressNewPassword: await opens(email, 'a reset password 1'),
        newAddressOldPassword: await opens(target, 'user-password-1'),
      };
      return { reset: reset.status, confirmed: confirmed.status, ...state };
    });
    const winner = (outcome: (typeof outcomes)[number]) =>
      outcome.reset === 204 &&
      outcome.confirmed === 400 &&
      outcome.oldAddressNewPassword &&
      !outcome.newAddressOldPassword
        ? 'reset'
        : outcome.confirmed === 204 &&
            outcome.reset === 400 &&
            outcome.newAddressOldPassword &&
            !outcome.oldAddressNewPassword
          ? 'email change'
          : 'inconsistent';
    const counted = outcomes.map(winner);
    console.info(`reset racing an email-change confirmation (${backend}):`, {
      'reset won': counted.filter((each) => each === 'reset').length,
      'email change won': counted.filter((each) => each === 'email change').length,
      inconsistent: counted.filter((each) => each === 'inconsistent').length,
    });
    expect(outcomes.filter((outcome) => winner(outcome) === 'inconsistent')).toEqual([]);
  }, 180_000);

  it('no token of theirs is in the database (the SQLite WAL included), an audit event or a log line', async () => {
    expect(tokens).toHaveLength(4 * ROUNDS);
    const stored = await storedData(loadConfig(two.a.env));
    expect(stored).toContain('verify-race-'); // the search reads the stored rows
    const logged = [...two.a.logs, ...two.b.logs].join('\n');
    const found = tokens.filter((token) => stored.includes(token) || logged.includes(token));
    expect(found).toEqual([]);
  });
});
