/**
 * What a presented token may look like: URL-safe text of a sane length. Anything else is refused
 * before the store is asked, as any wrong token is.
 */
export const TOKEN_FORM = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Whether `presented` could be a token at all. A page that a mailed link opens says at once that
 * a mangled link is invalid, consuming nothing; whether it is a live token only a use can tell.
 */
export const hasActionTokenForm = (presented: unknown): presented is string =>
  typeof presented === 'string' && TOKEN_FORM.test(presented);
