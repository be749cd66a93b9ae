import type { IncomingMessage, ServerResponse } from 'node:http';

/** The endpoints a browser may be sent to by a form as well as by a link, as the mount sees their paths. */
const FORM_OR_LINK_PATHS = new Set(['/oidc/auth', '/oidc/logout']);
/** A form larger than this would not fit the address it becomes. */
const FORM_LIMIT_BYTES = 8 * 1024;

export const isPostedRequest = (req: IncomingMessage, path: string) =>
  req.method === 'POST' && FORM_OR_LINK_PATHS.has(path);

/**
 * OpenID Connect has providers accept the authorization request (Core 3.1.2.1) and the logout
 * request (RP-Initiated Logout 2) as a form POST too. The engine
 * would take it only with its session cookie made `SameSite=None` (a browser would then send it on
 * every cross-site request, and refuse it outright over http); instead the form is answered with
 * 303 to the same request as GET, which the browser follows as a top-level navigation: its
 * `SameSite=Lax` session cookie goes with it, so a signed-in user stays signed in.
 */
export async function redirectPostedRequest(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: string,
): Promise<void> {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return refuse(res, 415, 'The request is a form (application/x-www-form-urlencoded).');
  }
  const form = await readForm(req);
  if (form === null) return refuse(res, 413, 'The request is too long.');
  res.writeHead(303, { Location: `${endpoint}?${new URLSearchParams(form)}`, 'Cache-Control': 'no-store' }).end();
}

/** The body as text, or null once it passes the limit (the rest is not read). */
async function readForm(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function refuse(res: ServerResponse, status: number, description: string): void {
  const body = JSON.stringify({ error: 'invalid_request', error_description: description });
  res
    .writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Connection: 'close' })
    .end(body);
}
