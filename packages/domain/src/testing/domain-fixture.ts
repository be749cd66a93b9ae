import type { AdminCredentials } from '../admins/admin.ts';
import type { AuthPolicy, AuthService } from '../sessions/auth-service.ts';
import type { SessionGrant } from '../sign-in/session-grants.ts';
import type { RequestContext } from '../audit/audit-event.ts';
import { FakeOneTimeCodes, FakePasskeyCeremonies } from './fake-factor-ports.ts';
import { factorEnrolment } from './factor-fixture.ts';
import type { Identity } from '../shared/identity.ts';
import { InvalidCredentialsError, InvalidTokenError, ValidationError, type ProblemSource } from '../shared/errors.ts';
import type { JsonObject } from '../shared/json.ts';
import { DEFAULT_THROTTLE_POLICY } from '../throttling/throttle.ts';
import type { TokenPurpose } from '../tokens/token-signer.ts';
import type { NewUser, User } from '../users/user.ts';
import { ManualClock, PlainTextHasher, SequentialIds } from './fake-ports.ts';
import { FakeTokenSigner } from './fake-token-signer.ts';
import { inMemoryRepositories } from './in-memory-repositories.ts';
import { FakeTokenKeys, TEST_TOKEN_LIFETIMES } from './in-memory-action-tokens.ts';
import { createUseCases, DEFAULT_MAIL_LIMITS, type MailLimits } from '../use-cases.ts';
import { DEFAULT_MAIL_TEMPLATES } from '../mail/mail-template.ts';
import { FakeSecretBox } from './fake-mail-ports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { FakeUpstreamProviders } from './fake-upstream-providers.ts';
import type { SignupMode } from '../signup/signup-service.ts';
import type { MailKind } from '../mail/mail-message.ts';
import type { WebhookUrlPolicy } from '../webhooks/webhook.rules.ts';
import type { IssuerPolicy } from '../identities/identity-provider.rules.ts';

/**
 * Builders for the domain's unit tests: every use case wired over the in-memory fakes and one
 * ManualClock. Not exported from the `testing` entry: other packages build their own set with
 * createUseCases(), as this file does.
 */

export const POLICY: AuthPolicy = {
  accessTokenSeconds: 900,
  refreshTokenSeconds: 3600,
  refreshReuseGraceSeconds: 10,
  throttle: DEFAULT_THROTTLE_POLICY,
  emailVerification: 'required',
};
export const PASSWORD = 'correct horse battery';
/** The public address mailed links are built on. */
export const PUBLIC_URL = 'https://id.example.com/';
export const ADDRESS = '203.0.113.7';
/** The one origin besides PUBLIC_URL's a sign-in with a provider may end at (REDIRECT_ALLOW_LIST). */
export const APP_ORIGIN = 'https://app.example.com';
export const OTHER_ADDRESS = '198.51.100.23';
export const ADMIN: AdminCredentials = { email: 'admin@example.com', password: 'admin-password-1' };

/** A JSON object whose serialised form is exactly `bytes` bytes long. */
export function jsonOfBytes(bytes: number): JsonObject {
  const overhead = JSON.stringify({ blob: '' }).length;
  return { blob: 'x'.repeat(bytes - overhead) };
}

/** The error `promise` rejects with, which must be a `type`; fulfilling or any other error fails. */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  const outcome = await promise.then(
    () => 'fulfilment',
    (error: unknown) => error,
  );
  if (outcome instanceof type) return outcome;
  throw new Error(
    `expected a ${type.name}, got ${outcome instanceof Error ? `${outcome.name}: ${outcome.message}` : outcome}`,
  );
}

/** Where the ValidationError that `promise` rejects with points, one source per issue. */
export async function issueSources(promise: Promise<unknown>): Promise<ProblemSource[]> {
  return (await rejectionOf(promise, ValidationError)).issues.map((issue) => issue.source);
}

export const pointerTo = (attribute: string): ProblemSource => ({ pointer: `/data/attributes/${attribute}` });

export function buildDomain({
  policy = POLICY,
  mailLimits = DEFAULT_MAIL_LIMITS,
  signup = 'open',
  impersonation = false,
  webhookUrls = { allowHttp: false },
  identityProviderIssuers = { allowHttp: false },
}: {
  policy?: AuthPolicy;
  mailLimits?: MailLimits;
  signup?: SignupMode;
  /** IMPERSONATION: off unless told. */
  impersonation?: boolean;
  /** WEBHOOK_ALLOW_HTTP: https only unless told. */
  webhookUrls?: WebhookUrlPolicy;
  /** IDENTITY_PROVIDER_ALLOW_HTTP: https only unless told. */
  identityProviderIssuers?: IssuerPolicy;
} = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const hasher = new PlainTextHasher();
  const signer = new FakeTokenSigner(clock);
  const repositories = inMemoryRepositories();
  const tokenKeys = new FakeTokenKeys();
  const logger = new RecordingLogger();
  const codes = new FakeOneTimeCodes();
  const ceremonies = new FakePasskeyCeremonies();
  const box = new FakeSecretBox();
  const upstream = new FakeUpstreamProviders();
  const useCases = createUseCases({
    repositories,
    hasher,
    signer,
    tokenKeys,
    clock,
    ids,
    policy,
    tokenLifetimes: TEST_TOKEN_LIFETIMES,
    mail: {
      box,
      templates: { of: (kind) => DEFAULT_MAIL_TEMPLATES[kind] },
      logger,
      publicUrl: PUBLIC_URL,
    },
    mailLimits,
    signup,
    codes,
    ceremonies,
    impersonation,
    webhookUrls,
    upstream,
    redirectAllowList: [APP_ORIGIN],
    identityProviderIssuers,
  });
  const { users, admins, self, userAuth, adminAuth, transfer, actionTokens, mail, accountMail, mailRequestLimit } =
    useCases;
  const { mailRequests, recovery, adminAccountMail, invitations } = useCases;
  let userCount = 0;
  const { userSignIn, adminSignIn } = useCases;
  /** The password step of an account without a second factor: its session, which it must be. */
  const passwordLogin =
    (signIn: typeof userSignIn) =>
    async (email: string, password: string, address: string, request?: RequestContext): Promise<SessionGrant> => {
      const { session } = await signIn.password.login(email, password, address, request);
      if (!session) throw new Error('the login asked for a second factor');
      return session;
    };
  const loginOf = new Map<AuthService, ReturnType<typeof passwordLogin>>([
    [userAuth, passwordLogin(userSignIn)],
    [adminAuth, passwordLogin(adminSignIn)],
  ]);

  const domain = {
    clock,
    ids,
    hasher,
    signer,
    repositories,
    users,
    admins,
    self,
    userAuth,
    adminAuth,
    adminAccess: useCases.adminAccess,
    userSignIn,
    adminSignIn,
    /** Logs a user in with a password: its session (a user with a factor gets a challenge instead). */
    userLogin: loginOf.get(userAuth)!,
    adminLogin: loginOf.get(adminAuth)!,
    codes,
    ceremonies,
    secondFactorProofs: useCases.secondFactorProofs,
    /** Active factors and recovery codes written straight into the store. */
    enrol: factorEnrolment({ factors: repositories.factors, codes, box, ids }),
    transfer,
    tokenKeys,
    actionTokens,
    logger,
    mail,
    accountMail,
    mailRequestLimit,
    signup: useCases.signup,
    verification: useCases.verification,
    emailChange: useCases.emailChange,
    factors: useCases.factors,
    impersonation: useCases.impersonation,
    webhooks: useCases.webhooks,
    identityProviders: useCases.identityProviders,
    userIdentities: useCases.userIdentities,
    /** The key ring's stand-in: what seals TOTP and webhook signing secrets. */
    box,
    /** Identity providers in memory, and the user's side of signing in with them. */
    upstream,
    externalSignIn: useCases.externalSignIn,
    identityLinks: useCases.identityLinks,
    oauthClients: useCases.oauthClients,
    applicationGrants: useCases.applicationGrants,

    /** The texts of the messages of `kind` queued to `recipient`, oldest first, opened. */
    async mailTexts(kind: MailKind, recipient: string): Promise<string[]> {
      const { messages } = await repositories.mail.list({ page: 1, size: 100 });
      const mine = messages.filter((message) => message.kind === kind && message.recipient === recipient).reverse();
      return Promise.all(mine.map(async (message) => (await mail.read(message.id)).content?.text ?? ''));
    },

    /** The token of the link in the last message of `kind` to `recipient`. */
    async mailedToken(kind: MailKind, recipient: string): Promise<string> {
      const text = (await domain.mailTexts(kind, recipient)).at(-1) ?? '';
      const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
      if (!token) throw new Error(`no ${kind} link was mailed to ${recipient}`);
      return token;
    },
    mailRequests,
    recovery,
    adminAccountMail,
    invitations,
    adminAccounts: useCases.adminAccounts,

    /** Creates a user with PASSWORD and a fresh email unless told otherwise. */
    createUser(overrides: Partial<NewUser> = {}): Promise<User> {
      userCount += 1;
      return users.create({ email: `user${userCount}@example.com`, password: PASSWORD, ...overrides });
    },

    /** Creates a user and logs it in: its record once logged in, first grant, and the identity of its access token. */
    async signedInUser(overrides: Partial<NewUser> = {}) {
      const created = await domain.createUser(overrides);
      const session = await domain.logIn(userAuth, created.email, overrides.password ?? PASSWORD);
      return { user: await users.get(created.id), ...session };
    },

    /** Bootstraps the admin from ADMIN and logs it in. */
    async signedInAdmin() {
      const admin = await admins.applyCredentials(ADMIN);
      return { admin, ...(await domain.logIn(adminAuth, ADMIN.email, ADMIN.password)) };
    },

    /** Logs in (from ADDRESS by default) and authenticates the access token received. */
    async logIn(auth: AuthService, email: string, password: string, address = ADDRESS) {
      const grant: SessionGrant = await loginOf.get(auth)!(email, password, address);
      const identity: Identity = await auth.authenticate(grant.accessToken);
      return { grant, identity };
    },

    /** Fails `times` logins of `email` from `address` with a wrong password; each must be refused as such. */
    async failLogins(auth: AuthService, email: string, times: number, address = ADDRESS): Promise<void> {
      for (let i = 0; i < times; i += 1) {
        const refused = await loginOf.get(auth)!(email, 'wrong-password', address).then(
          () => new Error('a wrong password was accepted'),
          (error: unknown) => (error instanceof InvalidCredentialsError ? null : error),
        );
        if (refused) throw refused;
      }
    },

    /** Whether the session an access token names is still open (its token still authenticates). */
    isOpen(accessToken: string, auth: AuthService = userAuth): Promise<boolean> {
      return auth.authenticate(accessToken).then(
        () => true,
        (error: unknown) => {
          if (error instanceof InvalidTokenError) return false;
          throw error;
        },
      );
    },

    /** Signs a token the service never issued (valid for a minute), to probe what it accepts. */
    forge(purpose: TokenPurpose, claims: JsonObject): Promise<string> {
      const now = clock.now();
      return signer.sign(purpose, claims, now, new Date(now.getTime() + 60_000));
    },

    /** The payload of any token the fake signer issued and still accepts. */
    async claimsOf(token: string): Promise<JsonObject> {
      return (await signer.verify(token, ['user_access', 'admin_access', 'refresh'])).claims;
    },
  };
  return domain;
}

export type Domain = ReturnType<typeof buildDomain>;
