import { accountDocument } from './account-layout';
import type { AccountPageSpec } from './account-page-specs';
import { html, type Html } from './html';

/** A problem with one field of the form, shown beside it. */
export interface FieldErrors {
  password?: string;
  confirmation?: string;
}

/** Where a page ends: a link to the application when APP_URL is set (config only, never the request's). */
const onward = (appUrl: string | null, text: string) =>
  appUrl === null ? html`<p>You can close this page.</p>` : html`<a class="continue" href="${appUrl}">${text}</a>`;

/**
 * A password field with its label, bound by `for`, and its error, announced (role="alert") and
 * tied to the field by aria-describedby. The field that failed gets the focus; the password is
 * never written back into the page.
 */
function passwordField(id: string, label: string, error: string | undefined, focus: boolean): Html {
  const errorId = `${id}-error`;
  return html`<label for="${id}">${label}</label>
${error === undefined ? null : html`<p class="error" id="${errorId}" role="alert">${error}</p>`}
<input id="${id}" name="${id}" type="password" autocomplete="new-password" required${
    error === undefined ? null : html` aria-invalid="true" aria-describedby="${errorId}"`
  }${focus ? html` autofocus` : null}>
`;
}

/**
 * The page's form: the token in a hidden field, so the POST (which alone acts) carries it and the
 * address it goes to does not. The action is relative, so it holds under a PUBLIC_URL with a path.
 */
export function formPage(spec: AccountPageSpec, token: string, errors: FieldErrors = {}): string {
  const fields = spec.choosesPassword
    ? html`${passwordField('password', 'New password', errors.password, errors.password !== undefined)}
${passwordField('confirmation', 'New password again', errors.confirmation, errors.password === undefined && errors.confirmation !== undefined)}`
    : null;
  const body = html`<p>${spec.intro}</p>
<form method="post" action="${spec.page}">
<input type="hidden" name="token" value="${token}">
${fields}
<button type="submit">${spec.submit}</button>
</form>`;
  const error = errors.password !== undefined || errors.confirmation !== undefined;
  return accountDocument({ title: spec.title, body, error });
}

/** The action is done. */
export function donePage(spec: AccountPageSpec, appUrl: string | null): string {
  return accountDocument({
    title: spec.done.title,
    body: html`<p role="status">${spec.done.text}</p>
${onward(appUrl, 'Continue')}`,
  });
}

/**
 * The page cannot go on, for a reason that no retry of the same form mends (the link is invalid,
 * used or expired; the form came from elsewhere; the new address was taken): the reason, and the
 * way to the application, but no form that could only fail again.
 */
export function stoppedPage(title: string, reason: string, next: string, appUrl: string | null, root = ''): string {
  return accountDocument({
    title,
    error: true,
    root,
    body: html`<p role="alert">${reason}</p>
<p>${next}</p>
${onward(appUrl, 'Go to the application')}`,
  });
}
