import { existsSync } from 'node:fs';
import * as v from 'valibot';
import { VARIABLES, type VariableName } from './config-variables';

const schema = v.pipe(
  v.object(
    Object.fromEntries(Object.entries(VARIABLES).map(([name, declaration]) => [name, declaration.schema])) as {
      [Name in VariableName]: (typeof VARIABLES)[Name]['schema'];
    },
  ),
  v.forward(
    v.partialCheck(
      [['HTTP_REQUEST_TIMEOUT_SECONDS'], ['HTTP_HEADERS_TIMEOUT_SECONDS']],
      (input) => input.HTTP_REQUEST_TIMEOUT_SECONDS >= input.HTTP_HEADERS_TIMEOUT_SECONDS,
      'must not be less than HTTP_HEADERS_TIMEOUT_SECONDS',
    ),
    ['HTTP_REQUEST_TIMEOUT_SECONDS'],
  ),
  v.forward(
    v.partialCheck(
      [['SMTP_URL'], ['MAIL_FROM']],
      (input) => input.SMTP_URL === null || input.MAIL_FROM !== '',
      'must be set when SMTP_URL is',
    ),
    ['MAIL_FROM'],
  ),
);

export class ConfigError extends Error {}

/**
 * Reads the configuration from `env` (after the `.env` file, whose values never override the
 * real environment). Every bad variable is named in one error, so a start fails once, clearly.
 */
export function loadConfig(env: Record<string, string | undefined> = readEnvironment()): Config {
  const input = Object.fromEntries(
    Object.entries(VARIABLES).map(([name, declaration]) => [name, env[name] || declaration.default]),
  );
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? 'configuration'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return fromVariables(result.output);
}

/** The configuration every other module sees, as read from the variables. */
export type Config = ReturnType<typeof fromVariables>;
export type HttpTimeouts = Config['http'];

function fromVariables(e: v.InferOutput<typeof schema>) {
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL,
    /** PostgreSQL schema to work in; undefined means the server's default search path. */
    databaseSchema: e.DATABASE_SCHEMA || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databasePreparedStatements:
      e.DATABASE_PREPARED_STATEMENTS === 'pooled' ? ('pooled' as const) : e.DATABASE_PREPARED_STATEMENTS === 'true',
    /** SQLite: worker threads that run list queries off the event loop; 0 runs them on it. */
    sqliteReadWorkers: e.SQLITE_READ_WORKERS,
    adminKeyPath: e.ADMIN_KEY_PATH,
    adminEmail: e.ADMIN_EMAIL,
    jwtIssuer: e.JWT_ISSUER,
    jwtAudience: e.JWT_AUDIENCE,
    jwtAlgorithm: e.JWT_ALGORITHM,
    accessTokenSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    /** How long a refresh token retired by a rotation may be presented again without ending its session. */
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    bcryptCost: e.BCRYPT_COST,
    /** The most a password hash brought in by an import may cost to verify. */
    passwordHashCeilings: {
      bcryptCost: e.IMPORT_MAX_BCRYPT_COST,
      memoryMiB: e.IMPORT_MAX_HASH_MEMORY_MIB,
      argon2Passes: e.IMPORT_MAX_ARGON2_PASSES,
      pbkdf2Iterations: e.IMPORT_MAX_PBKDF2_ITERATIONS,
    },
    logLevel: e.LOG_LEVEL,
    trustedProxies: e.TRUSTED_PROXIES,
    /** Origins whose browser apps may call the end-user and public routes. */
    corsOrigins: e.CORS_ORIGINS,
    /** The service's public base address: mailed links open its `/account/` pages. */
    publicUrl: (e.PUBLIC_URL ?? new URL(`http://localhost:${e.PORT}/`)).href,
    /** Where the `/account/` pages lead once done; null: they end on their own page. */
    appUrl: e.APP_URL?.href ?? null,
    /** Who may sign up through POST /v1/signup. */
    signup: e.SIGNUP,
    /** Whether a user must have verified the address to log in. */
    emailVerification: e.EMAIL_VERIFICATION,
    /** How long a single-use token of each purpose stays usable, in seconds. */
    tokenLifetimes: {
      verification: e.VERIFICATION_TOKEN_TTL_SECONDS,
      recovery: e.RECOVERY_TOKEN_TTL_SECONDS,
      email_change: e.EMAIL_CHANGE_TOKEN_TTL_SECONDS,
      invitation: e.INVITATION_TOKEN_TTL_SECONDS,
    },
    /** Requests per minute a client address may make to the endpoints that send mail. */
    mailRequestsPerMinute: e.MAIL_REQUESTS_PER_MINUTE,
    /** Passkey options a client address may ask for per minute. */
    passkeyOptionsPerMinute: e.PASSKEY_OPTIONS_PER_MINUTE,
    /** Starts of trips through identity providers a client address may make per minute. */
    oauthStartsPerMinute: e.OAUTH_STARTS_PER_MINUTE,
    /** The send limits of account mail. */
    accountMail: { hourlyLimit: e.MAIL_HOURLY_LIMIT, securityNotices: e.SECURITY_NOTICES === 'on' },
    loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
    loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
    loginFailureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    /** Days an audit event is kept before housekeeping prunes it; 0 keeps every event. */
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    http: {
      /** Longest a client may take to send a request's headers. */
      headersMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      /** Longest a client may take to send a whole request, body included. */
      requestMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      /** How long an idle keep-alive connection stays open. */
      keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    /** Where mail is sent; null: it stays queued in the outbox. */
    smtp: e.SMTP_URL && { url: e.SMTP_URL, from: e.MAIL_FROM },
    mailTemplates: e.MAIL_TEMPLATES_DIR,
    /** The keys that wrap the `factor-secret` keys, the first the sealing one; empty: the `mfa.key` file's. */
    mfaKeys: e.MFA_ENCRYPTION_KEY,
    adminMfa: e.ADMIN_MFA,
    /** Whether support and above may start a session as an end user. */
    impersonation: e.IMPERSONATION === 'on',
    webhookRetrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    webhookAllowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
    /** What webhook endpoints' URLs may be: https only, unless http is allowed. */
    webhookUrls: { allowHttp: e.WEBHOOK_ALLOW_HTTP === 'true' },
    /** Origins a sign-in with an identity provider may end at, besides same-origin paths. */
    redirectAllowList: e.REDIRECT_ALLOW_LIST,
    /** What identity providers' issuers may be, and where the service may reach them. */
    identityProviderNetwork: {
      allowHttp: e.IDENTITY_PROVIDER_ALLOW_HTTP === 'true',
      allowPrivateAddresses: e.IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES === 'true',
    },
    /** The passkeys' relying party: by default the host and origin the service is reached at. */
    webauthn: webauthnOf(e),
    /** The bearer token that reads GET /metrics; undefined: no metrics endpoint. */
    metricsToken: e.METRICS_TOKEN || undefined,
  };
}

function webauthnOf(e: v.InferOutput<typeof schema>) {
  return {
    rpId: e.WEBAUTHN_RP_ID || e.PUBLIC_URL?.hostname || 'localhost',
    rpName: e.WEBAUTHN_RP_NAME,
    origins:
      e.WEBAUTHN_ORIGINS.length > 0 ? e.WEBAUTHN_ORIGINS : [e.PUBLIC_URL?.origin ?? `http://localhost:${e.PORT}`],
  };
}

function readEnvironment(): Record<string, string | undefined> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return process.env;
}
