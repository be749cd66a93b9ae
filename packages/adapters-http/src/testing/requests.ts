/** Request-building helpers shared by the HTTP tests (and usable against a real server). */

const JSON_TYPE = 'application/json';

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** `{ data: { type: 'users', attributes } }`, the request envelope of every resource body. */
export const usersDocument = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'users', ...extra, attributes },
});

export const loginDocument = (email: string, password: string) => usersDocument({ email, password });

/** Bindings as @hono/node-server passes them, with the socket address a test wants to come from. */
export const fromAddress = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

/** The cookies of a response as name → { value, attributes } (attribute names lower-cased). */
export function responseCookies(response: Response): Map<string, { value: string; attributes: Map<string, string> }> {
  const cookies = new Map<string, { value: string; attributes: Map<string, string> }>();
  for (const header of response.headers.getSetCookie()) {
    const [pair = '', ...rest] = header.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const attributes = new Map(
      rest.map((part) => {
        const [key = '', value = ''] = part.split('=');
        return [key.toLowerCase(), value] as const;
      }),
    );
    cookies.set(pair.slice(0, separator), { value: decodeURIComponent(pair.slice(separator + 1)), attributes });
  }
  return cookies;
}
