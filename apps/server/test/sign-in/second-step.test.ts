import { SECOND_FACTOR_RULES, type StepUpProof, type SubjectKind } from '@uas/domain';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { REFRESH_COOKIE } from '@uas/adapters-http';
import { responseCookies } from '@uas/adapters-http/testing';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { sessionOf } from '../support/admin-api';
import { scenarioApplication } from '../support/scenario';
import { SoftwareAuthenticator } from '../../../../scripts/software-authenticator';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { claimsOf } from '../support/user-client';

const ORIGIN = 'http://localhost:3002';
const ENV = { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN };
const PASSWORD = 'second-step-password-1';
const PERIOD = SECOND_FACTOR_RULES.totp.periodSeconds;

/** The code an authenticator app shows now, by the application's clock (real otplib, RFC 6238). */
const codeAt = (t: TestApplication, secret: string) =>
  generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });

describe.each(BACKENDS)('the sign-in steps on %s', (backend) => {
  const scenario = scenarioApplication(backend, { env: ENV, fresh: 'each' });

  /** The account behind an access token, as the factor enrolment sees it. */
  async function identityOf(kind: SubjectKind, accessToken: string) {
    const { useCases } = scenario.t;
    return (kind === 'user' ? useCases.userAuth : useCases.adminAuth).authenticate(accessToken);
  }

  /**
   * Enrols and verifies a TOTP factor through FactorService (the enrolment routes are another
   * branch's), then moves the clock to the next step: the verify used up the current one.
   */
  async function enrolTotp(kind: SubjectKind, accessToken: string) {
    const { t } = scenario;
    const who = await identityOf(kind, accessToken);
    const { factor, totp } = await t.useCases.factors.enrol(who, 'totp');
    const { recoveryCodes } = await t.useCases.factors.verify(who, factor.id, { code: codeAt(t, totp!.secret) });
    t.clock.advance(PERIOD);
    return { secret: totp!.secret, recoveryCodes: recoveryCodes ?? [] };
  }

  /** `proof`: the step-up an account with an active factor needs to enrol another. */
  async function enrolPasskey(
    kind: SubjectKind,
    accessToken: string,
    authenticator: SoftwareAuthenticator,
    proof: StepUpProof = {},
  ) {
    const { t } = scenario;
    const who = await identityOf(kind, accessToken);
    const { factor, webauthn } = await t.useCases.factors.enrol(who, 'webauthn', proof);
    const credential = authenticator.register(webauthn as unknown as PublicKeyCredentialCreationOptionsJSON, ORIGIN);
    await t.useCases.factors.verify(who, factor.id, { credential });
  }

  /** An assertion of `authenticator` over a fresh challenge of the passkey options. */
  async function passkeyAssertion(authenticator: SoftwareAuthenticator) {
    const options = (await (await scenario.client.send('POST', '/v1/login/passkey/options', {})).json()).data;
    return authenticator.authenticate(options.attributes.webauthn as PublicKeyCredentialRequestOptionsJSON, ORIGIN);
  }

  /** A user with a verified TOTP factor: its secret, recovery codes and email. */
  async function userWithTotp() {
    const { client } = scenario;
    const user = await client.createUser({ email: `mfa-${crypto.randomUUID()}@example.com`, password: PASSWORD });
    const session = await client.userSession(user.attributes.email, PASSWORD);
    return { id: user.id, email: user.attributes.email, ...(await enrolTotp('user', session.accessToken)) };
  }

  /** The password step of an account with a factor: the challenge's id and attributes (200 required). */
  async function challengeOf(email: string, password = PASSWORD, path = '/v1/login') {
    const response = await scenario.client.login(email, password, {}, path);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.type).toBe('mfa_challenges');
    return { id: body.data.id as string, attributes: body.data.attributes, body, response };
  }

  const secondStep = (body: unknown, path = '/v1/login/mfa') => scenario.client.send('POST', path, body);

  it('asks a user with a factor for the second step, with no token, then opens an aal2 session that refresh keeps', async () => {
    const { t } = scenario;
    const user = await userWithTotp();
    const challenge = await challengeOf(user.email);
    expect(challenge.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge.attributes).toEqual({ kinds: ['totp', 'recovery_code'], expires: expect.any(String) });
    expect(Date.parse(challenge.attributes.expires) - t.clock.now().getTime()).toBe(
      SECOND_FACTOR_RULES.challenge.seconds * 1000,
    );
    expect(JSON.stringify(challenge.body)).not.toMatch(/access_token|refresh_token|eyJ/);

    const session = await sessionOf(await secondStep({ challenge: challenge.id, code: codeAt(t, user.secret) }));
    expect(session.id).toBe(user.id);
    expect(claimsOf(session.accessToken)).toMatchObject({ sub: user.id, amr: ['pwd', 'otp', 'mfa'], aal: 'aal2' });
    const refreshed = await sessionOf(await scenario.client.refresh(session.refreshToken, '/v1/refresh'));
    expect(claimsOf(refreshed.accessToken)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], aal: 'aal2' });

    // Nothing stored or logged lets a reader answer a challenge or produce a code.
    expect(t.logs.join('\n')).not.toContain(user.secret);
    expect(t.logs.join('\n')).not.toContain(challenge.id);
  });

  it('gives a user without a factor its session at once, with amr pwd and aal1', async () => {
    const { client } = scenario;
    const user = await client.createUser({ email: `plain-${crypto.randomUUID()}@example.com`, password: PASSWORD });
    const session = await client.userSession(user.attributes.email, PASSWORD);
    expect(claimsOf(session.accessToken)).toMatchObject({ amr: ['pwd'], aal: 'aal1' });
  });

  it('refuses a TOTP code used once already, even for a new challenge (RFC 6238 §5.2)', async () => {
    const { t } = scenario;
    const user = await userWithTotp();
    const code = codeAt(t, user.secret);
    await sessionOf(await secondStep({ challenge: (await challengeOf(user.email)).id, code }));
    const replay = await secondStep({ challenge: (await challengeOf(user.email)).id, code });
    expect([replay.status, (await replay.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
  });

  it('completes one challenge once when two right answers race (a TOTP code and a recovery code), 50 rounds', async () => {
    const { t } = scenario;
    const lost: string[] = [];
    // Each round uses up a recovery code: 10 rounds for each of 5 users.
    for (let u = 0; u < 5; u += 1) {
      const user = await userWithTotp();
      for (const [round, recoveryCode] of user.recoveryCodes.entries()) {
        t.clock.advance(PERIOD);
        const { id } = await challengeOf(user.email);
        const answers = await Promise.all([
          secondStep({ challenge: id, code: codeAt(t, user.secret) }),
          secondStep({ challenge: id, code: recoveryCode }),
        ]);
        const opened = answers.filter((response) => response.status === 200).length;
        if (opened !== 1) lost.push(`user ${u} round ${round}: ${opened} sessions`);
      }
    }
    expect(lost).toEqual([]);
  });

  it('answers an unknown challenge as it answers a wrong code, 401 of one shape, naming no account', async () => {
    const user = await userWithTotp();
    const { id } = await challengeOf(user.email);
    const unknown = await secondStep({ challenge: 'A'.repeat(43), code: '000000' });
    const wrong = await secondStep({ challenge: id, code: '000000' });
    const shapeOf = async (response: Response) => {
      const text = await response.text();
      // Only the password step hands out a challenge: what may differ is the code, never who it is for.
      expect(text).not.toContain(user.email);
      expect(text).not.toContain(user.id);
      const { errors } = JSON.parse(text);
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        keys: Object.keys(errors[0]).sort(),
        errors: errors.length,
      };
    };
    expect(await shapeOf(unknown)).toEqual(await shapeOf(wrong));
  });

  it('ends a challenge at its 5th wrong answer', async () => {
    const { t } = scenario;
    const user = await userWithTotp();
    const { id } = await challengeOf(user.email);
    for (let i = 0; i < SECOND_FACTOR_RULES.challenge.maxFailures; i += 1) {
      expect((await secondStep({ challenge: id, code: '000000' })).status).toBe(401);
    }
    const ended = await secondStep({ challenge: id, code: codeAt(t, user.secret) });
    expect([ended.status, (await ended.json()).errors[0].code]).toEqual([401, 'invalid_challenge']);
  });

  it("locks the account's second step after 10 wrong answers in a row: 429 with Retry-After, audited", async () => {
    const { t, client } = scenario;
    const user = await userWithTotp();
    for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures; i += 1) {
      const wrong = await secondStep({ challenge: (await challengeOf(user.email)).id, code: '000000' });
      expect(wrong.status).toBe(401);
    }
    const locked = await secondStep({ challenge: (await challengeOf(user.email)).id, code: codeAt(t, user.secret) });
    expect([locked.status, (await locked.json()).errors[0].code]).toEqual([429, 'too_many_attempts']);
    expect(Number(locked.headers.get('retry-after'))).toBe(SECOND_FACTOR_RULES.lock.seconds);
    const events = await client.get('/v1/admin/audit-events?filter[action]=mfa.locked', await client.adminToken());
    expect((await events.json()).data).toMatchObject([{ attributes: { target: { type: 'users', id: user.id } } }]);
    t.clock.advance(SECOND_FACTOR_RULES.lock.seconds);
    await sessionOf(await secondStep({ challenge: (await challengeOf(user.email)).id, code: codeAt(t, user.secret) }));
  });

  it("refuses a passwordless passkey sign-in while the account's second step is locked, as its passkey second step", async () => {
    const { t, client } = scenario;
    const user = await client.createUser({ email: `locked-${crypto.randomUUID()}@example.com`, password: PASSWORD });
    const authenticator = new SoftwareAuthenticator();
    await enrolPasskey('user', (await client.userSession(user.attributes.email, PASSWORD)).accessToken, authenticator);
    for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures; i += 1) {
      const wrong = await secondStep({ challenge: (await challengeOf(user.attributes.email)).id, code: '000000' });
      expect(wrong.status).toBe(401);
    }
    const credential = await passkeyAssertion(authenticator);
    const locked = await client.send('POST', '/v1/login/passkey', { credential });
    expect([locked.status, (await locked.json()).errors[0].code]).toEqual([429, 'too_many_attempts']);
    expect(Number(locked.headers.get('retry-after'))).toBe(SECOND_FACTOR_RULES.lock.seconds);
    t.clock.advance(SECOND_FACTOR_RULES.lock.seconds);
    const alone = await client.send('POST', '/v1/login/passkey', { credential: await passkeyAssertion(authenticator) });
    expect((await sessionOf(alone)).id).toBe(user.id);
  });

  it("asks an admin with a factor for the second step, which sets the panel's cookie; a user's challenge is refused there", async () => {
    const { t, client } = scenario;
    const { secret } = await enrolTotp('admin', await client.adminToken());
    const admin = await challengeOf(t.admin.email, t.admin.password, '/v1/admin/login');
    expect(admin.response.headers.getSetCookie()).toEqual([]);
    const user = await userWithTotp();
    const users = await challengeOf(user.email);
    const refused = await secondStep({ challenge: users.id, code: codeAt(t, user.secret) }, '/v1/admin/login/mfa');
    expect([refused.status, (await refused.json()).errors[0].code]).toEqual([401, 'invalid_challenge']);
    const userSide = await secondStep({ challenge: admin.id, code: codeAt(t, secret) });
    expect([userSide.status, (await userSide.json()).errors[0].code]).toEqual([401, 'invalid_challenge']);

    const response = await secondStep({ challenge: admin.id, code: codeAt(t, secret) }, '/v1/admin/login/mfa');
    const session = await sessionOf(response.clone());
    expect(claimsOf(session.accessToken)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], aal: 'aal2' });
    const cookie = responseCookies(response).get(REFRESH_COOKIE);
    expect(cookie?.value).toBe(session.refreshToken);
    expect(cookie?.attributes.get('path')).toBe('/v1/admin');
  });

  it('signs in with a passkey as the second step (pwd hwk mfa), and alone without a password (swk, aal2), once', async () => {
    const { client } = scenario;
    const user = await client.createUser({ email: `passkey-${crypto.randomUUID()}@example.com`, password: PASSWORD });
    const bound = new SoftwareAuthenticator();
    const synced = new SoftwareAuthenticator({ backedUp: true });
    const first = await client.userSession(user.attributes.email, PASSWORD);
    await enrolPasskey('user', first.accessToken, bound);
    await enrolPasskey('user', first.accessToken, synced, { credential: await passkeyAssertion(bound) });

    const challenge = await challengeOf(user.attributes.email);
    expect(challenge.attributes.kinds).toEqual(['webauthn', 'recovery_code']);
    const assertion = bound.authenticate(
      challenge.attributes.webauthn as PublicKeyCredentialRequestOptionsJSON,
      ORIGIN,
    );
    const second = await sessionOf(await secondStep({ challenge: challenge.id, credential: assertion }));
    expect(claimsOf(second.accessToken)).toMatchObject({ amr: ['pwd', 'hwk', 'mfa'], aal: 'aal2' });

    const options = await client.send('POST', '/v1/login/passkey/options', {});
    expect(options.status).toBe(200);
    const { data } = await options.json();
    expect(data.attributes.webauthn.challenge).toBe(data.id);
    const alone = synced.authenticate(data.attributes.webauthn, ORIGIN);
    const passwordless = await sessionOf(await client.send('POST', '/v1/login/passkey', { credential: alone }));
    expect(passwordless.id).toBe(user.id);
    expect(claimsOf(passwordless.accessToken)).toMatchObject({ amr: ['swk'], aal: 'aal2' });
    const again = await client.send('POST', '/v1/login/passkey', { credential: alone });
    expect([again.status, (await again.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
  });
});

describe.each(BACKENDS)('the password step of an account with a factor on %s', (backend) => {
  // A bcrypt cost whose work dominates a request, so a refusal that skipped it would show.
  const timed = scenarioApplication(backend, { env: { ...ENV, BCRYPT_COST: '10' } });

  it('takes as long to refuse an unknown account as a known one with a factor at the password step', async () => {
    const { client } = timed;
    const user = await client.createUser({ email: `timed-${crypto.randomUUID()}@example.com`, password: PASSWORD });
    const session = await client.userSession(user.attributes.email, PASSWORD);
    const who = await timed.t.useCases.userAuth.authenticate(session.accessToken);
    const { factor, totp } = await timed.t.useCases.factors.enrol(who, 'totp');
    await timed.t.useCases.factors.verify(who, factor.id, { code: codeAt(timed.t, totp!.secret) });
    const timeOf = async (email: string) => {
      const started = performance.now();
      expect((await client.login(email, 'not the password', {}, '/v1/login')).status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      known.push(await timeOf(user.attributes.email));
      unknown.push(await timeOf(`nobody-${i}@example.com`));
    }
    // Both verify a bcrypt hash of the same cost; the second factor is looked at only after the right password.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(known)).toBeLessThan(2);
  });
});
