import type { AuthService, JsonObject, SelfService, UserService } from '@uas/domain';
import type { Logger } from './logger';

/** Everything the HTTP app needs, handed over by the composition root (apps/server). */
export interface HttpAppDeps {
  users: UserService;
  self: SelfService;
  adminAuth: AuthService;
  userAuth: AuthService;
  /** The public keys that verify every token, as a JWK Set. */
  jwks(): Promise<{ keys: JsonObject[] }>;
  /** Resolves when the service can do its work; rejects when the database is unreachable. */
  health(): Promise<void>;
  logger: Logger;
  /**
   * Socket addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For and
   * X-Forwarded-Proto are believed. Empty: believe none, the socket address is the client.
   */
  trustedProxies: readonly string[];
  /** Absolute directory of the built admin panel (index.html + assets), served at /admin/; or null. */
  panelRoot: string | null;
}
