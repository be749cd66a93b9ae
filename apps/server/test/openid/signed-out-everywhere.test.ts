import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { AdminClient } from '../support/admin-client';
import { BACKENDS } from '../support/test-application';
import { APP_CALLBACK, createUser, registerClient, relyingParty, useOpenIdService } from './openid-service';
import { authorize, left, UserAgent } from './user-agent';

describe.each(BACKENDS)('signing a user out everywhere signs them out of applications (%s)', (backend) => {
  const service = useOpenIdService(backend);

  it('after DELETE /v1/admin/users/{id}/sessions: userinfo 401, refresh invalid_grant, prompt=none login_required', async () => {
    const user = await createUser(service(), `everywhere-${backend}@example.com`);
    const { client, secret } = await registerClient(service());
    const config = await relyingParty(service(), client.id, secret);
    const browser = new UserAgent(service().issuer);
    const nonce = oidc.randomNonce();
    const start = oidc.buildAuthorizationUrl(config, {
      redirect_uri: APP_CALLBACK,
      scope: 'openid email offline_access',
      prompt: 'consent',
      nonce,
    });
    const { callback } = await authorize(browser, start, user);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedNonce: nonce,
    });
    // Signed in before: the tokens work, and the browser's session answers prompt=none with a code.
    expect((await oidc.fetchUserInfo(config, tokens.access_token, user.id)).sub).toBe(user.id);
    const silent = () =>
      oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', prompt: 'none' });
    expect(left(await browser.navigate(silent())).searchParams.get('code')).not.toBeNull();

    const admin = new AdminClient(service().t);
    const ended = await admin.send(
      'DELETE',
      `/v1/admin/users/${user.id}/sessions`,
      undefined,
      await admin.adminToken(),
    );
    expect(ended.status).toBe(204);

    const userinfo = await fetch(`${service().url}oidc/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const after = left(await browser.navigate(silent()));
    expect(after.origin + after.pathname).toBe(APP_CALLBACK);
    expect(after.searchParams.get('error')).toBe('login_required');
  });
});
