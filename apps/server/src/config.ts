import { existsSync } from 'node:fs';
import * as v from 'valibot';
import { isPostgresSchemaName, parseDatabaseUrl, type DatabaseLocation } from '@uas/adapters-persistence';
import { addressMatcher } from '@uas/adapters-http';
import { isValidEmail, normalizeEmail } from '@uas/domain';
import { LOG_LEVELS, type LogLevel } from './adapters/json-logger';
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from './adapters/key-ring';
import { ADMIN_AUDIENCE, REFRESH_AUDIENCE } from './adapters/jose-token-signer';
import type { HashCeilings } from './adapters/password-hashes/hash-format';

export interface Config {
  port: number;
  host: string;
  database: DatabaseLocation;
  /** PostgreSQL schema to work in; empty means the server's default search path. */
  databaseSchema: string | undefined;
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  /** SQLite: worker threads that run list queries off the event loop; 0 runs them on it. */
  sqliteReadWorkers: number;
  adminKeyPath: string;
  adminEmail: string;
  jwtIssuer: string;
  jwtAudience: string;
  jwtAlgorithm: SigningAlgorithm;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** How long a refresh token retired by a rotation may be presented again without ending its session. */
  refreshReuseGraceSeconds: number;
  bcryptCost: number;
  /** The most a password hash brought in by an import may cost to verify. */
  passwordHashCeilings: HashCeilings;
  logLevel: LogLevel;
  trustedProxies: string[];
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  loginFailureWindowSeconds: number;
  shutdownGraceMs: number;
  http: HttpTimeouts;
  /** The bearer token that reads GET /metrics; undefined: no metrics endpoint. */
  metricsToken: string | undefined;
}

export interface HttpTimeouts {
  /** Longest a client may take to send a request's headers. */
  headersMs: number;
  /** Longest a client may take to send a whole request, body included. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
}

/** Every variable the service reads, with its default; docs/CONFIGURATION in the README lists them. */
export const DEFAULTS = {
  PORT: '3002',
  HOST: '0.0.0.0',
  DATABASE_URL: 'sqlite:./data/app.db',
  DATABASE_SCHEMA: '',
  DATABASE_POOL_SIZE: '10',
  DATABASE_STATEMENT_TIMEOUT_MS: '5000',
  SQLITE_READ_WORKERS: '2',
  ADMIN_KEY_PATH: './data/admin.key',
  ADMIN_EMAIL: 'admin@example.com',
  JWT_ISSUER: 'user-account-service',
  JWT_AUDIENCE: 'app',
  JWT_ALGORITHM: 'ES256',
  ACCESS_TOKEN_TTL_SECONDS: '900',
  REFRESH_TOKEN_TTL_SECONDS: '2592000',
  REFRESH_REUSE_GRACE_SECONDS: '10',
  BCRYPT_COST: '10',
  IMPORT_MAX_BCRYPT_COST: '14',
  IMPORT_MAX_HASH_MEMORY_MIB: '256',
  IMPORT_MAX_ARGON2_PASSES: '10',
  IMPORT_MAX_PBKDF2_ITERATIONS: '1000000',
  LOG_LEVEL: 'info',
  TRUSTED_PROXIES: '',
  LOGIN_FAILURES_PER_ACCOUNT: '10',
  LOGIN_FAILURES_PER_ADDRESS: '100',
  LOGIN_FAILURE_WINDOW_SECONDS: '900',
  SHUTDOWN_GRACE_SECONDS: '10',
  HTTP_HEADERS_TIMEOUT_SECONDS: '10',
  HTTP_REQUEST_TIMEOUT_SECONDS: '30',
  // Above the idle timeout of common load balancers (60 s for AWS ALB and nginx), so the balancer,
  // not this server, closes an idle connection: never one it is about to reuse.
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '75',
  METRICS_TOKEN: '',
} as const;

/** Short enough to guess is short enough to brute-force: a metrics token is a secret. */
const MIN_METRICS_TOKEN_LENGTH = 32;

type Variable = keyof typeof DEFAULTS;

const integer = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number from ${min} to ${max}`),
  );
const text = v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'));
const oneOf = <T extends readonly string[]>(values: T) => v.picklist(values, `must be one of ${values.join(', ')}`);
/** A string turned into a value by `parse`, whose thrown message becomes the variable's issue. */
const parsed = <T>(parse: (value: string) => T) =>
  v.pipe(
    v.string(),
    v.rawTransform<string, T>(({ dataset, addIssue, NEVER }) => {
      try {
        return parse(dataset.value);
      } catch (error) {
        addIssue({ message: (error as Error).message });
        return NEVER;
      }
    }),
  );
const databaseUrl = parsed(parseDatabaseUrl);
const addressList = parsed((value) => {
  const entries = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  addressMatcher(entries);
  return entries;
});

const schema = v.pipe(
  v.object({
    PORT: integer(1, 65535),
    HOST: text,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: v.pipe(
      v.string(),
      v.check(
        (value) => value === '' || isPostgresSchemaName(value),
        'must be a lower-case SQL identifier of at most 63 characters',
      ),
    ),
    DATABASE_POOL_SIZE: integer(1, 1000),
    DATABASE_STATEMENT_TIMEOUT_MS: integer(100, 600_000),
    SQLITE_READ_WORKERS: integer(0, 64),
    ADMIN_KEY_PATH: text,
    ADMIN_EMAIL: v.pipe(
      text,
      v.check((value) => isValidEmail(normalizeEmail(value)), 'must be a valid email address'),
    ),
    JWT_ISSUER: text,
    JWT_AUDIENCE: v.pipe(
      text,
      v.check(
        (value) => value !== ADMIN_AUDIENCE && value !== REFRESH_AUDIENCE,
        "is reserved for the service's own tokens",
      ),
    ),
    JWT_ALGORITHM: oneOf(SIGNING_ALGORITHMS),
    ACCESS_TOKEN_TTL_SECONDS: integer(30, 86_400),
    REFRESH_TOKEN_TTL_SECONDS: integer(60, 31_536_000),
    REFRESH_REUSE_GRACE_SECONDS: integer(0, 300),
    BCRYPT_COST: integer(4, 15),
    IMPORT_MAX_BCRYPT_COST: integer(4, 31),
    IMPORT_MAX_HASH_MEMORY_MIB: integer(1, 4096),
    IMPORT_MAX_ARGON2_PASSES: integer(1, 1000),
    IMPORT_MAX_PBKDF2_ITERATIONS: integer(1, 100_000_000),
    LOG_LEVEL: oneOf(LOG_LEVELS),
    TRUSTED_PROXIES: addressList,
    LOGIN_FAILURES_PER_ACCOUNT: integer(1, 1_000_000),
    LOGIN_FAILURES_PER_ADDRESS: integer(1, 1_000_000),
    LOGIN_FAILURE_WINDOW_SECONDS: integer(1, 86_400),
    SHUTDOWN_GRACE_SECONDS: integer(1, 600),
    HTTP_HEADERS_TIMEOUT_SECONDS: integer(1, 600),
    HTTP_REQUEST_TIMEOUT_SECONDS: integer(1, 3_600),
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: integer(1, 3_600),
    METRICS_TOKEN: v.pipe(
      v.string(),
      v.check(
        (value) => value === '' || value.length >= MIN_METRICS_TOKEN_LENGTH,
        `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
      ),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['HTTP_REQUEST_TIMEOUT_SECONDS'], ['HTTP_HEADERS_TIMEOUT_SECONDS']],
      (input) => input.HTTP_REQUEST_TIMEOUT_SECONDS >= input.HTTP_HEADERS_TIMEOUT_SECONDS,
      'must not be less than HTTP_HEADERS_TIMEOUT_SECONDS',
    ),
    ['HTTP_REQUEST_TIMEOUT_SECONDS'],
  ),
);

export class ConfigError extends Error {}

/**
 * Reads the configuration from `env` (after the `.env` file, whose values never override the
 * real environment). Every bad variable is named in one error, so a start fails once, clearly.
 */
export function loadConfig(env: Record<string, string | undefined> = readEnvironment()): Config {
  const input = Object.fromEntries(
    (Object.keys(DEFAULTS) as Variable[]).map((name) => [name, env[name] || DEFAULTS[name]]),
  );
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? 'configuration'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  const e = result.output;
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    sqliteReadWorkers: e.SQLITE_READ_WORKERS,
    adminKeyPath: e.ADMIN_KEY_PATH,
    adminEmail: e.ADMIN_EMAIL,
    jwtIssuer: e.JWT_ISSUER,
    jwtAudience: e.JWT_AUDIENCE,
    jwtAlgorithm: e.JWT_ALGORITHM,
    accessTokenSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    bcryptCost: e.BCRYPT_COST,
    passwordHashCeilings: {
      bcryptCost: e.IMPORT_MAX_BCRYPT_COST,
      memoryMiB: e.IMPORT_MAX_HASH_MEMORY_MIB,
      argon2Passes: e.IMPORT_MAX_ARGON2_PASSES,
      pbkdf2Iterations: e.IMPORT_MAX_PBKDF2_ITERATIONS,
    },
    logLevel: e.LOG_LEVEL,
    trustedProxies: e.TRUSTED_PROXIES,
    loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
    loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
    loginFailureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    http: {
      headersMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    metricsToken: e.METRICS_TOKEN || undefined,
  };
}

function readEnvironment(): Record<string, string | undefined> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return process.env;
}
