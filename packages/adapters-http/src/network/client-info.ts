import { getConnInfo } from '@hono/node-server/conninfo';
import { isStorableText } from '@uas/domain';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, ClientInfo } from '../app-env';
import { addressMatcher, normalizeAddress, type AddressMatcher } from './ip-address';

/** The address a request gets when there is no socket at all (`app.request()` in tests). */
export const NO_SOCKET_ADDRESS = '127.0.0.1';

function socketAddress(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // not served by @hono/node-server: no socket to read
  }
}

/** Comma-separated header entries, left to right, blanks dropped. */
function entries(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The client behind a chain of trusted proxies: the right-most X-Forwarded-For entry that is not
 * itself a trusted proxy. Entries further left were written by the client and prove nothing.
 */
function forwardedClient(header: string | undefined, isTrusted: AddressMatcher): string | undefined {
  const hops = entries(header);
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    if (!isTrusted(hop)) return hop;
  }
  return hops[0];
}

/** The most of a User-Agent header a session keeps: enough to recognise a browser, bounded in size. */
const USER_AGENT_MAX_LENGTH = 256;

/** A User-Agent header as the service keeps it: trimmed, bounded, and only if it is storable text. */
export function storableUserAgent(header: string | undefined): string | null {
  const kept = header?.trim().slice(0, USER_AGENT_MAX_LENGTH);
  return kept && isStorableText(kept) ? kept : null;
}

/** The client of a request that reached `socket`: past it, only when it is a trusted proxy. */
export function clientAddressOf(socket: string, forwardedFor: string | undefined, isTrusted: AddressMatcher): string {
  const forwarded = isTrusted(socket) ? forwardedClient(forwardedFor, isTrusted) : undefined;
  return normalizeAddress(forwarded ?? socket);
}

/** Host names compare without a default port, as browsers write them in `Origin`. */
function normalizedHost(scheme: string, host: string, fallback: string): string {
  try {
    return new URL(`${scheme}://${host}`).host;
  } catch {
    return fallback;
  }
}

/** Where a client reached the service: from the URL and the proxies' headers. */
type ClientOrigin = Pick<ClientInfo, 'secure' | 'origin'>;

function describeClient(c: Context<AppEnv>, socket: string, isTrusted: AddressMatcher): ClientOrigin {
  const url = new URL(c.req.url);
  const viaProxy = isTrusted(socket);
  // The nearest proxy writes the last entry; anything before it may come from the client.
  const proto = viaProxy ? entries(c.req.header('x-forwarded-proto')).at(-1)?.toLowerCase() : undefined;
  const secure = proto === undefined ? url.protocol === 'https:' : proto === 'https';
  const scheme = secure ? 'https' : 'http';
  const forwardedHost = viaProxy ? entries(c.req.header('x-forwarded-host')).at(-1) : undefined;
  const host = normalizedHost(scheme, forwardedHost ?? url.host, url.host);
  return {
    secure,
    origin: `${scheme}://${host}`.toLowerCase(),
  };
}

/**
 * The client info of a request, worked out when first read: most requests (every read of a list
 * or an account) never ask, and would pay for parsing the URL and the addresses for nothing. The
 * socket address is taken at once, while the connection is surely open.
 */
class ClientOnDemand implements ClientInfo {
  readonly #c: Context<AppEnv>;
  readonly #socket: string;
  readonly #isTrusted: AddressMatcher;
  #address: string | undefined;
  #userAgent: string | null | undefined;
  #described: ClientOrigin | undefined;

  constructor(c: Context<AppEnv>, isTrusted: AddressMatcher) {
    this.#c = c;
    this.#socket = socketAddress(c) ?? NO_SOCKET_ADDRESS;
    this.#isTrusted = isTrusted;
  }

  /** Asked of nearly every request (its log line, its audit event): worked out alone, without the URL. */
  get address(): string {
    this.#address ??= clientAddressOf(this.#socket, this.#c.req.header('x-forwarded-for'), this.#isTrusted);
    return this.#address;
  }

  get secure(): boolean {
    return this.#info().secure;
  }

  get origin(): string {
    return this.#info().origin;
  }

  /** Asked with the address of every audited change: its header alone. */
  get userAgent(): string | null {
    if (this.#userAgent === undefined) this.#userAgent = storableUserAgent(this.#c.req.header('user-agent'));
    return this.#userAgent;
  }

  toJSON(): ClientInfo {
    const { secure, origin } = this.#info();
    return { address: this.address, secure, origin, userAgent: this.userAgent };
  }

  #info(): ClientOrigin {
    this.#described ??= describeClient(this.#c, this.#socket, this.#isTrusted);
    return this.#described;
  }
}

/** Works out once per request who the client is; nothing but trusted proxies is believed. */
export function clientInfo(trustedProxies: readonly string[]): MiddlewareHandler<AppEnv> {
  const isTrusted = addressMatcher(trustedProxies);
  return async (c, next) => {
    c.set('client', new ClientOnDemand(c, isTrusted));
    await next();
  };
}
