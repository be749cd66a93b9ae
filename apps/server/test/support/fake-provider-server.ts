import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake provider reads it: path, query and (url-encoded) form body. */
interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly form: URLSearchParams;
  readonly authorization: string | undefined;
}

export type FakeHandler = (request: FakeRequest, response: ServerResponse) => unknown;

/** An HTTP server on 127.0.0.1, port 0, answering with `handle` (500 when it throws). */
export async function startLoopbackServer(handle: FakeHandler): Promise<{ origin: string; stop(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        form: new URLSearchParams(body),
        authorization: req.headers.authorization,
      };
      Promise.resolve(handle(request, res)).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Whether a PKCE verifier answers its S256 challenge. */
export const pkceMatches = (verifier: string | null, challenge: string) =>
  verifier !== null && createHash('sha256').update(verifier).digest('base64url') === challenge;

/**
 * Plays the browser at a provider's authorization URL: answers the parameters it sends back to
 * the redirect URI, from a redirect's query or a form_post page's fields.
 */
export async function visitAuthorizationUrl(authorizationUrl: string): Promise<Record<string, string>> {
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (location !== null) return Object.fromEntries(new URL(location).searchParams);
  const html = await answer.text();
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  if (fields.length === 0) throw new Error(`the provider answered ${answer.status} with neither redirect nor form`);
  return Object.fromEntries(fields.map(([, name, value]) => [name!, decodeHtml(value!)]));
}

const decodeHtml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
export const encodeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
