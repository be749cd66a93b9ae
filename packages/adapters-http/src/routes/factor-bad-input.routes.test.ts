import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, jsonInit, loginDocument, type TestApp } from '../testing';

let t: TestApp;
let auth: Record<string, string>;
let totpId: string;
let activeId: string;
let passkeyId: string;
let challenge: string;

const kind = (k: string) => ({ data: { type: 'factors', attributes: { kind: k } } });

beforeEach(async () => {
  t = await createTestApp();
  const user = await t.createUser({ email: 'ann@example.com' });
  auth = bearer((await t.loginUser('ann@example.com', 'user-password-1')).accessToken);
  totpId = (await (await t.app.request('/v1/users/me/factors', jsonInit('POST', kind('totp'), auth))).json()).data.id;
  passkeyId = (await (await t.app.request('/v1/users/me/factors', jsonInit('POST', kind('webauthn'), auth))).json())
    .data.id;
  const other = await t.createUser({ email: 'bob@example.com' });
  await t.enrol.totp('user', other.id, t.clock.now());
  const login = await t.app.request('/v1/login', jsonInit('POST', loginDocument(other.email, 'user-password-1')));
  challenge = (await login.json()).data.id;
  activeId = (await t.enrol.totp('user', user.id, t.clock.now())).id;
});

const LONG = 'x'.repeat(100_000);
const CREDENTIALS: unknown[] = [
  {},
  { id: 1 },
  { id: 'abc', rawId: 'abc', type: 'public-key', response: {} },
  { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 5, attestationObject: [] } },
  { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'not base64!', authenticatorData: 'x' } },
  { id: LONG, response: { clientDataJSON: LONG } },
  { response: { clientDataJSON: btoa('{"challenge":5}') } },
  { response: { clientDataJSON: btoa('[]') } },
  { response: { clientDataJSON: btoa('null') } },
  [],
  'credential',
  null,
];
const CODES: unknown[] = [
  '',
  '1',
  '12345',
  '1234567',
  LONG,
  123456,
  null,
  [],
  {},
  true,
  '１２３４５６',
  '-'.repeat(5000),
];

async function expectJsonApiError(response: Response, what: string) {
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${what}: ${text.slice(0, 200)}`).toBeLessThan(500);
  expect(JSON.parse(text).errors[0].code, what).toEqual(expect.any(String));
}

describe('the factor and sign-in routes answer every bad input with a JSON:API error, never a 500', () => {
  it('refuses a body that is an array, or has another member, as 422 rather than as an empty proof', async () => {
    for (const [path, method] of [
      [`/v1/users/me/factors/${totpId}/verify`, 'POST'],
      [`/v1/users/me/factors/${totpId}`, 'DELETE'],
      ['/v1/users/me/recovery-codes', 'POST'],
    ] as const) {
      for (const body of [[], [{ code: '123456' }], { code: '123456', extra: 1 }, { credential: [] }]) {
        const response = await t.app.request(path, jsonInit(method, body, auth));
        expect(
          [response.status, (await response.json()).errors[0].code],
          `${method} ${path} ${JSON.stringify(body)}`,
        ).toEqual([422, 'invalid_attribute']);
      }
    }
    // The pending factor is still there: the array did not remove it.
    expect((await t.app.request(`/v1/users/me/factors/${totpId}`, jsonInit('DELETE', {}, auth))).status).toBe(204);
  });

  it('malformed credentials and codes', async () => {
    for (const [index, credential] of CREDENTIALS.entries()) {
      for (const [path, body] of [
        [`/v1/users/me/factors/${passkeyId}/verify`, { credential }],
        [`/v1/users/me/factors/${activeId}`, { credential }],
        ['/v1/users/me/recovery-codes', { credential }],
        ['/v1/login/mfa', { challenge, credential }],
        ['/v1/login/passkey', { credential }],
        ['/v1/admin/login/passkey', { credential }],
      ] as const) {
        const method = path.endsWith(activeId) ? 'DELETE' : 'POST';
        await expectJsonApiError(
          await t.app.request(path, jsonInit(method, body, auth)),
          `${path} credential #${index}`,
        );
      }
    }
    for (const [index, code] of CODES.entries()) {
      for (const [path, body] of [
        [`/v1/users/me/factors/${totpId}/verify`, { code }],
        ['/v1/users/me/recovery-codes', { code }],
        ['/v1/login/mfa', { challenge, code }],
      ] as const) {
        await expectJsonApiError(await t.app.request(path, jsonInit('POST', body, auth)), `${path} code #${index}`);
      }
    }
  });

  it('absurd challenge ids, factor ids that are no UUIDs, bodies that are arrays', async () => {
    for (const id of [LONG, '', 5, null, []]) {
      await expectJsonApiError(
        await t.app.request('/v1/login/mfa', jsonInit('POST', { challenge: id, code: '123456' })),
        `challenge ${String(id).slice(0, 10)}`,
      );
    }
    for (const id of ['nope', 'x'.repeat(5000), '%00', '..']) {
      await expectJsonApiError(
        await t.app.request(`/v1/users/me/factors/${id}/verify`, jsonInit('POST', { code: '123456' }, auth)),
        `verify ${id.slice(0, 10)}`,
      );
      await expectJsonApiError(
        await t.app.request(`/v1/users/me/factors/${id}`, jsonInit('DELETE', {}, auth)),
        `delete ${id.slice(0, 10)}`,
      );
    }
    for (const [path, method] of [
      ['/v1/users/me/factors', 'POST'],
      [`/v1/users/me/factors/${totpId}/verify`, 'POST'],
      [`/v1/users/me/factors/${activeId}`, 'DELETE'],
      ['/v1/users/me/recovery-codes', 'POST'],
      ['/v1/login/mfa', 'POST'],
      ['/v1/login/passkey', 'POST'],
      ['/v1/admin/login/mfa', 'POST'],
    ] as const) {
      for (const body of [[], [{ code: '123456' }], 'text', 5, null]) {
        await expectJsonApiError(
          await t.app.request(path, jsonInit(method, body, auth)),
          `${method} ${path} body ${JSON.stringify(body)}`,
        );
      }
    }
  });
});
