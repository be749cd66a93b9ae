/** The longest `redirect_to` accepted (it is stored with the attempt and written into a Location). */
export const REDIRECT_TARGET_MAX_LENGTH = 2048;

/** C0 controls and DEL: the URL parser drops tabs and newlines silently (`java\tscript:`), so none may appear. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The value as it reads once percent-decoded until nothing changes (a few rounds): an app or a
 * proxy may decode once more before redirecting, so `%2F%2Fevil.example` must be judged as
 * `//evil.example`. Null when it is malformed.
 */
function decodedFully(value: string): string | null {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * Why `value` may not be where a sign-in with an identity provider ends (`redirect_to`), or null
 * when it may: a path on this service (`/app/done`: one leading slash, never `//host`), or an
 * absolute http(s) URL whose origin is `publicOrigin` or exactly one of `allowList` (origins as
 * `URL.origin` writes them: scheme and host in lower case, no default port). No userinfo, no
 * backslash (browsers read it as a slash), no control character, in the value or once
 * percent-decoded. Nothing else: no wildcard, no other scheme (`javascript:`, `data:`).
 */
export function redirectTargetProblem(
  value: string,
  publicOrigin: string,
  allowList: readonly string[],
): string | null {
  if (value === '') return 'must not be empty';
  if (value.length > REDIRECT_TARGET_MAX_LENGTH) return `must be at most ${REDIRECT_TARGET_MAX_LENGTH} characters`;
  const decoded = decodedFully(value);
  if (decoded === null) return 'must be correctly percent-encoded';
  for (const form of [value, decoded]) {
    if (CONTROL.test(form)) return 'must not contain control characters';
    if (form.includes('\\')) return 'must not contain a backslash';
    if (form.trim() !== form) return 'must not start or end with spaces';
  }
  if (value.startsWith('/')) {
    if (decoded.startsWith('//')) return 'must be a path with a single leading slash (not //host)';
    // Belt and braces: the path, resolved against this service, must stay on it.
    // Dot segments can make one (`/.//evil.example` resolves to the path `//evil.example`), which
    // an app that redirects by path alone would read as another host.
    const base = new URL(publicOrigin);
    const resolved = new URL(value, base);
    if (resolved.pathname.startsWith('//')) return 'must be a path with a single leading slash (not //host)';
    return resolved.origin === base.origin ? null : 'must stay on this service';
  }
  if (!URL.canParse(value)) return 'must be a path starting with / or an absolute URL';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  const allowed = [publicOrigin, ...allowList].map((origin) =>
    URL.canParse(origin) ? new URL(origin).origin : origin,
  );
  if (!allowed.includes(url.origin)) {
    return 'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST';
  }
  return null;
}
