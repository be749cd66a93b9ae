import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { FORGERIES, resignedByService } from '../support/token-forgery';
import { userScenario } from '../support/user-client';
import { expectError } from '../support/error-expectations';
import { sessionOf } from '../support/admin-api';

const ACCESS_TTL = 300;
const CLOCK_TOLERANCE = 5;
const INVALID_TOKEN = { detail: 'The token is missing, malformed, expired, revoked or not issued by this service.' };

/** Each forgery of an access token (at GET /v1/users/me) and of a refresh token (at POST /v1/refresh). */
const CASES = (['an access token', 'a refresh token'] as const).flatMap((kind) =>
  FORGERIES.map(([what, forge]) => [kind, what, forge] as const),
);

describe.each(BACKENDS)('tokens the service refuses, on %s', (backend) => {
  const scenario = userScenario(backend, { env: { ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL) } });

  it("accepts an access or refresh token re-signed unchanged by the service key (so the refusals below are the changes' doing)", async () => {
    const { t, api } = scenario;
    const session = await api.loginAs(await api.createUser());
    expect((await api.me(await resignedByService(t, session.accessToken))).status).toBe(200);
    expect((await api.refresh(await resignedByService(t, session.refreshToken))).status).toBe(200);
  });

  it.each(CASES)('%s %s is refused with 401, and the genuine one keeps working', async (kind, _, forge) => {
    const { t, api } = scenario;
    const session = await api.loginAs(await api.createUser());
    const present = (token: string) => (kind === 'an access token' ? api.me(token) : api.refresh(token));
    const genuine = kind === 'an access token' ? session.accessToken : session.refreshToken;
    for (const forged of [await forge(genuine, t)].flat()) {
      await expectError(await present(forged), 401, 'invalid_token', INVALID_TOKEN);
    }
    expect((await present(genuine)).status).toBe(200);
  });

  it('a string that is no JWT at all is refused with 401 as a bearer and as a refresh token', async () => {
    const { api } = scenario;
    await expectError(await api.me('not-a-jwt'), 401, 'invalid_token', INVALID_TOKEN);
    await expectError(await api.refresh('not-a-jwt'), 401, 'invalid_token', INVALID_TOKEN);
  });

  it("a deleted user's tokens stop working: the refresh token does not refresh (401), the access token is refused (401)", async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const session = await api.loginAs(user);
    await api.adminDelete(user.id);
    await expectError(await api.refresh(session.refreshToken), 401, 'invalid_token', INVALID_TOKEN);
    await expectError(await api.me(session.accessToken), 401, 'invalid_token', INVALID_TOKEN);
  });

  it('an access token is refused once ACCESS_TOKEN_TTL_SECONDS plus 5 s of clock tolerance have passed; its refresh token still refreshes', async () => {
    const { t, api } = scenario;
    const session = await api.loginAs(await api.createUser());
    t.clock.advance(ACCESS_TTL + CLOCK_TOLERANCE - 1);
    expect((await api.me(session.accessToken)).status).toBe(200);
    t.clock.advance(2);
    await expectError(await api.me(session.accessToken), 401, 'invalid_token', INVALID_TOKEN);
    const renewed = await sessionOf(await api.refresh(session.refreshToken));
    expect((await api.me(renewed.accessToken)).status).toBe(200);
  });
});
