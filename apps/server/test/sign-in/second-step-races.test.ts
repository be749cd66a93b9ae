import { SECOND_FACTOR_RULES } from '@uas/domain';
import { generateSync } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';

const PASSWORD = 'second-step-race-1';
const PERIOD = SECOND_FACTOR_RULES.totp.periodSeconds;

/**
 * The races of the second step, across two instances of the real application over one
 * database (each its own connections and caches): every round sends one answer to each instance
 * at once, and exactly one may open a session.
 */
describe.each(BACKENDS)('second-step races on %s, across two instances', (backend) => {
  const two = twoInstances(backend);
  beforeAll(() => {
    // One time for both, as two servers synchronised by NTP: a code is of the same step on each.
    two.b.clock.advance((two.a.clock.now().getTime() - two.b.clock.now().getTime()) / 1000);
  });

  const codeAt = (secret: string, secondsFromNow = 0) =>
    generateSync({ secret, epoch: Math.floor(two.a.clock.now().getTime() / 1000) + secondsFromNow });

  /**
   * A new user with an active TOTP factor, enrolled through the routes. The enrolment is verified
   * with the previous step's code (within the allowed drift), so the current step is still unused.
   */
  async function userWithTotp(name: string) {
    const email = `${name}-${backend}-${crypto.randomUUID()}@example.com`;
    const user = await two.clientA.createUser({ email, password: PASSWORD });
    const { accessToken } = await two.clientA.userSession(email, PASSWORD);
    const enrolled = await two.clientA.send(
      'POST',
      '/v1/users/me/factors',
      { data: { type: 'factors', attributes: { kind: 'totp' } } },
      accessToken,
    );
    expect(enrolled.status).toBe(201);
    const { data } = await enrolled.json();
    const secret: string = data.attributes.secret;
    const verified = await two.clientA.send(
      'POST',
      `/v1/users/me/factors/${data.id}/verify`,
      { code: codeAt(secret, -PERIOD) },
      accessToken,
    );
    expect(verified.status).toBe(200);
    const recoveryCodes: string[] = (await verified.json()).data.attributes.recovery_codes;
    return { id: user.id, email, secret, recoveryCodes };
  }

  /** The password step on `client`: the challenge's handle. */
  async function challenge(client: AdminClient, email: string): Promise<string> {
    const response = await client.login(email, PASSWORD, {}, '/v1/login');
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.type).toBe('mfa_challenges');
    return data.id;
  }

  const answer = (client: AdminClient, handle: string, code: string) =>
    client.send('POST', '/v1/login/mfa', { challenge: handle, code });

  /** The account's unused recovery codes, as an admin sees them. */
  async function codesLeft(id: string): Promise<number> {
    const listed = await two.clientB.get(`/v1/admin/users/${id}/factors`, await two.clientB.adminToken());
    expect(listed.status).toBe(200);
    return (await listed.json()).meta.recovery_codes_left;
  }

  /** A round's two answers: their statuses, error codes and how many opened a session. */
  async function outcomeOf(responses: Response[]) {
    const answered = await Promise.all(
      responses.map(async (response) => {
        const body = await response.json();
        return response.status === 200 ? '200 session' : `${response.status} ${body.errors[0].code}`;
      }),
    );
    return { answered, sessions: answered.filter((each) => each === '200 session').length };
  }

  it(`one TOTP code sent to both instances at once, each for its own challenge: exactly one session, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const user = await userWithTotp('totp-race');
      const [first, second] = await Promise.all([
        challenge(two.clientA, user.email),
        challenge(two.clientB, user.email),
      ]);
      const code = codeAt(user.secret);
      return outcomeOf(await Promise.all([answer(two.clientA, first, code), answer(two.clientB, second, code)]));
    });
    console.info(`one TOTP code twice at once, two instances (${backend}):`, {
      sessions: tally(outcomes.map((outcome) => outcome.sessions)),
      answers: tally(outcomes.flatMap((outcome) => outcome.answered)),
    });
    expect(outcomes.filter((outcome) => outcome.sessions !== 1)).toEqual([]);
    expect(outcomes.filter((outcome) => !outcome.answered.includes('401 invalid_second_factor'))).toEqual([]);
  }, 120_000);

  it(`one recovery code sent to both instances at once, each for its own challenge: exactly one session, one code used, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const user = await userWithTotp('recovery-race');
      const [first, second] = await Promise.all([
        challenge(two.clientA, user.email),
        challenge(two.clientB, user.email),
      ]);
      const [code] = user.recoveryCodes;
      const outcome = await outcomeOf(
        await Promise.all([answer(two.clientA, first, code!), answer(two.clientB, second, code!)]),
      );
      return { ...outcome, used: user.recoveryCodes.length - (await codesLeft(user.id)) };
    });
    console.info(`one recovery code twice at once, two instances (${backend}):`, {
      sessions: tally(outcomes.map((outcome) => outcome.sessions)),
      'codes used': tally(outcomes.map((outcome) => outcome.used)),
      answers: tally(outcomes.flatMap((outcome) => outcome.answered)),
    });
    expect(outcomes.filter((outcome) => outcome.sessions !== 1 || outcome.used !== 1)).toEqual([]);
  }, 120_000);

  it(`one challenge answered on both instances at once with two right recovery codes: exactly one session, and the loser's code not used, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const user = await userWithTotp('challenge-race');
      const handle = await challenge(two.clientA, user.email);
      const [one, other] = user.recoveryCodes;
      const outcome = await outcomeOf(
        await Promise.all([answer(two.clientA, handle, one!), answer(two.clientB, handle, other!)]),
      );
      return { ...outcome, used: user.recoveryCodes.length - (await codesLeft(user.id)) };
    });
    console.info(`one challenge completed twice at once, two instances (${backend}):`, {
      sessions: tally(outcomes.map((outcome) => outcome.sessions)),
      'codes used': tally(outcomes.map((outcome) => outcome.used)),
      answers: tally(outcomes.flatMap((outcome) => outcome.answered)),
    });
    // The challenge is taken before an answer is proved: the losing answer's code stays unused.
    expect(outcomes.filter((outcome) => outcome.sessions !== 1 || outcome.used !== 1)).toEqual([]);
    expect(outcomes.filter((outcome) => !outcome.answered.includes('401 invalid_challenge'))).toEqual([]);
  }, 120_000);
});
