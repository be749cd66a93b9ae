import { AdminAccess } from './admins/admin-access.ts';
import { AdminAccounts } from './admins/admin-accounts.ts';
import { AdminService } from './admins/admin-service.ts';
import { AuditService } from './audit/audit-service.ts';
import { AuthService, type AuthPolicy } from './sessions/auth-service.ts';
import { Housekeeping } from './sessions/housekeeping.ts';
import { accountDirectory, adminPrincipals, userPrincipals, type PrincipalSource } from './sessions/principal.ts';
import type { Clock } from './shared/clock.ts';
import type { IdGenerator } from './shared/id-generator.ts';
import type { PasswordHasher } from './shared/password-hasher.ts';
import type { TokenSigner } from './tokens/token-signer.ts';
import type { TokenKeys } from './action-tokens/token-keys.ts';
import type { ActionTokenLifetimes } from './action-tokens/action-token.ts';
import { ActionTokenService } from './action-tokens/action-token-service.ts';
import type { Repositories } from './repositories.ts';
import type { SecretBox } from './secrets/secret-box.ts';
import type { Logger } from './shared/logger.ts';
import { MailService } from './mail/mail-service.ts';
import type { MailTemplates } from './mail/mail-template.ts';
import { AccountMail, DEFAULT_ACCOUNT_MAIL_POLICY, type AccountMailPolicy } from './mail/account-mail.ts';
import { MailRequestLimit } from './throttling/mail-request-limit.ts';
import { DEFAULT_OAUTH_STARTS_PER_MINUTE, OAuthStartLimit } from './throttling/oauth-start-limit.ts';
import { PasskeyOptionsLimit } from './throttling/passkey-options-limit.ts';
import { MailRequestService } from './mail-requests/mail-request-service.ts';
import { RecoveryService } from './recovery/recovery-service.ts';
import { AdminAccountMail } from './recovery/admin-account-mail.ts';
import { InvitationService } from './invitations/invitation-service.ts';
import { SelfService } from './users/self-service.ts';
import { EmailChangeService } from './users/email-change-service.ts';
import { SignupService, type SignupMode } from './signup/signup-service.ts';
import { VerificationService } from './verification/verification-service.ts';
import { UserService } from './users/user-service.ts';
import { OverviewService } from './stats/overview-service.ts';
import { UserTransferService } from './transfer/user-transfer-service.ts';
import type { OneTimeCodes } from './factors/one-time-codes.ts';
import type { PasskeyCeremonies } from './factors/passkey-ceremonies.ts';
import { SecondFactorProofs } from './factors/second-factor-proofs.ts';
import { SessionGrants } from './sign-in/session-grants.ts';
import { ChallengeIssuing } from './sign-in/challenge-issuing.ts';
import { PasswordStep } from './sign-in/password-step.ts';
import { SecondStep } from './sign-in/second-step.ts';
import { SecondStepLock } from './sign-in/second-step-lock.ts';
import { PasskeyStep } from './sign-in/passkey-step.ts';
import { FactorService } from './factors/factor-service.ts';
import { ImpersonationService } from './impersonation/impersonation-service.ts';
import { WebhookDeliveryService } from './webhooks/webhook-delivery-service.ts';
import { impersonatorCheck } from './impersonation/impersonation-rules.ts';
import { SECOND_FACTOR_RULES } from './factors/second-factor-rules.ts';
import { WebhookService } from './webhooks/webhook-service.ts';
import type { WebhookUrlPolicy } from './webhooks/webhook.rules.ts';
import type { UpstreamProviders } from './identities/upstream-providers.ts';
import { OAuthTrips } from './identities/oauth-trips.ts';
import { ExternalSignIn } from './identities/external-sign-in.ts';
import { IdentityLinks } from './identities/identity-links.ts';
import { IdentityProviderService } from './identities/identity-provider-service.ts';
import type { IssuerPolicy } from './identities/identity-provider.rules.ts';
import { UserIdentities } from './identities/user-identities.ts';
import { OAuthClientService } from './openid/oauth-client-service.ts';
import type { IdTokenSigningAlgorithm } from './openid/oauth-client.ts';
import { ApplicationGrants } from './openid/application-grants.ts';

export interface UseCaseDeps {
  repositories: Repositories;
  hasher: PasswordHasher;
  signer: TokenSigner;
  /** Makes single-use tokens and the digests they are stored under. */
  tokenKeys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
  /** How long a single-use token of each purpose stays usable. */
  tokenLifetimes: ActionTokenLifetimes;
  /** Who may sign up (SIGNUP). */
  signup: SignupMode;
  /** Days an audit event is kept before housekeeping prunes it; 0 (the default) keeps every event. */
  auditRetentionDays?: number;
  /** What writes messages: the box that seals their bodies, their templates, and the log. */
  mail: {
    box: SecretBox;
    templates: MailTemplates;
    logger: Logger;
    /** The service's public base address: mailed links open its pages under `/account/` (PUBLIC_URL). */
    publicUrl: string;
  };
  /** The send limits of account mail and of the endpoints that send it; the defaults unless told. */
  mailLimits?: MailLimits;
  /** TOTP and the randomness of recovery codes (otplib in the server). */
  codes: OneTimeCodes;
  /** The WebAuthn ceremonies (@simplewebauthn/server in the server). */
  ceremonies: PasskeyCeremonies;
  /** The issuer authenticator apps show beside a TOTP account (WEBAUTHN_RP_NAME). */
  totpIssuer?: string;
  /** Passkey options one client address may ask for per minute (PASSKEY_OPTIONS_PER_MINUTE). */
  passkeyOptionsPerMinute?: number;
  /** Starts of a trip through an identity provider one client address may make per minute (OAUTH_STARTS_PER_MINUTE). */
  oauthStartsPerMinute?: number;
  /** Whether admins may act as end users (IMPERSONATION); off unless told. */
  impersonation?: boolean;
  /** What webhook endpoints' URLs may be (WEBHOOK_ALLOW_HTTP); https only unless told. */
  webhookUrls?: WebhookUrlPolicy;
  /** The client side toward identity providers (openid-client in the server). */
  upstream: UpstreamProviders;
  /** The origins besides PUBLIC_URL's a trip through an identity provider may end at (REDIRECT_ALLOW_LIST). */
  redirectAllowList?: readonly string[];
  /** What identity providers' issuers may be (IDENTITY_PROVIDER_ALLOW_HTTP); https only unless told. */
  identityProviderIssuers?: IssuerPolicy;
  /** The ID token algorithms an OAuth client may ask for: those the service holds keys for (every one unless told). */
  idTokenAlgorithms?: readonly IdTokenSigningAlgorithm[];
}

/** One kind of account's sign-in steps, each ending in the one session grant. */
export interface SignInSteps {
  /** Email and password: the session, or the challenge of a second step. */
  password: PasswordStep;
  /** A code or passkey answering the challenge. */
  secondStep: SecondStep;
  /** A discoverable passkey alone, over the passkey options. */
  passkey: PasskeyStep;
  /** The passkey options' limit per client address, shared by admins' and users' routes. */
  passkeyOptionsLimit: PasskeyOptionsLimit;
}

export interface MailLimits {
  accountMail: AccountMailPolicy;
  /** Requests per minute one client address may make to the endpoints that send mail. */
  requestsPerMinute: number;
}

export const DEFAULT_MAIL_LIMITS: MailLimits = { accountMail: DEFAULT_ACCOUNT_MAIL_POLICY, requestsPerMinute: 5 };

/**
 * Every use case wired over the given ports: the one wiring of the graph, used by the server's
 * composition root and by the tests of the domain and the HTTP adapter alike.
 */
export type UseCases = ReturnType<typeof createUseCases>;

export function createUseCases({
  repositories,
  hasher,
  signer,
  tokenKeys,
  clock,
  ids,
  policy,
  tokenLifetimes,
  signup,
  auditRetentionDays = 0,
  mail: mailDeps,
  mailLimits = DEFAULT_MAIL_LIMITS,
  codes,
  ceremonies,
  totpIssuer = 'User-account service',
  passkeyOptionsPerMinute = SECOND_FACTOR_RULES.passkeyOptionsPerMinute,
  oauthStartsPerMinute = DEFAULT_OAUTH_STARTS_PER_MINUTE,
  impersonation = false,
  webhookUrls = { allowHttp: false },
  upstream,
  redirectAllowList = [],
  identityProviderIssuers = { allowHttp: false },
  idTokenAlgorithms,
}: UseCaseDeps) {
  const { sessions, attempts, audit } = repositories;
  const admins = adminPrincipals(repositories.admins);
  const people = userPrincipals(repositories.users, clock);
  const accounts = accountDirectory(admins, people);
  const { factors, signInChallenges } = repositories;
  const proofs = new SecondFactorProofs({
    factors,
    codes,
    ceremonies,
    // The key ring's box: TOTP secrets are sealed under its `factor-secret` purpose.
    box: mailDeps.box,
    signInChallenges,
    ids,
    logger: mailDeps.logger,
  });
  const lock = new SecondStepLock({ attempts, audit, clock, ids });
  const passkeyOptionsLimit = new PasskeyOptionsLimit({
    counters: repositories.rateCounters,
    clock,
    perMinute: passkeyOptionsPerMinute,
  });
  /** An account kind's session handling and its sign-in steps, all ending in one session grant. */
  const impersonatorAllowed = impersonatorCheck(repositories.admins, impersonation);
  const accountsOf = (
    principals: PrincipalSource,
  ): { auth: AuthService; signIn: SignInSteps; grants: SessionGrants; issuing: ChallengeIssuing } => {
    const kind = principals.kind;
    const grants = new SessionGrants({ kind, sessions, signer, clock, ids, policy });
    const issuing = new ChallengeIssuing({ kind, factors, ceremonies, signInChallenges, tokenKeys, clock });
    const steps = { principals, signInChallenges, proofs, grants, clock, policy };
    return {
      grants,
      issuing,
      auth: new AuthService({
        principals,
        accounts,
        sessions,
        grants,
        audit,
        signer,
        clock,
        ids,
        policy,
        impersonatorAllowed,
      }),
      signIn: {
        password: new PasswordStep({
          principals,
          attempts,
          activity: repositories.activity,
          rehash: repositories.rehash,
          audit,
          hasher,
          factors,
          issuing,
          grants,
          clock,
          ids,
          policy,
        }),
        secondStep: new SecondStep({ ...steps, lock }),
        passkey: new PasskeyStep({ ...steps, ceremonies, lock }),
        passkeyOptionsLimit,
      },
    };
  };
  const adminAccounts = accountsOf(admins);
  const userAccounts = accountsOf(people);
  const users = new UserService({
    users: repositories.users,
    attempts,
    throttle: policy.throttle,
    hasher,
    clock,
    ids,
  });
  const { publicUrl, logger } = mailDeps;
  const trips = new OAuthTrips({
    providers: repositories.identityProviders,
    attempts: repositories.oauthAttempts,
    upstream,
    box: mailDeps.box,
    tokenKeys,
    clock,
    ids,
    publicUrl,
    redirectAllowList,
  });
  const mail = new MailService({ ...mailDeps, queue: repositories.mail, clock, ids });
  const counters = repositories.rateCounters;
  const accountMail = new AccountMail({ mail, counters, clock, logger, policy: mailLimits.accountMail });
  const actionTokens = new ActionTokenService({
    tokens: repositories.tokens,
    keys: tokenKeys,
    clock,
    ids,
    lifetimes: tokenLifetimes,
  });
  const self = new SelfService({ users, hasher, attempts, ids, clock, throttle: policy.throttle, accountMail });
  const factorService = new FactorService({
    factors,
    sessions,
    principals: { admin: admins, user: people },
    codes,
    ceremonies,
    box: mailDeps.box,
    proofs,
    lock,
    accountMail,
    clock,
    ids,
    issuer: totpIssuer,
  });
  return {
    users,
    self,
    admins: new AdminService({ admins: repositories.admins, hasher, clock, ids }),
    adminAuth: adminAccounts.auth,
    /** Every admin operation's door: an open session and a role that holds the operation's permission. */
    adminAccess: new AdminAccess({ auth: adminAccounts.auth }),
    /** Owners' management of administrators: invitations, roles, removal. */
    adminAccounts: new AdminAccounts({
      admins: repositories.admins,
      invitations: repositories.adminInvitations,
      keys: tokenKeys,
      actionTokens,
      accountMail,
      hasher,
      clock,
      ids,
      publicUrl,
    }),
    userAuth: userAccounts.auth,
    /** The sign-in steps of admins (`/v1/admin/login…`) and of users (`/v1/login…`). */
    adminSignIn: adminAccounts.signIn,
    userSignIn: userAccounts.signIn,
    /** The one check of a second factor, for the sign-in and for the step-up of factor changes. */
    secondFactorProofs: proofs,
    transfer: new UserTransferService({ imports: repositories.imports, audit, hasher, clock, ids }),
    overview: new OverviewService({ activity: repositories.activity, clock }),
    housekeeping: new Housekeeping({
      sessions,
      attempts,
      rateCounters: repositories.rateCounters,
      signInChallenges: repositories.signInChallenges,
      oauthAttempts: repositories.oauthAttempts,
      openIdRecords: repositories.openIdRecords,
      audit,
      clock,
      throttle: policy.throttle,
      auditRetentionDays,
    }),
    audit: new AuditService({ audit }),
    mail,
    /** Every flow's way to send account mail, under the send limits. */
    accountMail,
    /** The per-client-address limit of the endpoints that send mail. */
    mailRequestLimit: new MailRequestLimit({ counters, clock, perMinute: mailLimits.requestsPerMinute }),
    actionTokens,
    invitations: new InvitationService({
      invitations: repositories.invitations,
      tokens: actionTokens,
      accountMail,
      hasher,
      clock,
      ids,
      publicUrl,
    }),
    signup: new SignupService({
      users: repositories.users,
      actionTokens,
      accountMail,
      queue: repositories.mail,
      hasher,
      clock,
      ids,
      publicUrl,
      mode: signup,
    }),
    /** Recover and resend: recorded on the request path, resolved by a worker. */
    mailRequests: new MailRequestService({
      requests: repositories.mailRequests,
      users: repositories.users,
      identities: repositories.externalIdentities,
      actionTokens,
      accountMail,
      clock,
      ids,
      logger,
      publicUrl,
    }),
    recovery: new RecoveryService({
      users: repositories.users,
      actionTokens,
      accountMail,
      hasher,
      clock,
      ids,
      identities: repositories.externalIdentities,
      providers: repositories.identityProviders,
    }),
    adminAccountMail: new AdminAccountMail({
      users: repositories.users,
      actionTokens,
      accountMail,
      audit,
      clock,
      ids,
      publicUrl,
    }),
    verification: new VerificationService({ users: repositories.users, actionTokens, clock, ids }),
    /** The second factors of admins and users: enrolment, step-up changes, an admin's reset. */
    factors: factorService,
    /** Support acting as an end user, when IMPERSONATION is on. */
    impersonation: new ImpersonationService({
      enabled: impersonation,
      users: people,
      grants: userAccounts.grants,
      factors: factorService,
      clock,
      ids,
      accessTokenSeconds: policy.accessTokenSeconds,
    }),
    emailChange: new EmailChangeService({ self, actionTokens, accountMail, clock, ids, publicUrl }),
    /** An endpoint's delivery log, replays and test events. */
    webhookDeliveries: new WebhookDeliveryService({
      webhooks: repositories.webhooks,
      deliveries: repositories.webhookDeliveries,
      clock,
      ids,
    }),
    /** Webhook endpoints: their URLs, events and signing secrets (sealed in the key ring's box). */
    webhooks: new WebhookService({ webhooks: repositories.webhooks, box: mailDeps.box, clock, ids, urls: webhookUrls }),
    /** Users' sign-in through identity providers: authorize, callback, the code's redemption. */
    externalSignIn: new ExternalSignIn({
      trips,
      identities: repositories.externalIdentities,
      principals: people,
      factors,
      issuing: userAccounts.issuing,
      grants: userAccounts.grants,
      clock,
      ids,
      logger,
      policy: { emailVerification: policy.emailVerification, signup },
    }),
    /** The starts of trips through identity providers, limited per client address (each stores an attempt). */
    oauthStartLimit: new OAuthStartLimit({
      counters: repositories.rateCounters,
      clock,
      perMinute: oauthStartsPerMinute,
    }),
    /** A signed-in user's identities at providers: link, list, unlink. */
    identityLinks: new IdentityLinks({
      trips,
      providers: repositories.identityProviders,
      identities: repositories.externalIdentities,
      clock,
      ids,
      publicUrl,
    }),
    /** Identity providers as owners manage them (client secrets sealed in the key ring's box). */
    identityProviders: new IdentityProviderService({
      providers: repositories.identityProviders,
      box: mailDeps.box,
      clock,
      ids,
      issuers: identityProviderIssuers,
      publicUrl,
    }),
    /** Users' identities at those providers, as admins list and unlink them. */
    userIdentities: new UserIdentities({
      users: repositories.users,
      identities: repositories.externalIdentities,
      providers: repositories.identityProviders,
      clock,
      ids,
    }),
    /** The applications that sign their users in through this service, as owners manage them (secrets sealed in the key ring's box). */
    oauthClients: new OAuthClientService({
      clients: repositories.oauthClients,
      box: mailDeps.box,
      clock,
      ids,
      signingAlgorithms: idTokenAlgorithms,
    }),
    /** A user's applications: the grants they gave, and revoking them. */
    applicationGrants: new ApplicationGrants({
      records: repositories.openIdRecords,
      clients: repositories.oauthClients,
      clock,
      ids,
    }),
  };
}
