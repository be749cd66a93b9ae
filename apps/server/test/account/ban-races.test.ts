import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';

const PASSWORD = 'user-password-1';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/**
 * A ban sent to one instance while the user logs in on the other, as two processes behind a load
 * balancer over one database: whichever commits first, the user must not end up with a working
 * session once both have answered.
 */
describe.each(BACKENDS)('ban racing a login on %s, across two instances', (backend) => {
  const two = twoInstances(backend);

  it(`a banned user never keeps a working session, ${ROUNDS} rounds`, async () => {
    const adminToken = await two.clientA.adminToken();
    // How long a login takes here, so the bans can be spread across that span.
    const { email: probe } = (await two.clientA.createUser({ email: `ban-race-probe-${backend}@example.com` }))
      .attributes;
    let span = 0;
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      await two.clientB.userSession(probe, PASSWORD);
      span = Math.max(span, performance.now() - started);
    }
    const outcomes = await rounds(async (index) => {
      const email = `ban-race-${backend}-${index}@example.com`;
      const user = await two.clientA.createUser({ email });
      const ban = () =>
        two.clientA.send('POST', `/v1/admin/users/${user.id}/ban`, { reason: 'race', until: null }, adminToken);
      const login = () => two.clientB.login(email, PASSWORD, {}, '/v1/login');
      // The two are sent up to a login's span apart, either first, spread over the rounds, so the
      // ban lands before the login reads the user, between that read and the session's opening,
      // or after.
      const offset = (span * ((index % 10) - 5)) / 5;
      const [loggedIn, banned] = await Promise.all([
        delay(Math.max(0, -offset)).then(login),
        delay(Math.max(0, offset)).then(ban),
      ]);
      expect(banned.status).toBe(200);
      const violations: string[] = [];
      if (loggedIn.status === 200) {
        const { access_token, refresh_token } = ((await loggedIn.json()) as { data: { attributes: Tokens } }).data
          .attributes;
        for (const client of [two.clientA, two.clientB]) {
          if ((await client.get('/v1/users/me', access_token)).status !== 401) violations.push('access token works');
        }
        if ((await two.clientA.refresh(refresh_token, '/v1/refresh')).status === 200) violations.push('refresh works');
      } else if (loggedIn.status !== 403) {
        violations.push(`login answered ${loggedIn.status}`);
      }
      return { login: loggedIn.status, violations };
    });
    console.info(`ban racing a login (${backend}):`, {
      logins: tally(outcomes.map((outcome) => outcome.login)),
      violations: outcomes.flatMap((outcome) => outcome.violations).length,
    });
    expect(outcomes.flatMap((outcome) => outcome.violations)).toEqual([]);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 180_000);
});
