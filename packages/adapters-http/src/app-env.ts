import type { AdminRole, Identity } from '@uas/domain';
import type { ApiErrorCode } from './errors/error-catalogue';

/** What the HTTP layer knows about the client once the request context middleware has run. */
export interface ClientInfo {
  /** The socket address, or the right-most untrusted X-Forwarded-For entry behind a trusted proxy. */
  address: string;
  /** Whether the client reached us over HTTPS (directly, or as a trusted proxy says). */
  secure: boolean;
  /** The origin (scheme://host) the client addressed, for same-origin checks. */
  origin: string;
  /** The User-Agent header, cut to USER_AGENT_MAX_LENGTH; null when absent or not storable text. */
  userAgent: string | null;
}

/**
 * Bindings as @hono/node-server passes them. Under `app.request()` tests may pass
 * `{ incoming: { socket: { remoteAddress } } }` to simulate a client address.
 */
interface NodeBindings {
  incoming?: {
    socket?: { remoteAddress?: string; remotePort?: number; remoteFamily?: string };
    /** The request head as Node parsed it: lower-case names. */
    headers?: Readonly<Record<string, string | string[] | undefined>>;
    /** Null until something reads the body (Node's Readable). */
    readableFlowing?: boolean | null;
    [Symbol.asyncIterator]?(): AsyncIterator<Uint8Array>;
  };
}

export interface AppEnv {
  Bindings: NodeBindings;
  Variables: {
    requestId: string;
    client: ClientInfo;
    /** The parsed JSON request body; undefined when the request has none. */
    jsonBody: unknown;
    /** The fields of a form posted to one of the `/account/` pages (the body guard's `formPaths`). */
    formBody: URLSearchParams;
    /** The code of the first error in the response, once `onError` has answered one. */
    errorCode: ApiErrorCode | undefined;
  };
}

export interface AuthenticatedEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { identity: Identity };
}

/** An admin route's context once the admin's role allowed it: that role, as read at this request. */
export interface AdminEnv extends AuthenticatedEnv {
  Variables: AuthenticatedEnv['Variables'] & { role: AdminRole };
}
