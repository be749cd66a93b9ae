import type {
  OAuthStartLimit,
  AdminAccess,
  AdminAccounts,
  AdminMfaMode,
  FactorService,
  IdentityProviderService,
  OAuthClientService,
  ApplicationGrants,
  ImpersonationService,
  WebhookDeliveryService,
  AuditService,
  AuthService,
  InvitationService,
  JsonObject,
  Logger,
  EmailChangeService,
  AdminAccountMail,
  MailRequestLimit,
  MailRequestService,
  RecoveryService,
  MailService,
  OverviewService,
  SelfService,
  SignupService,
  SignInSteps,
  TokenKeys,
  UserIdentities,
  ExternalSignIn,
  IdentityLinks,
  UserService,
  UserTransferService,
  VerificationService,
  WebhookService,
} from '@uas/domain';
import type { MetricsEndpoint } from './metrics/http-metrics';
import type { OpenIdInteractions } from './openid/openid-interactions';

/** Everything the HTTP app needs, handed over by the composition root (apps/server). */
export interface HttpAppDeps {
  users: UserService;
  transfer: UserTransferService;
  self: SelfService;
  adminAuth: AuthService;
  /** Authorizes an admin operation by the admin's role, read on every request. */
  adminAccess: AdminAccess;
  /** Owners' management of administrators: invitations, roles, removal. */
  adminAccounts: AdminAccounts;
  userAuth: AuthService;
  /** The sign-in steps of admins and of users, each ending in a session. */
  adminSignIn: SignInSteps;
  userSignIn: SignInSteps;
  overview: OverviewService;
  audit: AuditService;
  mail: MailService;
  signup: SignupService;
  verification: VerificationService;
  emailChange: EmailChangeService;
  /** The per-client-address limit of the endpoints that send mail (see limitPerAddress). */
  mailRequestLimit: MailRequestLimit;
  /** Recover and resend: recorded, resolved off the request path. */
  mailRequests: MailRequestService;
  recovery: RecoveryService;
  adminAccountMail: AdminAccountMail;
  invitations: InvitationService;
  /** The second factors of admins and users. */
  factors: FactorService;
  /** Support acting as an end user (IMPERSONATION). */
  impersonation: ImpersonationService;
  webhookDeliveries: WebhookDeliveryService;
  /** Webhook endpoints: their URLs, events and signing secrets. */
  webhooks: WebhookService;
  /** Identity providers users may sign in with: their clients, write-only secrets and callback URLs. */
  identityProviders: IdentityProviderService;
  /** Users' identities at those providers, listed and unlinked. */
  userIdentities: UserIdentities;
  /** Users' sign-in through identity providers, and their identities there. */
  externalSignIn: ExternalSignIn;
  identityLinks: IdentityLinks;
  /** The applications that sign their users in through this service: clients and their once-shown secrets. */
  oauthClients: OAuthClientService;
  /** A user's applications: the grants they gave, and revoking them. */
  applicationGrants: ApplicationGrants;
  /** The starts of trips through identity providers one client address may make (OAUTH_STARTS_PER_MINUTE). */
  oauthStartLimit: OAuthStartLimit;
  /** The OpenID engine's sign-ins and consents, as the `/account/authorize/…` pages drive them. */
  openIdInteractions: OpenIdInteractions;
  /** The key ring's keyed digests: the account pages' CSRF tokens are made with them. */
  tokenKeys: Pick<TokenKeys, 'digest' | 'digests'>;
  /** ADMIN_MFA: `required` closes every admin route but enrolment to an admin without a factor. */
  adminMfa: AdminMfaMode;
  /** The public keys that verify every token, as a JWK Set. */
  jwks(): Promise<{ keys: JsonObject[] }>;
  /** Null when this instance is ready to serve; otherwise why not, in words fit for any client. */
  ready(): Promise<string | null>;
  /** Served at GET /metrics to a bearer of its token; null: no metrics endpoint at all. */
  metricsEndpoint: MetricsEndpoint | null;
  logger: Logger;
  /**
   * Socket addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For and
   * X-Forwarded-Proto are believed. Empty: believe none, the socket address is the client.
   */
  trustedProxies: readonly string[];
  /** Origins whose browser apps may call the end-user and public routes (CORS); empty: none. */
  corsOrigins: readonly string[];
  /** The service's public base address (PUBLIC_URL, ending with `/`): where identity providers send browsers back. */
  publicUrl: string;
  /** Where the `/account/` pages lead once done (APP_URL): configuration only, never a request's; or null. */
  appUrl: string | null;
  /** Absolute directory of the built admin panel (index.html + assets), served at /admin/; or null. */
  panelRoot: string | null;
}
