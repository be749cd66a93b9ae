/**
 * Seconds between a token's `iat` and `exp`, read from the payload of a token this service has just
 * issued (nothing here is trusted: it only sizes a cookie). Undefined when the payload is unreadable.
 */
export function tokenLifetimeSeconds(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replaceAll('-', '+').replaceAll('_', '/');
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const { iat, exp } = JSON.parse(new TextDecoder().decode(bytes)) as { iat?: unknown; exp?: unknown };
    return typeof iat === 'number' && typeof exp === 'number' && exp > iat ? exp - iat : undefined;
  } catch {
    return undefined;
  }
}
