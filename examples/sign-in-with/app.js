// "Continue with <provider>" for a browser app, with nothing but fetch and WebCrypto:
// 1. make a PKCE pair, keep the verifier in sessionStorage, send the browser to the service's
//    /v1/oauth/{provider}/authorize with the challenge and this page as redirect_to;
// 2. the service sends the browser to the provider and back here with ?code=… (or ?error=…);
// 3. redeem the code with the verifier at POST /v1/oauth/token: the same session /v1/login gives.
const { serviceUrl, provider, providerName } = window.SIGN_IN_CONFIG;
const VERIFIER_KEY = 'sign-in-with:verifier';
const api = (path) => new URL(path, serviceUrl).href;
const $ = (id) => document.getElementById(id);

/** base64url without padding, as PKCE (RFC 7636) writes its values. */
const base64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

async function pkcePair() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

/** This page, without the code or error the service added: where the service sends the browser back. */
const thisPage = () => `${location.origin}${location.pathname}`;

async function continueWithProvider() {
  const { verifier, challenge } = await pkcePair();
  sessionStorage.setItem(VERIFIER_KEY, verifier);
  const query = new URLSearchParams({ redirect_to: thisPage(), code_challenge: challenge });
  location.assign(api(`v1/oauth/${encodeURIComponent(provider)}/authorize?${query}`));
}

async function call(method, path, { token, body } = {}) {
  const response = await fetch(api(path), {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

let session = null;

function show(status) {
  $('signed-out').hidden = session !== null;
  $('signed-in').hidden = session === null;
  $('status').textContent = status;
}

/** Back from the provider: the code is redeemed once, with the verifier only this tab holds. */
async function finishSignIn(code) {
  const verifier = sessionStorage.getItem(VERIFIER_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  const token = await call('POST', 'v1/oauth/token', { body: { code, code_verifier: verifier ?? '' } });
  if (token.status !== 200) return show(`Sign-in failed: ${token.body.errors[0].code}`);
  if (token.body.data.type === 'mfa_challenges') {
    return show('A second factor is needed: answer the challenge at POST /v1/login/mfa.');
  }
  session = token.body.data.attributes;
  const me = await call('GET', 'v1/users/me', { token: session.access_token });
  $('email').textContent = me.body.data.attributes.email;
  show('');
}

async function signOut() {
  const revoked = await call('DELETE', 'v1/refresh', {
    token: session.access_token,
    body: { refreshToken: session.refresh_token },
  });
  if (revoked.status !== 204) return show(`Sign-out failed: ${revoked.body.errors[0].code}`);
  session = null;
  show('Signed out.');
}

async function start() {
  $('continue').textContent = `Continue with ${providerName}`;
  $('continue').addEventListener('click', continueWithProvider);
  $('sign-out').addEventListener('click', signOut);
  const params = new URLSearchParams(location.search);
  // The code is single use and short-lived: take it out of the address bar and history at once.
  if (params.has('code') || params.has('error')) history.replaceState(null, '', thisPage());
  if (params.has('code')) return finishSignIn(params.get('code'));
  show(params.has('error') ? `Sign-in failed: ${params.get('error')}` : '');
}

start();
