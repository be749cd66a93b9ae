import 'reflect-metadata';
import {
  container as rootContainer,
  instanceCachingFactory,
  type DependencyContainer,
  type InjectionToken,
} from 'tsyringe';
import {
  ActionTokenRepository,
  ActivityRepository,
  AdminRepository,
  AuditTrail,
  Clock,
  createUseCases,
  IdGenerator,
  InvitationRepository,
  AdminInvitationRepository,
  ADMIN_INVITATION_LIFETIME_SECONDS,
  FactorRepository,
  SignInChallengeRepository,
  WebhookRepository,
  WebhookDeliveryRepository,
  IdentityProviderRepository,
  ExternalIdentityRepository,
  OAuthAttemptRepository,
  OAuthClientRepository,
  OpenIdRecordRepository,
  WebhookDeliveryWorker,
  WebhookDispatcher,
  LoginAttemptRepository,
  type Logger,
  MailDelivery,
  Mailer,
  MailQueue,
  MailRequestQueue,
  MailService,
  OneTimeCodes,
  PasskeyCeremonies,
  PasswordHasher,
  PasswordRehashRepository,
  RateCounterRepository,
  type Repositories,
  SecretRepository,
  SessionRepository,
  SigningKeyRepository,
  type Token,
  TokenSigner,
  UserImportRepository,
  UpstreamProviders,
  UserRepository,
  type UseCases,
} from '@uas/domain';
import { JWKS_MAX_AGE_SECONDS } from '@uas/adapters-http';
import type { Database } from '@uas/adapters-persistence';
import type { Config } from './config';
import { mfaKeysFrom } from './mfa-key-file';
import { BcryptPasswordHasher } from './adapters/bcrypt-password-hasher';
import { JoseTokenSigner } from './adapters/jose-token-signer';
import { instrumentRepository } from './adapters/instrumented-repository';
import { KeyRing } from './adapters/key-ring';
import { OpenIdUpstreamProviders } from './adapters/openid-upstream-providers';
import { OtplibCodes } from './adapters/otp-codes';
import { SecretKeyRing } from './adapters/secret-key-ring';
import { SimpleWebAuthnCeremonies } from './adapters/webauthn-ceremonies';
import { SmtpMailer } from './adapters/smtp-mailer';
import { forbiddenAddressKind } from './adapters/address-guard';
import { HttpWebhookSender } from './adapters/http-webhook-sender';
import type { PrometheusMetrics } from './adapters/prometheus-metrics';
import { RandomIdGenerator } from './adapters/random-id-generator';
import { SystemClock } from './adapters/system-clock';
import { createOpenIdProvider, type OpenIdProvider } from './openid-provider/openid-provider';

/** Leeway for clocks of different machines when checking `exp` and `iat`. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** Each repository port, under its key in the storage backend's `Repositories`. */
const REPOSITORY_PORTS = {
  users: UserRepository,
  admins: AdminRepository,
  sessions: SessionRepository,
  attempts: LoginAttemptRepository,
  signingKeys: SigningKeyRepository,
  rehash: PasswordRehashRepository,
  imports: UserImportRepository,
  activity: ActivityRepository,
  audit: AuditTrail,
  secrets: SecretRepository,
  mail: MailQueue,
  tokens: ActionTokenRepository,
  rateCounters: RateCounterRepository,
  mailRequests: MailRequestQueue,
  invitations: InvitationRepository,
  adminInvitations: AdminInvitationRepository,
  factors: FactorRepository,
  signInChallenges: SignInChallengeRepository,
  webhooks: WebhookRepository,
  webhookDeliveries: WebhookDeliveryRepository,
  identityProviders: IdentityProviderRepository,
  externalIdentities: ExternalIdentityRepository,
  oauthAttempts: OAuthAttemptRepository,
  oauthClients: OAuthClientRepository,
  openIdRecords: OpenIdRecordRepository,
} satisfies { [Name in keyof Repositories]: Token<Repositories[Name]> };

/**
 * What the machine provides. Tests give the application a child of it with their own clock
 * registered (`systemContainer.createChildContainer()`), which the child built below inherits.
 */
export const systemContainer = rootContainer.createChildContainer();
systemContainer.register(Clock, { useValue: new SystemClock() });

/** Resolves a key with the type it was declared with (tsyringe alone cannot infer it from a symbol). */
function resolve<T>(container: DependencyContainer, key: Token<T>): T {
  return container.resolve<T>(key);
}

/**
 * Registers the adapters of every port, and the key ring the token signer works with, in a child
 * of `parent`. Every registration is a factory with explicit tokens: nothing here emits
 * decorator metadata, so tsyringe cannot infer types. The use cases are the domain's to wire.
 */
export function buildContainer(
  config: Config,
  database: Database,
  metrics: PrometheusMetrics | null = null,
  parent: DependencyContainer = systemContainer,
): DependencyContainer {
  const c = parent.createChildContainer();
  const single = <T>(key: InjectionToken<T>, make: (r: DependencyContainer) => T) =>
    c.register<T>(key, { useFactory: instanceCachingFactory<T>(make) });

  for (const [name, key] of Object.entries(REPOSITORY_PORTS) as [keyof Repositories, Token<unknown>][]) {
    const repository = database.repositories[name];
    c.register(key, { useValue: metrics ? instrumentRepository(name, repository, metrics) : repository });
  }
  single(IdGenerator, () => new RandomIdGenerator());
  single(PasswordHasher, () => new BcryptPasswordHasher(config.bcryptCost, config.passwordHashCeilings));
  single(
    KeyRing,
    (r) =>
      new KeyRing({
        keys: resolve(r, SigningKeyRepository),
        clock: resolve(r, Clock),
        ids: resolve(r, IdGenerator),
        algorithm: config.jwtAlgorithm,
        retireAfterSeconds: Math.max(config.accessTokenSeconds, config.refreshTokenSeconds) + CLOCK_TOLERANCE_SECONDS,
        jwksMaxAgeSeconds: JWKS_MAX_AGE_SECONDS,
        clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
      }),
  );
  single(
    SecretKeyRing,
    (r) =>
      new SecretKeyRing({
        secrets: resolve(r, SecretRepository),
        clock: resolve(r, Clock),
        ids: resolve(r, IdGenerator),
        // An administrator's invitation is digested under the same secrets as the action tokens.
        liveTokensAfterRetiringSeconds:
          Math.max(...Object.values(config.tokenLifetimes), ADMIN_INVITATION_LIFETIME_SECONDS) +
          CLOCK_TOLERANCE_SECONDS,
        wrapKeys: mfaKeysFrom(config.mfaKeys, config.adminKeyPath),
      }),
  );
  single(OneTimeCodes, () => new OtplibCodes());
  single(PasskeyCeremonies, () => new SimpleWebAuthnCeremonies(config.webauthn));
  single(UpstreamProviders, () => new OpenIdUpstreamProviders(config.identityProviderNetwork));
  const { smtp } = config;
  if (smtp) single(Mailer, () => new SmtpMailer(smtp));
  single(
    TokenSigner,
    (r) =>
      new JoseTokenSigner({
        keyRing: r.resolve(KeyRing),
        clock: resolve(r, Clock),
        issuer: config.jwtIssuer,
        userAudience: config.jwtAudience,
        clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
      }),
  );
  return c;
}

/** The domain's use cases over the ports `container` provides, with the policy `config` sets. */
export function useCasesOf(container: DependencyContainer, config: Config, logger: Logger): UseCases {
  const throttle = {
    perAccountAndAddress: { limit: config.loginFailuresPerAccount, windowSeconds: config.loginFailureWindowSeconds },
    perAddress: { limit: config.loginFailuresPerAddress, windowSeconds: config.loginFailureWindowSeconds },
  };
  return createUseCases({
    repositories: Object.fromEntries(
      Object.entries(REPOSITORY_PORTS).map(([name, key]) => [name, resolve(container, key as Token<unknown>)]),
    ) as unknown as Repositories,
    hasher: resolve(container, PasswordHasher),
    signer: resolve(container, TokenSigner),
    tokenKeys: container.resolve(SecretKeyRing),
    clock: resolve(container, Clock),
    ids: resolve(container, IdGenerator),
    policy: {
      accessTokenSeconds: config.accessTokenSeconds,
      refreshTokenSeconds: config.refreshTokenSeconds,
      refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
      throttle,
      emailVerification: config.emailVerification,
    },
    tokenLifetimes: config.tokenLifetimes,
    signup: config.signup,
    auditRetentionDays: config.auditRetentionDays,
    mail: {
      box: container.resolve(SecretKeyRing),
      templates: config.mailTemplates,
      logger,
      publicUrl: config.publicUrl,
    },
    mailLimits: { accountMail: config.accountMail, requestsPerMinute: config.mailRequestsPerMinute },
    codes: resolve(container, OneTimeCodes),
    ceremonies: resolve(container, PasskeyCeremonies),
    totpIssuer: config.webauthn.rpName,
    passkeyOptionsPerMinute: config.passkeyOptionsPerMinute,
    oauthStartsPerMinute: config.oauthStartsPerMinute,
    impersonation: config.impersonation,
    webhookUrls: {
      ...config.webhookUrls,
      refusedAddress: config.webhookAllowPrivateAddresses ? undefined : forbiddenAddressKind,
    },
    identityProviderIssuers: { allowHttp: config.identityProviderNetwork.allowHttp },
    upstream: resolve(container, UpstreamProviders),
    redirectAllowList: config.redirectAllowList,
    // The engine signs with the signing keys (JWT_ALGORITHM) and their RS256 companions only.
    idTokenAlgorithms: [...new Set([config.jwtAlgorithm, 'RS256'] as const)],
  });
}

/**
 * The outbox over the ports `container` provides: what queues and reads messages, and, when a
 * mail server is configured (SMTP_URL), the mailer and what delivers with it; null without one.
 */
export function mailOf(container: DependencyContainer, config: Config, logger: Logger) {
  const common = {
    queue: resolve(container, MailQueue),
    box: container.resolve(SecretKeyRing),
    clock: resolve(container, Clock),
    logger,
  };
  const mailer = container.isRegistered(Mailer, true) ? resolve(container, Mailer) : null;
  return {
    service: new MailService({ ...common, templates: config.mailTemplates, ids: resolve(container, IdGenerator) }),
    sending: mailer && {
      mailer,
      delivery: new MailDelivery({ ...common, mailer, ids: resolve(container, IdGenerator) }),
    },
  };
}

/** How long settled webhook attempts wait to share one write: short against the delivery's latency. */
const SETTLE_GATHER_MS = 5;

/**
 * The webhook loop's parts over the ports `container` provides: the dispatcher (audit trail to
 * deliveries) and the worker that sends them, guarded against private addresses unless the
 * operator allows them, counting each attempt in `metrics` when there are metrics.
 */
export function webhooksOf(
  container: DependencyContainer,
  config: Config,
  logger: Logger,
  metrics: PrometheusMetrics | null,
) {
  const deliveries = resolve(container, WebhookDeliveryRepository);
  const sender = new HttpWebhookSender({
    allowPrivateAddresses: config.webhookAllowPrivateAddresses,
    allowHttp: config.webhookUrls.allowHttp,
  });
  return {
    sender,
    dispatcher: new WebhookDispatcher({ deliveries }),
    worker: new WebhookDeliveryWorker({
      deliveries,
      box: container.resolve(SecretKeyRing),
      sender,
      clock: resolve(container, Clock),
      logger,
      schedule: config.webhookRetrySchedule,
      gather: () => new Promise((resolve) => setTimeout(resolve, SETTLE_GATHER_MS)),
      onOutcome: metrics ? (outcome) => metrics.webhookAttempt(outcome) : undefined,
    }),
    /** Reports the backlog to the metrics' gauges; nothing without metrics. */
    afterRound: metrics
      ? async () => metrics.webhookBacklog(await deliveries.backlog(resolve(container, Clock).now()))
      : undefined,
  };
}

/** The OpenID Connect provider over the ports `container` provides. */
export function openIdProviderOf(container: DependencyContainer, config: Config, logger: Logger): OpenIdProvider {
  return createOpenIdProvider({
    config,
    records: resolve(container, OpenIdRecordRepository),
    clients: resolve(container, OAuthClientRepository),
    users: resolve(container, UserRepository),
    audit: resolve(container, AuditTrail),
    counters: resolve(container, RateCounterRepository),
    box: container.resolve(SecretKeyRing),
    keyRing: container.resolve(KeyRing),
    clock: resolve(container, Clock),
    ids: resolve(container, IdGenerator),
    logger,
  });
}
