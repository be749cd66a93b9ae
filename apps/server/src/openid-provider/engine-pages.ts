import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A plain page of the engine's own: no outside fonts or scripts, nothing but what it says. */
function page(ctx: KoaContextWithOIDC, title: string, body: string): void {
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/**
 * What a browser sees when an authorization request cannot go back to its application (an
 * unknown client, a redirect URI not registered): the engine's error code and sentence only,
 * never a cause or a stack.
 */
export async function engineErrorPage(ctx: KoaContextWithOIDC, out: ErrorOut): Promise<void> {
  const description = out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : '';
  page(ctx, 'This sign-in cannot continue', `<p><code>${escapeHtml(out.error)}</code></p>${description}`);
}

/** RP-initiated logout asks before it signs the browser out: `form` is the engine's, with its CSRF token. */
export async function signOutPage(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  page(
    ctx,
    'Sign out?',
    `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}

export async function signedOutPage(ctx: KoaContextWithOIDC): Promise<void> {
  page(ctx, 'Signed out', '<p>You are signed out. You may close this page.</p>');
}
