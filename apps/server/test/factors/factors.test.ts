import { createHash } from 'node:crypto';
import { SECOND_FACTOR_RULES } from '@uas/domain';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { sessionOf } from '../support/admin-api';
import { outboxIds } from '../support/outbox';
import { scenarioApplication } from '../support/scenario';
import { SoftwareAuthenticator } from '../../../../scripts/software-authenticator';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';

const ORIGIN = 'http://localhost:3002';
const ISSUER = 'Acme <script>alert(1)</script>';
const ENV = { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN, WEBAUTHN_RP_NAME: ISSUER };
const PASSWORD = 'factor-password-1';
const PERIOD = SECOND_FACTOR_RULES.totp.periodSeconds;
const ENROL = (kind: string) => ({ data: { type: 'factors', attributes: { kind } } });

/** The secret's raw bytes (RFC 4648 base32), to search for as the database could hold them. */
function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const character of secret)
    bits += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(character).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

describe.each(BACKENDS)('second factors on %s', (backend) => {
  const scenario = scenarioApplication(backend, { env: ENV, fresh: 'each' });
  const codeNow = (secret: string) =>
    generateSync({ secret, epoch: Math.floor(scenario.t.clock.now().getTime() / 1000) });

  /** A user and a password-only session of it. */
  async function signedInUser() {
    const { client } = scenario;
    const email = `factors-${crypto.randomUUID()}@example.com`;
    const user = await client.createUser({ email, password: PASSWORD });
    return { id: user.id, email, token: (await client.userSession(email, PASSWORD)).accessToken };
  }

  /** Enrols and verifies TOTP through the routes; moves the clock past the step the verify used. */
  async function enrolTotp(token: string, base = '/v1/users/me') {
    const { client, t } = scenario;
    const enrolled = await client.send('POST', `${base}/factors`, ENROL('totp'), token);
    expect(enrolled.status).toBe(201);
    const { data } = await enrolled.json();
    const verified = await client.send(
      'POST',
      `${base}/factors/${data.id}/verify`,
      { code: codeNow(data.attributes.secret) },
      token,
    );
    expect(verified.status).toBe(200);
    t.clock.advance(PERIOD);
    return { enrolled: data, activated: (await verified.json()).data };
  }

  /** A session whose login had a second step (TOTP), for changes that need a step-up. */
  async function steppedSession(email: string, secret: string) {
    const { client, t } = scenario;
    t.clock.advance(PERIOD); // past the step of any code just used
    const challenge = (await (await client.login(email, PASSWORD, {}, '/v1/login')).json()).data;
    const session = await sessionOf(
      await client.send('POST', '/v1/login/mfa', { challenge: challenge.id, code: codeNow(secret) }),
    );
    t.clock.advance(PERIOD);
    return session.accessToken;
  }

  it('enrols TOTP with real codes: secret, otpauth URI and QR shown once, 10 recovery codes on the first, none of it stored in the clear', async () => {
    const { client, t } = scenario;
    const user = await signedInUser();
    const { enrolled, activated } = await enrolTotp(user.token);
    const { secret, otpauth_uri, qr_svg } = enrolled.attributes;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_uri);
    expect(uri.searchParams.get('issuer')).toBe(ISSUER);
    expect(decodeURIComponent(uri.pathname)).toBe(`/${ISSUER}:${user.email}`);
    expect(qr_svg).toMatch(/^<svg /);
    expect(qr_svg).not.toMatch(/<script|alert|on\w+=/i);
    expect(activated.attributes).toMatchObject({ kind: 'totp', status: 'active' });
    const recoveryCodes: string[] = activated.attributes.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);

    const listed = await client.get('/v1/users/me/factors', user.token);
    const text = await listed.text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toEqual({
      data: [
        {
          type: 'factors',
          id: enrolled.id,
          attributes: { kind: 'totp', status: 'active', created: expect.any(String), last_used: expect.any(String) },
        },
      ],
      meta: { recovery_codes_left: 10 },
    });

    const stored = await storedData(loadConfig(t.env));
    const raw = base32Bytes(secret);
    for (const needle of [
      secret,
      secret.toLowerCase(),
      raw.toString('latin1'),
      raw.toString('hex'),
      raw.toString('base64'),
    ]) {
      expect(stored.includes(needle), 'a TOTP secret in the database').toBe(false);
    }
    for (const code of recoveryCodes) {
      expect(stored.includes(code) || stored.includes(code.replaceAll('-', '')), 'a recovery code stored').toBe(false);
      // Nor its unkeyed digest: a database copy alone must not check guesses (they are keyed HMACs).
      const digest = createHash('sha256').update(code.replaceAll('-', '')).digest();
      for (const form of [digest.toString('hex'), digest.toString('base64url'), digest.toString('base64')]) {
        expect(stored.includes(form), 'a recovery code as a plain SHA-256').toBe(false);
      }
    }
    const logs = t.logs.join('\n');
    for (const needle of [secret, ...recoveryCodes]) expect(logs.includes(needle)).toBe(false);
  });

  it('one pending factor verified twice at once activates once, with one set of recovery codes', async () => {
    const { client } = scenario;
    const user = await signedInUser();
    let token = user.token;
    for (let round = 0; round < 5; round++) {
      const { data } = await (await client.send('POST', '/v1/users/me/factors', ENROL('totp'), token)).json();
      const code = codeNow(data.attributes.secret);
      const answers = await Promise.all(
        [0, 1].map(() => client.send('POST', `/v1/users/me/factors/${data.id}/verify`, { code }, token)),
      );
      // Further factors beside an active one need a step-up: the second step of a new login.
      if (round === 0) token = await steppedSession(user.email, data.attributes.secret);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
    }
    const listed = await (await client.get('/v1/users/me/factors', user.token)).json();
    expect(listed.data).toHaveLength(5);
    expect(listed.meta).toEqual({ recovery_codes_left: 10 });
  });

  it('enrols a passkey made by the software authenticator; a second passkey is not offered the first one', async () => {
    const { client } = scenario;
    const user = await signedInUser();
    const authenticator = new SoftwareAuthenticator();
    const enrolled = await client.send('POST', '/v1/users/me/factors', ENROL('webauthn'), user.token);
    expect(enrolled.status).toBe(201);
    const { data } = await enrolled.json();
    const options = data.attributes.webauthn as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp).toEqual({ id: 'localhost', name: ISSUER });
    const credential = authenticator.register(options, ORIGIN);
    const verified = await client.send('POST', `/v1/users/me/factors/${data.id}/verify`, { credential }, user.token);
    expect(verified.status).toBe(200);
    const activated = (await verified.json()).data;
    expect(activated.attributes).toMatchObject({ kind: 'webauthn', status: 'active' });
    expect(activated.attributes.recovery_codes).toHaveLength(10);
    // The same registration again: the challenge is used up.
    const replayed = await client.send('POST', `/v1/users/me/factors/${data.id}/verify`, { credential }, user.token);
    expect(replayed.status).toBe(409);

    scenario.t.clock.advance(1); // so the list's oldest-first order is the enrolment order
    // A second factor needs a step-up: here an assertion of the first passkey.
    const request = (await (await client.send('POST', '/v1/login/passkey/options', {})).json()).data.attributes
      .webauthn;
    const stepUp = { ...ENROL('webauthn'), credential: authenticator.authenticate(request, ORIGIN) };
    const second = await (await client.send('POST', '/v1/users/me/factors', stepUp, user.token)).json();
    expect(second.data.attributes.webauthn.excludeCredentials.map((item: { id: string }) => item.id)).toEqual([
      credential.id,
    ]);
    expect(() => authenticator.register(second.data.attributes.webauthn, ORIGIN)).toThrow(/InvalidStateError/);
    const forged = new SoftwareAuthenticator().register(second.data.attributes.webauthn, 'https://evil.example');
    const refused = await client.send(
      'POST',
      `/v1/users/me/factors/${second.data.id}/verify`,
      { credential: forged },
      user.token,
    );
    expect(refused.status).toBe(401);
    expect((await refused.json()).errors[0].code).toBe('invalid_second_factor');
    const list = await (await client.get('/v1/users/me/factors', user.token)).json();
    expect(list.data.map((factor: { attributes: { status: string } }) => factor.attributes.status)).toEqual([
      'active',
      'pending',
    ]);
    expect(list.meta).toEqual({ recovery_codes_left: 10 });
  });

  it('a removal needs a step-up: refused with a password session, accepted after the login second step, then only within 5 minutes', async () => {
    const { client, t } = scenario;
    const user = await signedInUser();
    const { enrolled, activated } = await enrolTotp(user.token);
    const refused = await client.delete(`/v1/users/me/factors/${enrolled.id}`, user.token);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].code).toBe('second_factor_required');

    const challenge = (await (await client.login(user.email, PASSWORD, {}, '/v1/login')).json()).data;
    expect(challenge.type).toBe('mfa_challenges');
    const stepped = await sessionOf(
      await client.send('POST', '/v1/login/mfa', {
        challenge: challenge.id,
        code: codeNow(enrolled.attributes.secret),
      }),
    );
    const renewed = await client.send('POST', '/v1/users/me/recovery-codes', {}, stepped.accessToken);
    expect(renewed.status).toBe(200);
    const codes: string[] = (await renewed.json()).data.attributes.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(codes).not.toEqual(activated.attributes.recovery_codes);

    t.clock.advance(SECOND_FACTOR_RULES.stepUpSeconds + 1);
    expect((await client.delete(`/v1/users/me/factors/${enrolled.id}`, stepped.accessToken)).status).toBe(403);
    // A recovery code of the old set was replaced; one of the new set proves the step-up, once.
    const old = await client.send(
      'DELETE',
      `/v1/users/me/factors/${enrolled.id}`,
      { code: activated.attributes.recovery_codes[0] },
      user.token,
    );
    expect(old.status).toBe(401);
    const removed = await client.send('DELETE', `/v1/users/me/factors/${enrolled.id}`, { code: codes[0] }, user.token);
    expect(removed.status).toBe(204);
    expect(await (await client.get('/v1/users/me/factors', user.token)).json()).toEqual({
      data: [],
      meta: { recovery_codes_left: 0 },
    });
  });

  it('a factor beside an active one needs a step-up to enrol and to verify; the first enrols freely', async () => {
    const { client } = scenario;
    const user = await signedInUser();
    // Pending before the first factor became active: its verify is stepped up too.
    const early = (await (await client.send('POST', '/v1/users/me/factors', ENROL('totp'), user.token)).json()).data;
    scenario.t.clock.advance(1);
    const { enrolled } = await enrolTotp(user.token);
    const overtaken = await client.send(
      'POST',
      `/v1/users/me/factors/${early.id}/verify`,
      { code: codeNow(early.attributes.secret) },
      user.token,
    );
    expect([overtaken.status, (await overtaken.json()).errors[0].code]).toEqual([403, 'second_factor_required']);

    const refused = await client.send('POST', '/v1/users/me/factors', ENROL('webauthn'), user.token);
    expect([refused.status, (await refused.json()).errors[0].code]).toEqual([403, 'second_factor_required']);
    const wrong = await client.send('POST', '/v1/users/me/factors', { ...ENROL('totp'), code: '000000' }, user.token);
    expect([wrong.status, (await wrong.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
    const both = { ...ENROL('totp'), code: codeNow(enrolled.attributes.secret), credential: {} };
    expect((await client.send('POST', '/v1/users/me/factors', both, user.token)).status).toBe(422);

    const proved = { ...ENROL('totp'), code: codeNow(enrolled.attributes.secret) };
    const added = await client.send('POST', '/v1/users/me/factors', proved, user.token);
    expect(added.status).toBe(201);
    const { data } = await added.json();
    const verified = await client.send(
      'POST',
      `/v1/users/me/factors/${data.id}/verify`,
      { code: codeNow(data.attributes.secret) },
      user.token,
    );
    expect(verified.status).toBe(200);

    const stepped = await steppedSession(user.email, enrolled.attributes.secret);
    const late = await client.send(
      'POST',
      `/v1/users/me/factors/${early.id}/verify`,
      { code: codeNow(early.attributes.secret) },
      stepped,
    );
    expect(late.status).toBe(200);
  });

  it('pending factors past their 10-minute window do not count toward the 10-factor limit', async () => {
    const { client, t } = scenario;
    const user = await signedInUser();
    const { refreshToken } = await client.userSession(user.email, PASSWORD);
    const { maxFactors, pendingSeconds } = SECOND_FACTOR_RULES.enrolment;
    for (let n = 0; n < maxFactors; n++) {
      expect((await client.send('POST', '/v1/users/me/factors', ENROL('totp'), user.token)).status).toBe(201);
    }
    const full = await client.send('POST', '/v1/users/me/factors', ENROL('totp'), user.token);
    expect([full.status, (await full.json()).errors[0].code]).toEqual([422, 'invalid_attribute']);
    t.clock.advance(pendingSeconds + 1);
    const token = (await sessionOf(await client.send('POST', '/v1/refresh', { refreshToken }))).accessToken;
    expect((await client.send('POST', '/v1/users/me/factors', ENROL('totp'), token)).status).toBe(201);
  });

  it('step-up proofs count toward the second-step lock: 10 wrong ones lock it (429, Retry-After), also for a right one and the login', async () => {
    const { client, t } = scenario;
    const user = await signedInUser();
    const { refreshToken } = await client.userSession(user.email, PASSWORD);
    const { enrolled } = await enrolTotp(user.token);
    for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures; i += 1) {
      const wrong = await client.send('POST', '/v1/users/me/recovery-codes', { code: `${100000 + i}` }, user.token);
      expect(wrong.status).toBe(401);
    }
    const secret = enrolled.attributes.secret;
    const locked = await client.send('POST', '/v1/users/me/recovery-codes', { code: codeNow(secret) }, user.token);
    expect([locked.status, (await locked.json()).errors[0].code]).toEqual([429, 'too_many_attempts']);
    expect(Number(locked.headers.get('retry-after'))).toBe(SECOND_FACTOR_RULES.lock.seconds);
    const removal = await client.send(
      'DELETE',
      `/v1/users/me/factors/${enrolled.id}`,
      { code: codeNow(secret) },
      user.token,
    );
    expect(removal.status).toBe(429);
    const challenge = (await (await client.login(user.email, PASSWORD, {}, '/v1/login')).json()).data;
    const login = await client.send('POST', '/v1/login/mfa', { challenge: challenge.id, code: codeNow(secret) });
    expect(login.status).toBe(429);

    t.clock.advance(SECOND_FACTOR_RULES.lock.seconds);
    const token = (await sessionOf(await client.send('POST', '/v1/refresh', { refreshToken }))).accessToken;
    const renewed = await client.send('POST', '/v1/users/me/recovery-codes', { code: codeNow(secret) }, token);
    expect(renewed.status).toBe(200);
    // A right proof clears the count: 9 more wrong ones do not lock.
    for (let i = 0; i < SECOND_FACTOR_RULES.lock.failures - 1; i += 1) {
      expect((await client.send('POST', '/v1/users/me/recovery-codes', { code: '000000' }, token)).status).toBe(401);
    }
  });

  it('a passkey assertion over a passkey-options challenge proves a step-up, once', async () => {
    const { client } = scenario;
    const user = await signedInUser();
    const authenticator = new SoftwareAuthenticator();
    const { data } = await (await client.send('POST', '/v1/users/me/factors', ENROL('webauthn'), user.token)).json();
    const credential = authenticator.register(data.attributes.webauthn, ORIGIN);
    expect(
      (await client.send('POST', `/v1/users/me/factors/${data.id}/verify`, { credential }, user.token)).status,
    ).toBe(200);
    const options = (await (await client.send('POST', '/v1/login/passkey/options', {})).json()).data.attributes
      .webauthn as PublicKeyCredentialRequestOptionsJSON;
    const assertion = authenticator.authenticate(options, ORIGIN);
    const renewed = await client.send('POST', '/v1/users/me/recovery-codes', { credential: assertion }, user.token);
    expect(renewed.status).toBe(200);
    const again = await client.send('POST', '/v1/users/me/recovery-codes', { credential: assertion }, user.token);
    expect(again.status).toBe(401);
  });

  it("an admin lists a user's factors (no secrets) and resets them: sessions end, a notice is queued, audited", async () => {
    const { client } = scenario;
    const user = await signedInUser();
    const { enrolled } = await enrolTotp(user.token);
    const admin = await client.adminToken();
    const listed = await client.get(`/v1/admin/users/${user.id}/factors`, admin);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(enrolled.attributes.secret);
    expect(JSON.parse(text).data.map((factor: { id: string }) => factor.id)).toEqual([enrolled.id]);
    expect((await client.get(`/v1/admin/users/${user.id}/factors`, user.token)).status).toBe(403);

    expect((await client.delete(`/v1/admin/users/${user.id}/factors`, admin)).status).toBe(204);
    expect((await client.get('/v1/users/me/factors', user.token)).status).toBe(401);
    expect(await (await client.get(`/v1/admin/users/${user.id}/factors`, admin)).json()).toEqual({
      data: [],
      meta: { recovery_codes_left: 0 },
    });
    // A second reset finds nothing to remove: no second event, no second notice.
    expect((await client.delete(`/v1/admin/users/${user.id}/factors`, admin)).status).toBe(204);
    const events = await (await client.get('/v1/admin/audit-events?filter[action]=factors.reset', admin)).json();
    expect(events.data).toHaveLength(1);
    expect(await outboxIds(client, 'factors_reset', user.email)).toHaveLength(1);
    // The password alone signs in again.
    expect((await client.userSession(user.email, PASSWORD)).accessToken).toBeTruthy();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await client.get(`/v1/admin/users/${unknown}/factors`, admin)).status).toBe(404);
  });

  it("the enrolment code's step is stored with the activation: that code never completes a login", async () => {
    const { client } = scenario;
    const user = await signedInUser();
    const { data } = await (await client.send('POST', '/v1/users/me/factors', ENROL('totp'), user.token)).json();
    const code = codeNow(data.attributes.secret);
    expect((await client.send('POST', `/v1/users/me/factors/${data.id}/verify`, { code }, user.token)).status).toBe(
      200,
    );
    const login = await client.send('POST', '/v1/login', {
      data: { type: 'users', attributes: { email: user.email, password: PASSWORD } },
    });
    const challenge = (await login.json()).data.id;
    const answered = await client.send('POST', '/v1/login/mfa', { challenge, code });
    expect([answered.status, (await answered.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
  });

  it('of two pending factors verified at once as the first, exactly one answer carries recovery codes, and those work: 20 rounds', async () => {
    const { client } = scenario;
    const carried: number[] = [];
    const working: number[] = [];
    for (let round = 0; round < 20; round++) {
      const user = await signedInUser();
      const totp = (await (await client.send('POST', '/v1/users/me/factors', ENROL('totp'), user.token)).json()).data;
      const passkey = (await (await client.send('POST', '/v1/users/me/factors', ENROL('webauthn'), user.token)).json())
        .data;
      const credential = new SoftwareAuthenticator().register(passkey.attributes.webauthn, ORIGIN);
      const answers = await Promise.all([
        client.send(
          'POST',
          `/v1/users/me/factors/${totp.id}/verify`,
          { code: codeNow(totp.attributes.secret) },
          user.token,
        ),
        client.send('POST', `/v1/users/me/factors/${passkey.id}/verify`, { credential }, user.token),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const given = (await Promise.all(answers.map((answer) => answer.json()))).flatMap(
        ({ data }) => (data.attributes.recovery_codes as string[] | undefined) ?? [],
      );
      carried.push(given.length);
      const renewed = await client.send('POST', '/v1/users/me/recovery-codes', { code: given[0] }, user.token);
      working.push(renewed.status);
    }
    expect(carried).toEqual(Array.from({ length: 20 }, () => SECOND_FACTOR_RULES.recoveryCodes.count));
    expect(working).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('answers malformed credentials, codes, challenge ids, factor ids and array bodies with JSON:API errors, never a 500', async () => {
    const { client } = scenario;
    const user = await signedInUser();
    const pending = (await (await client.send('POST', '/v1/users/me/factors', ENROL('webauthn'), user.token)).json())
      .data;
    const { enrolled } = await enrolTotp(user.token);
    const login = await client.send('POST', '/v1/login', {
      data: { type: 'users', attributes: { email: user.email, password: PASSWORD } },
    });
    const challenge = (await login.json()).data.id;
    const long = 'A'.repeat(200_000);
    const credentials: unknown[] = [
      {},
      { id: 'abc', rawId: 'abc', type: 'public-key', response: {} },
      { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 5, attestationObject: [] } },
      { id: long, rawId: long, type: 'public-key', response: { clientDataJSON: long, authenticatorData: long } },
      { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'eyJjaGFsbGVuZ2UiOjV9' } },
      [],
      'x',
    ];
    const codes: unknown[] = ['', '12345', '1234567', long, 123456, null, [], {}, '１２３４５６'];
    const requests: [string, string, unknown][] = [];
    for (const credential of credentials) {
      requests.push(['POST', `/v1/users/me/factors/${pending.id}/verify`, { credential }]);
      requests.push(['DELETE', `/v1/users/me/factors/${enrolled.id}`, { credential }]);
      requests.push(['POST', '/v1/users/me/recovery-codes', { credential }]);
      requests.push(['POST', '/v1/login/mfa', { challenge, credential }]);
      requests.push(['POST', '/v1/login/passkey', { credential }]);
    }
    for (const code of codes) {
      requests.push(['POST', '/v1/users/me/recovery-codes', { code }]);
      requests.push(['POST', '/v1/login/mfa', { challenge, code }]);
    }
    for (const id of [long, '', 5, []]) requests.push(['POST', '/v1/login/mfa', { challenge: id, code: '123456' }]);
    for (const id of ['nope', 'x'.repeat(5000)]) {
      requests.push(['POST', `/v1/users/me/factors/${id}/verify`, { code: '123456' }]);
      requests.push(['DELETE', `/v1/users/me/factors/${id}`, {}]);
      requests.push(['GET', `/v1/admin/users/${id}/factors`, undefined]);
    }
    for (const body of [[], [{ code: '123456' }]]) {
      requests.push(['POST', `/v1/users/me/factors/${pending.id}/verify`, body]);
      requests.push(['DELETE', `/v1/users/me/factors/${pending.id}`, body]);
      requests.push(['POST', '/v1/users/me/recovery-codes', body]);
      requests.push(['POST', '/v1/login/mfa', body]);
      requests.push(['POST', '/v1/login/passkey', body]);
    }
    const admin = await client.adminToken();
    for (const [method, path, body] of requests) {
      const token = path.startsWith('/v1/admin/') ? admin : user.token;
      const response = method === 'GET' ? await client.get(path, token) : await client.send(method, path, body, token);
      const text = await response.text();
      const what = `${method} ${path.slice(0, 60)} ${JSON.stringify(body)?.slice(0, 80)}: ${response.status} ${text.slice(0, 120)}`;
      expect(response.status >= 400 && response.status < 500, what).toBe(true);
      expect(JSON.parse(text).errors[0].code, what).toEqual(expect.any(String));
    }
  });
});

describe('ADMIN_MFA=required on sqlite', () => {
  const scenario = scenarioApplication('sqlite', { env: { ...ENV, ADMIN_MFA: 'required' }, fresh: 'each' });

  it('keeps an admin without a factor to enrolment, then opens every route once one is active', async () => {
    const { client, t } = scenario;
    const token = (await client.adminSession()).accessToken;
    const refused = await client.get('/v1/admin/users', token);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].code).toBe('mfa_enrolment_required');
    const enrolled = (await (await client.send('POST', '/v1/admin/me/factors', ENROL('totp'), token)).json()).data;
    const code = generateSync({
      secret: enrolled.attributes.secret,
      epoch: Math.floor(t.clock.now().getTime() / 1000),
    });
    const verified = await client.send('POST', `/v1/admin/me/factors/${enrolled.id}/verify`, { code }, token);
    expect(verified.status).toBe(200);
    expect((await client.get('/v1/admin/users', token)).status).toBe(200);
  });
});
