import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { USER_PASSWORD } from '../support/wire';
import { registerClient, useOpenIdProvider } from './op-test-plan-support';
import { authorize, left, UserAgent } from './user-agent';

const SERVER = fileURLToPath(new URL('../../../../examples/openid-app/server.js', import.meta.url));
const USER = { email: 'example-app-user@example.com', password: USER_PASSWORD };

/**
 * examples/openid-app as its README runs it (`node server.js` with ISSUER, CLIENT_ID,
 * CLIENT_SECRET and APP_URL), against the real service, walked by a browser without a script
 * engine: sign in, the claims shown, sign out at the service too.
 */
describe('the example OpenID app', () => {
  const op = useOpenIdProvider('sqlite');
  let app: ChildProcess | undefined;
  let appUrl: string;
  let userId: string;

  beforeAll(async () => {
    userId = (await op().admin.createUser({ ...USER, name: 'Ada', metadata: { theme: 'dark' } })).id;
    const port = await freePort();
    appUrl = `http://localhost:${port}`;
    // As the README registers it: a confidential native client, on loopback http.
    const registered = await registerClient(op().admin, {
      name: 'OpenID example app',
      type: 'confidential',
      application_type: 'native',
      redirect_uris: [`${appUrl}/callback`],
      post_logout_redirect_uris: [appUrl],
      scopes: ['openid', 'email', 'profile'],
    });
    const started = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        ISSUER: op().issuer,
        CLIENT_ID: registered.clientId,
        CLIENT_SECRET: registered.clientSecret ?? '',
        APP_URL: appUrl,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    app = started;
    await new Promise<void>((resolve, reject) => {
      started.once('exit', (code) => reject(new Error(`the example app exited with ${code}`)));
      started.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Open ')) resolve();
      });
    });
  }, 30_000);
  afterAll(() => {
    app?.kill();
  });

  it('signs a user in through the service (sign-in and consent pages), shows their claims, and signs out at the service too', async () => {
    const atApp = new UserAgent(appUrl);
    const atService = op().agent();
    const { callback, shown } = await authorize(atService, left(await atApp.navigate('/login')), {
      id: userId,
      ...USER,
    });
    expect(shown).toEqual({ signIn: true, consent: true });
    expect(callback.href.startsWith(`${appUrl}/callback?`)).toBe(true);
    const home = await atApp.navigate(callback);
    expect(home.kind === 'page' && home.status).toBe(200);
    const html = home.kind === 'page' ? home.html : '';
    expect(html).toContain(`Signed in as ${USER.email}`);
    expect(html).toContain(`&quot;sub&quot;: &quot;${userId}&quot;`);
    expect(html).toContain('&quot;name&quot;: &quot;Ada&quot;');

    // Sign-out: the app forgets the user, the service asks to confirm, ends its session, sends the browser back.
    const logout = left(await atApp.navigate('/logout'));
    expect(logout.pathname).toBe('/oidc/logout');
    const confirm = await atService.navigate(logout);
    const back = left(await atService.submit(confirm, {}, 'Yes, sign me out'));
    expect(back.href.replace(/\/$/, '')).toBe(appUrl);
    const signedOut = await atApp.navigate('/');
    expect(signedOut.kind === 'page' && signedOut.html).toContain('Sign in');
    // The service's session is over: the next sign-in asks for the password again.
    const again = await authorize(atService, left(await atApp.navigate('/login')), { id: userId, ...USER });
    expect(again.shown.signIn).toBe(true);
  });
});
