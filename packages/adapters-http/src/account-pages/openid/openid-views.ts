import { accountDocument } from '../account-layout';
import { html, type Html } from '../html';
import type { ApplicationGrant } from '@uas/domain';
import type { PendingSecondStep } from './form-sign-in';
import { scopeWords } from './scope-words';

/** A way to sign in elsewhere, offered beside the password: its words and where its link goes. */
export interface ProviderLink {
  readonly label: string;
  readonly href: string;
}

/** Where a page sits (`root`: the way up to the pages' own address) and where its form posts. */
export interface PagePlace {
  readonly root: string;
  readonly action: string;
}

/** The refusal shown above a form, announced, with the id the fields it concerns point to. */
const ERROR_ID = 'sign-in-error';
const errorLine = (error: string | null) =>
  error === null ? null : html`<p class="error" id="${ERROR_ID}" role="alert">${error}</p>\n`;
const describedBy = (error: string | null) =>
  error === null ? null : html` aria-invalid="true" aria-describedby="${ERROR_ID}"`;

/**
 * The password form: the address (the application's `login_hint`, or what was typed, written
 * back; never the password), then the identity providers as links (a link, not a form: the
 * provider is another site, and the pages' CSP lets forms lead only here).
 */
export function signInPage({
  place,
  title,
  intro,
  email,
  error,
  providers,
}: {
  place: PagePlace;
  title: string;
  intro: string;
  email: string;
  error: string | null;
  providers: readonly ProviderLink[];
}): string {
  const focusPassword = error !== null && email !== '';
  const others =
    providers.length === 0
      ? null
      : html`<div class="other-ways">
<p>Or continue with another account:</p>
<ul>
${providers.map(({ label, href }) => html`<li><a href="${href}">Continue with ${label}</a></li>\n`)}</ul>
</div>`;
  const body = html`<p>${intro}</p>
${errorLine(error)}<form method="post" action="${place.action}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" value="${email}" required${describedBy(error)}${focusPassword ? null : html` autofocus`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy(error)}${focusPassword ? html` autofocus` : null}>
<button type="submit">Sign in</button>
</form>
${others}`;
  return accountDocument({ title, body, error: error !== null, root: place.root });
}

/**
 * The second step: a code from the authenticator app, or a recovery code. A passkey needs the
 * browser's WebAuthn API, which a page without script cannot call: an account whose only way is
 * a passkey is told to use a recovery code or the application's own sign-in.
 */
export function secondStepPage({
  place,
  pending,
  error,
}: {
  place: PagePlace;
  pending: PendingSecondStep;
  error: string | null;
}): string {
  const title = 'Confirm it is you';
  const totp = pending.kinds.includes('totp');
  const recovery = pending.kinds.includes('recovery_code');
  if (!totp && !recovery) {
    const body = html`<p role="alert">This account confirms sign-ins with a passkey, which this page cannot use. Sign in where you use your passkey, or ask an administrator for recovery codes.</p>`;
    return accountDocument({ title, body, error: true, root: place.root });
  }
  const label =
    totp && recovery
      ? 'Code from your authenticator app, or a recovery code'
      : totp
        ? 'Code from your authenticator app'
        : 'Recovery code';
  const body = html`<p>Your account has a second factor. Enter a code to finish signing in.</p>
${errorLine(error)}<form method="post" action="${place.action}">
<input type="hidden" name="challenge" value="${pending.handle}">
<input type="hidden" name="kinds" value="${pending.kinds.join(' ')}">
<label for="code">${label}</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" spellcheck="false" required autofocus${describedBy(error)}>
<button type="submit">Confirm</button>
</form>`;
  return accountDocument({ title, body, error: error !== null, root: place.root });
}

/** What the application asks for, in plain words, and the choice: allow or deny. */
export function consentPage({
  place,
  client,
  scopes,
}: {
  place: PagePlace;
  client: string;
  scopes: readonly string[];
}): string {
  const body = html`<p><strong>${client}</strong> asks to use your account. It would be able to:</p>
<ul>
${scopes.map((scope) => html`<li>${scopeWords(scope)}</li>\n`)}</ul>
<form method="post" action="${place.action}">
<div class="choices">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`;
  return accountDocument({ title: `Let ${client} use your account?`, body, root: place.root });
}

/**
 * The way back to the engine, which answers the application. A page rather than a redirect: the
 * engine's answer leads to the application's site, and browsers hold every redirect after a form
 * to the pages' CSP (`form-action 'self'`); a meta refresh is a navigation of its own. The link
 * is there for a browser that does not follow it.
 */
export function onwardPage({
  title,
  root,
  location,
  client,
}: {
  title: string;
  root: string;
  location: string;
  client: string;
}): string {
  const body = html`<p role="status">Taking you to ${client}…</p>
<a class="continue" href="${location}">Continue to ${client}</a>`;
  return accountDocument({ title, body, root, refreshTo: location });
}

/** One application the user let in: what it may do, and the button that ends its access. */
function applicationItem(application: ApplicationGrant, csrf: string): Html {
  // A grant outlives its client's name only while the client is being deleted, grants and all.
  const name = application.clientName ?? 'An application being removed';
  return html`<li>
<h2>${name}</h2>
<ul>
${application.scopes.map((scope) => html`<li>${scopeWords(scope)}</li>\n`)}</ul>
<form method="post" action="applications/revoke">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="application" value="${application.id}">
<button type="submit" class="secondary">Remove access of ${name}</button>
</form>
</li>
`;
}

/** The applications a signed-in user let in, each revocable, and the way to sign out. */
export function applicationsPage({
  applications,
  csrf,
  error,
}: {
  applications: readonly ApplicationGrant[];
  csrf: string;
  error: string | null;
}): string {
  const list =
    applications.length === 0
      ? html`<p>No application uses your account.</p>`
      : html`<ul>
${applications.map((application) => applicationItem(application, csrf))}</ul>`;
  const body = html`${error === null ? null : html`<p class="error" role="alert">${error}</p>\n`}<p>These applications may use your account. Removing one signs it out and stops it until you allow it again.</p>
${list}
<form method="post" action="sign-out">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" class="secondary">Sign out</button>
</form>`;
  return accountDocument({ title: 'Your applications', body, error: error !== null });
}
