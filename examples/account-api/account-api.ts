import {
  createUseCases,
  DEFAULT_MAIL_TEMPLATES,
  DEFAULT_THROTTLE_POLICY,
  DomainError,
  type ErrorCode,
  type Logger,
  type Repositories,
  type User,
} from '@uas/domain';
import { HmacTokenKeys } from './hmac-token-keys.ts';
import { HmacTokenSigner } from './hmac-token-signer.ts';
import { WebCryptoPasswordHasher } from './web-crypto-password-hasher.ts';

// The statuses these three routes need; anything else the domain refuses is a 400.
const STATUS: Partial<Record<ErrorCode, number>> = {
  email_taken: 409,
  invalid_credentials: 401,
  invalid_token: 401,
  account_inactive: 403,
  too_many_attempts: 429,
};

/** A request to the account API and the address it came from (throttling counts per address). */
export type AccountApi = (request: Request, clientAddress: string) => Promise<Response>;

const publicUser = ({ id, name, email, metadata, created }: User) => ({ id, name, email, metadata, created });

async function body(request: Request): Promise<Record<string, unknown>> {
  const parsed: unknown = await request.json().catch(() => null);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/** This example sends no mail: nothing it serves writes a message, so nothing is sealed or logged. */
const NO_MAIL = {
  box: {
    seal: () => Promise.reject(new Error('this example sends no mail')),
    open: () => Promise.reject(new Error('this example sends no mail')),
    // Nor keeps recovery codes (see NO_FACTORS).
    mac: () => Promise.reject(new Error('this example has no second factors')),
    macs: () => Promise.reject(new Error('this example has no second factors')),
  },
  templates: { of: (kind: keyof typeof DEFAULT_MAIL_TEMPLATES) => DEFAULT_MAIL_TEMPLATES[kind] },
  logger: { debug() {}, info() {}, warn() {}, error() {} } satisfies Logger,
  publicUrl: 'http://localhost/',
};

/** Nor does it enrol second factors: nothing it serves checks a code or a passkey. */
const NO_FACTORS = {
  codes: {
    newSecret: () => unavailable(),
    uri: () => unavailable(),
    qrSvg: () => unavailable(),
    stepOf: () => null,
    newRecoveryCode: () => unavailable(),
  },
  ceremonies: {
    registrationOptions: () => unavailable(),
    verifyRegistration: async () => null,
    authenticationOptions: () => unavailable(),
    credentialIdOf: () => null,
    verifyAuthentication: async () => null,
  },
};
/** Nor signs in through identity providers: none is ever reached. */
const noProvider = () => Promise.reject(new Error('this example has no identity providers'));
const NO_IDENTITY_PROVIDERS = { authorizationUrl: noProvider, complete: noProvider, check: noProvider };

function unavailable(): never {
  throw new Error('this example has no second factors');
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Sign-up, login and `/me` over the domain's use cases, with Web Crypto for hashing and signing:
 * the whole server side of an account, in any runtime with `fetch`-style handlers.
 */
export async function createAccountApi(repositories: Repositories, secret: string): Promise<AccountApi> {
  const clock = { now: () => new Date() };
  const ids = { next: () => crypto.randomUUID() };
  const hasher = new WebCryptoPasswordHasher();
  const signer = await HmacTokenSigner.create(secret, 'uas-example', clock);
  const policy = {
    accessTokenSeconds: 15 * 60,
    refreshTokenSeconds: 30 * 24 * 3600,
    refreshReuseGraceSeconds: 10,
    throttle: DEFAULT_THROTTLE_POLICY,
    // This example sends no mail: its sign-up verifies no address, so none is required to log in.
    emailVerification: 'optional' as const,
  };
  const tokenKeys = await HmacTokenKeys.create(secret);
  // The domain wires its use cases; this API serves three of them.
  const {
    users,
    self,
    userAuth: auth,
    userSignIn: signIn,
  } = createUseCases({
    repositories,
    hasher,
    signer,
    tokenKeys,
    clock,
    ids,
    policy,
    tokenLifetimes: { verification: 86_400, recovery: 1800, email_change: 3600, invitation: 604_800 },
    mail: NO_MAIL,
    // Its own /signup below makes accounts directly, with no mailed link to verify them.
    signup: 'closed',
    ...NO_FACTORS,
    upstream: NO_IDENTITY_PROVIDERS,
  });

  const routes: Record<string, (request: Request, clientAddress: string) => Promise<Response>> = {
    'POST /signup': async (request) => {
      const { name, email, password } = await body(request);
      const user = await users.create({ name: text(name), email: text(email), password: text(password) });
      return Response.json(publicUser(user), { status: 201 });
    },
    'POST /login': async (request, clientAddress) => {
      const { email, password } = await body(request);
      // Its accounts have no second factor, so the password step always ends in a session.
      const { session: grant } = await signIn.password.login(text(email), text(password), clientAddress);
      if (!grant) return Response.json({ error: 'second_factor_required' }, { status: 401 });
      return Response.json({
        access_token: grant.accessToken,
        refresh_token: grant.refreshToken,
        expires: grant.accessTokenExpires,
      });
    },
    'GET /me': async (request) => {
      const token = /^Bearer (\S+)$/.exec(request.headers.get('Authorization') ?? '')?.[1] ?? '';
      return Response.json(publicUser(await self.me(await auth.authenticate(token))));
    },
  };

  return async (request, clientAddress) => {
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (!route) return Response.json({ error: 'not_found' }, { status: 404 });
    try {
      return await route(request, clientAddress);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return Response.json({ error: error.code, detail: error.message }, { status: STATUS[error.code] ?? 400 });
    }
  };
}
