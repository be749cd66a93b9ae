import {
  createUseCases,
  DEFAULT_MAIL_TEMPLATES,
  DEFAULT_THROTTLE_POLICY,
  type AdminRole,
  type AuthPolicy,
  type JsonObject,
  type NewUser,
  type SignupMode,
  type User,
  type WebhookUrlPolicy,
} from '@uas/domain';
import {
  factorEnrolment,
  FakeOneTimeCodes,
  FakePasskeyCeremonies,
  FakeSecretBox,
  FakeTokenKeys,
  FakeTokenSigner,
  FakeUpstreamProviders,
  inMemoryRepositories,
  TEST_TOKEN_LIFETIMES,
  ManualClock,
  PlainTextHasher,
  SequentialIds,
} from '@uas/domain/testing';
import type * as v from 'valibot';
import { createHttpApp } from '../app';
import type { HttpAppDeps } from '../http-app-deps';
import type { sessionDocumentSchema } from '../presenters/session.presenter';
import { InMemoryOpenIdInteractions } from './in-memory-openid-interactions';
import { RecordingLogger } from './recording-logger';
import { bearer, jsonInit, loginDocument } from './requests';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
export const TEST_POLICY: AuthPolicy = {
  accessTokenSeconds: 15 * 60,
  refreshTokenSeconds: 7 * 24 * 60 * 60,
  refreshReuseGraceSeconds: 10,
  throttle: DEFAULT_THROTTLE_POLICY,
  emailVerification: 'required',
};
/** The public address the mailed links of the test app are built on. */
export const TEST_PUBLIC_URL = 'https://id.example.com/';
/** The one origin besides TEST_PUBLIC_URL's a sign-in with a provider may end at (REDIRECT_ALLOW_LIST). */
export const TEST_APP_ORIGIN = 'https://app.example.com';
export const TEST_JWKS = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'test-public-key', kid: 'test-kid' }] };

/**
 * The HTTP app over the domain's in-memory fakes (unsigned tokens, plain-text "hashes", a manual
 * clock), with one admin. Fast enough for scenario tables; the real adapters are tested elsewhere.
 */
export async function createTestApp(
  overrides: Partial<HttpAppDeps> = {},
  signup: SignupMode = 'open',
  { impersonation = false, webhookUrls }: { impersonation?: boolean; webhookUrls?: WebhookUrlPolicy } = {},
) {
  const repositories = inMemoryRepositories();
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const hasher = new PlainTextHasher();
  const signer = new FakeTokenSigner(clock);
  const logger = new RecordingLogger();
  const codes = new FakeOneTimeCodes();
  const box = new FakeSecretBox();
  const upstream = new FakeUpstreamProviders();
  const tokenKeys = new FakeTokenKeys();
  const openIdInteractions = new InMemoryOpenIdInteractions(TEST_PUBLIC_URL);
  const templates = { of: (kind: keyof typeof DEFAULT_MAIL_TEMPLATES) => DEFAULT_MAIL_TEMPLATES[kind] };
  const useCases = createUseCases({
    repositories,
    hasher,
    signer,
    tokenKeys,
    clock,
    ids,
    policy: TEST_POLICY,
    tokenLifetimes: TEST_TOKEN_LIFETIMES,
    mail: { box, templates, logger, publicUrl: TEST_PUBLIC_URL },
    signup,
    codes,
    ceremonies: new FakePasskeyCeremonies(),
    impersonation,
    webhookUrls,
    upstream,
    redirectAllowList: [TEST_APP_ORIGIN],
  });
  const { users, self, adminAuth, userAuth, admins, transfer, overview, audit, mail } = useCases;
  const { mailRequestLimit, mailRequests, recovery, adminAccountMail, invitations } = useCases;
  const admin = await admins.applyCredentials(ADMIN);
  const deps: HttpAppDeps = {
    users,
    transfer,
    self,
    adminAuth,
    adminAccess: useCases.adminAccess,
    adminAccounts: useCases.adminAccounts,
    userAuth,
    adminSignIn: useCases.adminSignIn,
    userSignIn: useCases.userSignIn,
    overview,
    audit,
    mail,
    signup: useCases.signup,
    verification: useCases.verification,
    emailChange: useCases.emailChange,
    mailRequestLimit,
    mailRequests,
    recovery,
    adminAccountMail,
    invitations,
    factors: useCases.factors,
    impersonation: useCases.impersonation,
    webhookDeliveries: useCases.webhookDeliveries,
    webhooks: useCases.webhooks,
    identityProviders: useCases.identityProviders,
    userIdentities: useCases.userIdentities,
    externalSignIn: useCases.externalSignIn,
    identityLinks: useCases.identityLinks,
    oauthClients: useCases.oauthClients,
    applicationGrants: useCases.applicationGrants,
    oauthStartLimit: useCases.oauthStartLimit,
    openIdInteractions,
    tokenKeys,
    adminMfa: 'optional',
    jwks: async () => TEST_JWKS,
    ready: async () => null,
    metricsEndpoint: null,
    logger,
    trustedProxies: [],
    corsOrigins: [],
    panelRoot: null,
    appUrl: null,
    publicUrl: TEST_PUBLIC_URL,
    ...overrides,
  };
  const app = createHttpApp(deps);

  /** Logs in through the API; returns the session record's attributes and the response. */
  async function login(path: '/v1/admin/login' | '/v1/login', email: string, password: string) {
    const response = await app.request(path, jsonInit('POST', loginDocument(email, password)));
    // A refused login answers an error document: no data, so the tokens read as 'undefined'.
    const body = (await response.clone().json()) as Partial<v.InferOutput<typeof sessionDocumentSchema>>;
    return {
      response,
      accessToken: String(body.data?.attributes.access_token),
      refreshToken: String(body.data?.attributes.refresh_token),
    };
  }

  return {
    app,
    deps,
    clock,
    logger,
    repositories,
    /** Identity providers in memory: `upstream.consent(state, account)` plays the user at the provider. */
    upstream,
    /** The OpenID engine's interactions in memory: `start()` plays an application sending a browser. */
    openIdInteractions,
    box,
    ids,
    admin,
    /** The fake TOTP (`codes.codeAt(secret, clock.now())`) and active factors written into the store. */
    codes,
    enrol: factorEnrolment({ factors: repositories.factors, codes, box, ids }),
    loginAdmin: () => login('/v1/admin/login', ADMIN.email, ADMIN.password),
    /** A new administrator of `role`, signed in: their bearer header. */
    async adminWith(role: AdminRole): Promise<Record<string, string>> {
      const email = `${role}-role@example.com`;
      const now = clock.now();
      await repositories.admins.insert({
        id: crypto.randomUUID(),
        name: role,
        email,
        passwordHash: `plain:${ADMIN.password}`,
        role,
        created: now,
        updated: now,
        keyFileStamp: null,
      });
      return bearer((await login('/v1/admin/login', email, ADMIN.password)).accessToken);
    },
    loginUser: (email: string, password: string) => login('/v1/login', email, password),
    createUser: (input: Partial<NewUser> & { metadata?: JsonObject } = {}): Promise<User> =>
      users.create({ email: `user${ids.next().slice(-4)}@example.com`, password: 'user-password-1', ...input }),
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
