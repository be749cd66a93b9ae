import type { Clock, Logger } from '@uas/domain';
import Provider from 'oidc-provider';
import { engineConfiguration, type EngineParts, type EngineSettings } from './openid-configuration';
import type { EngineKeys } from './engine-keys';
import type { TokenRefusals } from './token-refusals';

/**
 * How often the engine's keys are compared with the database's: a rotation on another instance,
 * or a scheduled key's activation, reaches this one within this time (the key ring itself reads
 * the stored keys every minute, and at once for a kid it does not know).
 */
const KEYS_CHECK_MS = 5_000;

/** What the engine answers, with when to try again, when the service cannot (never a 500 or its cause). */
export const RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE = {
  error: 'temporarily_unavailable',
  error_description: 'The service cannot answer now; try again.',
};

export interface OpenIdEngineDeps {
  /** PUBLIC_URL without its trailing slash. */
  issuer: string;
  settings: EngineSettings;
  parts: Omit<EngineParts, 'jwks' | 'cookieKeys'>;
  keys(): Promise<EngineKeys>;
  refusals: TokenRefusals;
  clock: Clock;
  logger: Logger;
}

/**
 * The OpenID Connect engine (panva's oidc-provider). Its signing and cookie keys are fixed when
 * it is built, so it is built again whenever the stored keys change: every instance then holds
 * the same keys, and signs with the key the service's own tokens are signed with. Everything
 * else it keeps is in the database, so a rebuild loses nothing.
 */
export class OpenIdEngine {
  private built: { fingerprint: string; provider: Provider } | undefined;
  private checkedAt = -Infinity;
  private checking: Promise<Provider> | undefined;

  constructor(private readonly deps: OpenIdEngineDeps) {}

  /** The engine as the stored keys have it now. */
  async provider(): Promise<Provider> {
    if (this.built && this.deps.clock.now().getTime() - this.checkedAt < KEYS_CHECK_MS) return this.built.provider;
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check(): Promise<Provider> {
    const keys = await this.deps.keys();
    this.checkedAt = this.deps.clock.now().getTime();
    if (this.built?.fingerprint !== keys.fingerprint) {
      this.built = { fingerprint: keys.fingerprint, provider: this.build(keys) };
    }
    return this.built.provider;
  }

  private build(keys: EngineKeys): Provider {
    const { issuer, settings, parts, refusals, logger } = this.deps;
    const provider = new Provider(
      issuer,
      engineConfiguration(settings, { ...parts, jwks: keys.jwks, cookieKeys: keys.cookieKeys }),
    );
    // The mount writes the forwarded headers itself, from PUBLIC_URL and the trusted proxies.
    provider.proxy = true;
    provider.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        logger.error('openid engine error', { error: (error as Error)?.message ?? String(error) });
        ctx.status = 500;
      }
      // A fault (the database out of reach, say) is the service's, and passes: 503 and when to
      // try again, as the service answers elsewhere; never a 500 or its cause.
      if (ctx.status < 500) return;
      ctx.status = 503;
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      if (ctx.type !== 'text/html') ctx.body = UNAVAILABLE;
    });
    provider.on('grant.error', (ctx, error) => {
      refusals
        .record(ctx, error)
        .catch((failure: unknown) => logger.warn('token refusal not audited', { error: (failure as Error).message }));
    });
    provider.on('server_error', (_ctx, error) => {
      logger.error('openid engine error', { error: (error as Error).message });
    });
    return provider;
  }
}
