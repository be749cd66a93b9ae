import 'reflect-metadata';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import {
  AdminRepository,
  AdminService,
  AuthService,
  Housekeeping,
  Clock,
  IdGenerator,
  LoginAttemptRepository,
  PasswordHasher,
  PasswordRehashRepository,
  SelfService,
  SessionRepository,
  SigningKeyRepository,
  TokenSigner,
  UserRepository,
  UserService,
  UserImportRepository,
  UserTransferService,
  accountDirectory,
  adminPrincipals,
  token,
  type Token,
  userPrincipals,
  type AuthPolicy,
  type PrincipalSource,
} from '@uas/domain';
import type { Database } from '@uas/adapters-persistence';
import type { Config } from './config';
import { BcryptPasswordHasher } from './adapters/bcrypt-password-hasher';
import { JoseTokenSigner } from './adapters/jose-token-signer';
import { instrumentRepository } from './adapters/instrumented-repository';
import { KeyRing } from './adapters/key-ring';
import type { PrometheusMetrics } from './adapters/prometheus-metrics';
import { RandomIdGenerator } from './adapters/random-id-generator';
import { SystemClock } from './adapters/system-clock';

/** Leeway for clocks of different machines when checking `exp` and `iat`. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** Keys for what the composition root provides besides the domain's ports. */
export const Tokens = {
  KeyRing: token<KeyRing>('KeyRing'),
  UserService: token<UserService>('UserService'),
  UserTransferService: token<UserTransferService>('UserTransferService'),
  SelfService: token<SelfService>('SelfService'),
  AdminService: token<AdminService>('AdminService'),
  AdminAuth: token<AuthService>('AdminAuth'),
  UserAuth: token<AuthService>('UserAuth'),
  Housekeeping: token<Housekeeping>('Housekeeping'),
} as const;

/** Resolves a key with the type it was declared with (tsyringe alone cannot infer it from a symbol). */
export function resolve<T>(container: DependencyContainer, key: Token<T>): T {
  return container.resolve<T>(key);
}

/** What tests may swap: a clock they move by hand, for instance. */
export interface ContainerOverrides {
  clock?: Clock;
}

/**
 * Wires adapters to ports and use cases to adapters. Every registration is a factory with
 * explicit tokens: nothing here emits decorator metadata, so tsyringe cannot infer types.
 */
export function buildContainer(
  config: Config,
  database: Database,
  overrides: ContainerOverrides = {},
  metrics: PrometheusMetrics | null = null,
): DependencyContainer {
  const c = rootContainer.createChildContainer();
  const single = <T>(key: Token<T>, make: (r: DependencyContainer) => T) =>
    c.register<T>(key, { useFactory: instanceCachingFactory<T>(make) });

  const repositories = database.repositories;
  for (const [key, name] of [
    [UserRepository, 'users'],
    [AdminRepository, 'admins'],
    [SessionRepository, 'sessions'],
    [LoginAttemptRepository, 'attempts'],
    [SigningKeyRepository, 'signingKeys'],
    [PasswordRehashRepository, 'rehash'],
    [UserImportRepository, 'imports'],
  ] as const) {
    const repository = repositories[name];
    c.register(key, { useValue: metrics ? instrumentRepository(name, repository, metrics) : repository });
  }

  c.register(Clock, { useValue: overrides.clock ?? new SystemClock() });
  single(IdGenerator, () => new RandomIdGenerator());
  single(PasswordHasher, () => new BcryptPasswordHasher(config.bcryptCost, config.passwordHashCeilings));
  single(
    Tokens.KeyRing,
    (r) =>
      new KeyRing({
        keys: resolve(r, SigningKeyRepository),
        clock: resolve(r, Clock),
        ids: resolve(r, IdGenerator),
        algorithm: config.jwtAlgorithm,
        retireAfterSeconds: Math.max(config.accessTokenSeconds, config.refreshTokenSeconds) + CLOCK_TOLERANCE_SECONDS,
      }),
  );
  single(
    TokenSigner,
    (r) =>
      new JoseTokenSigner({
        keyRing: resolve(r, Tokens.KeyRing),
        clock: resolve(r, Clock),
        issuer: config.jwtIssuer,
        userAudience: config.jwtAudience,
        clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
      }),
  );

  const basics = (r: DependencyContainer) => ({
    sessions: resolve(r, SessionRepository),
    hasher: resolve(r, PasswordHasher),
    clock: resolve(r, Clock),
    ids: resolve(r, IdGenerator),
  });
  single(Tokens.UserService, (r) => new UserService({ ...basics(r), users: resolve(r, UserRepository) }));
  single(
    Tokens.UserTransferService,
    (r) =>
      new UserTransferService({
        imports: resolve(r, UserImportRepository),
        hasher: resolve(r, PasswordHasher),
        clock: resolve(r, Clock),
        ids: resolve(r, IdGenerator),
      }),
  );
  single(Tokens.AdminService, (r) => new AdminService({ ...basics(r), admins: resolve(r, AdminRepository) }));

  const policy: AuthPolicy = {
    accessTokenSeconds: config.accessTokenSeconds,
    refreshTokenSeconds: config.refreshTokenSeconds,
    refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
    throttle: {
      perAccountAndAddress: { limit: config.loginFailuresPerAccount, windowSeconds: config.loginFailureWindowSeconds },
      perAddress: { limit: config.loginFailuresPerAddress, windowSeconds: config.loginFailureWindowSeconds },
    },
  };
  const auth = (principals: (r: DependencyContainer) => PrincipalSource) => (r: DependencyContainer) =>
    new AuthService({
      ...basics(r),
      principals: principals(r),
      accounts: accountDirectory(
        adminPrincipals(resolve(r, AdminRepository)),
        userPrincipals(resolve(r, UserRepository)),
      ),
      attempts: resolve(r, LoginAttemptRepository),
      rehash: resolve(r, PasswordRehashRepository),
      signer: resolve(r, TokenSigner),
      policy,
    });
  single(
    Tokens.SelfService,
    (r) =>
      new SelfService({
        users: resolve(r, Tokens.UserService),
        hasher: resolve(r, PasswordHasher),
        attempts: resolve(r, LoginAttemptRepository),
        ids: resolve(r, IdGenerator),
        clock: resolve(r, Clock),
        throttle: policy.throttle,
      }),
  );
  single(
    Tokens.AdminAuth,
    auth((r) => adminPrincipals(resolve(r, AdminRepository))),
  );
  single(
    Tokens.UserAuth,
    auth((r) => userPrincipals(resolve(r, UserRepository))),
  );
  single(
    Tokens.Housekeeping,
    (r) =>
      new Housekeeping({
        sessions: resolve(r, SessionRepository),
        attempts: resolve(r, LoginAttemptRepository),
        clock: resolve(r, Clock),
        throttle: policy.throttle,
      }),
  );
  return c;
}
