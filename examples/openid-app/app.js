// A web application that signs its users in through the user-account service with OpenID
// Connect, using openid-client (v6) and nothing else: the authorization code flow with PKCE,
// state and nonce, the ID token and userinfo checked by openid-client, RP-initiated logout.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as client from 'openid-client';

const SCOPE = 'openid email profile';
const COOKIE = 'openid_app_session';

const escapeHtml = (value) =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const page = (body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>OpenID example app</title></head><body>${body}</body></html>`;

/**
 * The app's HTTP server, not yet listening. `issuer` is the service's PUBLIC_URL without its
 * trailing slash; `appUrl` is where browsers reach this app (its callback, `appUrl/callback`, and
 * `appUrl` itself must be the client's registered redirect and post-logout redirect URIs).
 * Without `clientSecret` the app is a public client: PKCE alone proves it is the one that started
 * the sign-in.
 */
export async function createOpenIdApp({ issuer, clientId, clientSecret, appUrl }) {
  const issuerUrl = new URL(issuer);
  const config = await client.discovery(
    issuerUrl,
    clientId,
    undefined,
    clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
    // Plain http only for a service on this machine, as in development.
    issuerUrl.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
  );
  const callbackUrl = new URL('callback', `${appUrl}/`).href;
  /** Sessions by cookie: what a sign-in in progress must check, then who signed in. */
  const sessions = new Map();

  const sessionOf = (request) => {
    const id = /(?:^|;\s*)openid_app_session=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];
    return id && sessions.has(id) ? { id, session: sessions.get(id) } : null;
  };
  const redirect = (response, location, cookie) =>
    response.writeHead(303, { Location: location, ...(cookie ? { 'Set-Cookie': cookie } : {}) }).end();
  const html = (response, status, body) =>
    response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(body));

  /** Sends the browser to the service's sign-in, with a fresh PKCE verifier, state and nonce kept here. */
  async function signIn(response) {
    const pending = {
      codeVerifier: client.randomPKCECodeVerifier(),
      state: client.randomState(),
      nonce: client.randomNonce(),
    };
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, { pending });
    const location = client.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    redirect(response, location.href, `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`);
  }

  /** Back from the service: openid-client redeems the code and checks state, nonce and the ID token. */
  async function callback(request, response) {
    const found = sessionOf(request);
    if (!found?.session.pending)
      return html(response, 400, '<p>No sign-in in progress. <a href="/">Start again</a></p>');
    const { pending } = found.session;
    try {
      const tokens = await client.authorizationCodeGrant(config, new URL(request.url, `${appUrl}/`), {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      sessions.set(found.id, { idToken: tokens.id_token, userinfo });
      redirect(response, '/');
    } catch (error) {
      sessions.delete(found.id);
      // The service's answer (access_denied when the user declines) or a check that failed.
      html(
        response,
        400,
        `<p>Sign-in failed: ${escapeHtml(error.error ?? error.code ?? 'error')}</p><a href="/">Home</a>`,
      );
    }
  }

  /** Forgets the session here and ends the one at the service too (RP-initiated logout). */
  function signOut(request, response) {
    const found = sessionOf(request);
    if (!found?.session.idToken) return redirect(response, '/');
    sessions.delete(found.id);
    const location = client.buildEndSessionUrl(config, {
      id_token_hint: found.session.idToken,
      post_logout_redirect_uri: appUrl,
    });
    redirect(response, location.href, `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  }

  function home(request, response) {
    const userinfo = sessionOf(request)?.session.userinfo;
    if (!userinfo) return html(response, 200, '<h1>OpenID example app</h1><p><a href="/login">Sign in</a></p>');
    html(
      response,
      200,
      `<h1>Signed in as ${escapeHtml(userinfo.email ?? userinfo.sub)}</h1>
<p>Your claims, from the service's userinfo endpoint:</p>
<pre id="claims">${escapeHtml(JSON.stringify(userinfo, null, 2))}</pre>
<p><a href="/logout">Sign out</a></p>`,
    );
  }

  return createServer((request, response) => {
    const { pathname } = new URL(request.url, `${appUrl}/`);
    const routes = { '/': home, '/login': (_, res) => signIn(res), '/callback': callback, '/logout': signOut };
    const route = request.method === 'GET' ? routes[pathname] : undefined;
    if (!route) return html(response, 404, '<p>Not found</p>');
    Promise.resolve(route(request, response)).catch(() => html(response, 500, '<p>Something went wrong</p>'));
  });
}
