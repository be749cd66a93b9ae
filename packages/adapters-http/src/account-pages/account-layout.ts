import { html, type Html } from './html';

/** Where the pages live; the mailed links (`accountLink` in the domain) point under it. */
export const ACCOUNT_PATH = '/account';
export const ACCOUNT_STYLESHEET = 'account.css';

/**
 * The look of every page: one stylesheet from this origin (the panel's CSP forbids inline style),
 * readable without it.
 */
export const ACCOUNT_CSS = `body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f4f5f7; }
main { max-width: 28rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
h1 { font-size: 1.5rem; margin-top: 0; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input:not([type="hidden"]) { display: block; box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit; border: 1px solid #6b7280; border-radius: 4px; }
input[aria-invalid="true"] { border: 2px solid #b42318; }
button, .continue { display: inline-block; margin-top: 1.5rem; padding: 0.6rem 1.2rem; font: inherit; color: #fff; background: #1d4ed8; border: 0; border-radius: 4px; text-decoration: none; cursor: pointer; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.error { color: #b42318; font-weight: 600; margin: 0.25rem 0 0; }
.secondary { color: #1d4ed8; background: #fff; border: 1px solid #1d4ed8; }
.choices { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.other-ways { margin-top: 2rem; border-top: 1px solid #d0d5dd; }
li { margin: 0.25rem 0; }
`;

/**
 * A whole page: language, title (prefixed "Error:" when the page reports one, so that a screen
 * reader says so first), one heading. `no-referrer` is also in the markup so the token in the
 * address stays here even where a proxy drops the header; the empty icon spares the browser a
 * request for /favicon.ico.
 */
export function accountDocument({
  title,
  body,
  error = false,
  root = '',
  refreshTo,
}: {
  title: string;
  body: Html;
  error?: boolean;
  /** The way up from the page's address to the pages' own (`../` per segment below it), for relative links. */
  root?: string;
  /** Where the browser goes on at once (a meta refresh, which no form-action rule stops). */
  refreshTo?: string;
}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${
  refreshTo === undefined
    ? null
    : html`<meta http-equiv="refresh" content="0; url=${refreshTo}">
`
}<title>${error ? 'Error: ' : ''}${title} – Account</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}${ACCOUNT_STYLESHEET}">
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.markup;
}
