import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ForbiddenAddressError, forbiddenAddressKind, guardedLookup } from './address-guard';
import { networkFailureReason } from './network-failures';

/** The largest answer read from an outside party: discovery documents, key sets and tokens are far smaller. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface GuardedFetchOptions {
  /** Whether loopback, private and link-local addresses may be reached. */
  allowPrivateAddresses: boolean;
  /** The setting that allows them, named in each refusal. */
  allowVariable: string;
  /** How long a request may take, connection to last byte. */
  timeoutMs: number;
}

/** A request that got no answer, with a reason fit for a log (no address, no URL). */
export class GuardedFetchError extends Error {}

interface FetchInit {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: unknown;
  signal?: AbortSignal | null;
}

const bodyOf = (body: unknown): string | Uint8Array | undefined => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new GuardedFetchError('unsupported request body');
};

/** Statuses whose Response carries no body. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * A `fetch` on node's http(s) client whose sockets connect only to global unicast addresses
 * (the check is on the address being connected to, after DNS; an address literal is checked
 * before, as it is never looked up), unless private addresses are allowed. A redirect is an
 * answer like any other, never followed; an answer past MAX_ANSWER_BYTES or the timeout fails.
 */
export function guardedFetch(options: GuardedFetchOptions) {
  const lookup = options.allowPrivateAddresses ? undefined : guardedLookup(options.allowVariable);
  const agents = {
    http: new HttpAgent({ keepAlive: true, lookup }),
    https: new HttpsAgent({ keepAlive: true, lookup }),
  };

  async function fetchGuarded(url: string | URL, init: FetchInit = {}): Promise<Response> {
    const target = new URL(url);
    if (!options.allowPrivateAddresses && forbiddenAddressKind(target.hostname) !== null) {
      throw new GuardedFetchError(new ForbiddenAddressError(options.allowVariable).message);
    }
    const https = target.protocol === 'https:';
    if (!https && target.protocol !== 'http:') throw new GuardedFetchError('only http and https are spoken');
    const body = bodyOf(init.body);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(init.signal ? [init.signal] : [])]);
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const request = (https ? httpsRequest : httpRequest)(target, {
          method: init.method ?? 'GET',
          headers,
          agent: https ? agents.https : agents.http,
          signal,
        });
        request.on('response', resolve);
        request.on('error', reject);
        request.end(body);
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          response.destroy();
          throw new GuardedFetchError(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
      const status = response.statusCode ?? 502;
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
          answerHeaders.append(name, one);
      }
      return new Response(BODILESS.has(status) ? null : Buffer.concat(chunks), { status, headers: answerHeaders });
    } catch (error) {
      if (error instanceof GuardedFetchError) throw error;
      const reason = networkFailureReason(error as Error & { code?: string }, options.timeoutMs);
      throw new GuardedFetchError(reason ?? 'could not reach the host');
    }
  }

  return Object.assign(fetchGuarded, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}
