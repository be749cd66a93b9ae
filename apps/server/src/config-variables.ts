import * as v from 'valibot';
import { isPostgresSchemaName, parseDatabaseUrl } from '@uas/adapters-persistence';
import { addressMatcher, corsOrigins } from '@uas/adapters-http';
import {
  ADMIN_MFA_MODES,
  DEFAULT_OAUTH_STARTS_PER_MINUTE,
  EMAIL_VERIFICATION,
  isValidEmail,
  normalizeEmail,
  parseRetrySchedule,
  SIGNUP_MODES,
} from '@uas/domain';
import { mailTemplatesFrom } from './adapters/folder-mail-templates';
import { LOG_LEVELS } from './adapters/json-logger';
import { SIGNING_ALGORITHMS } from './adapters/key-ring';
import { ADMIN_AUDIENCE, REFRESH_AUDIENCE } from './adapters/jose-token-signer';

/** Short enough to guess is short enough to brute-force: a metrics token is a secret. */
const MIN_METRICS_TOKEN_LENGTH = 32;

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
/** A comma-separated list, blanks around and between entries ignored. */
const entriesOf = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const addressList = parsed((value) => {
  const entries = entriesOf(value);
  addressMatcher(entries);
  return entries;
});
const originList = parsed((value) => corsOrigins(entriesOf(value)));
/** One or more 32-byte keys, base64url, the first the one that seals. */
const mfaKeys = parsed((value) => {
  const keys = entriesOf(value);
  for (const key of keys) {
    if (!/^[A-Za-z0-9_-]{43}$/.test(key))
      throw new Error('must be 32 bytes as base64url (43 characters), comma-separated');
  }
  return keys;
});

const SMTP_URL_FORM = 'must be smtp://user:pass@host:port or smtps://user:pass@host:port';
/** The URL, or null for none. Its text is never repeated in the message: it holds a password. */
const smtpUrl = parsed((value): URL | null => {
  if (value === '') return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error(SMTP_URL_FORM);
  }
  return url;
});
/** An http(s) address without query or fragment, or null for none. */
const webAddress = parsed((value): URL | null => {
  if (value === '') return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new Error('must be an http:// or https:// address without query, fragment or credentials');
  }
  return url;
});
/** `address` or `Name <address>`. */
const mailFrom = v.pipe(
  v.string(),
  v.trim(),
  v.check((value) => {
    const address = /<([^<>]+)>$/.exec(value)?.[1] ?? value;
    return value === '' || isValidEmail(normalizeEmail(address));
  }, 'must be an address or Name <address>'),
);

/** One environment variable: how its text is checked and read, its default, and its entry in docs/configuration.md. */
interface Variable<TSchema extends v.GenericSchema<string, unknown>> {
  schema: TSchema;
  default: string;
  /** Its meaning in docs/configuration.md (Markdown, one paragraph). */
  doc: string;
}

const variable = <TSchema extends v.GenericSchema<string, unknown>>(declaration: Variable<TSchema>) => declaration;

/**
 * Every variable the service reads, declared once. `loadConfig` validates the environment with
 * these schemas and defaults; docs/configuration.md's table is generated from them
 * (`pnpm config-table`), and a test fails when it is out of date.
 */
export const VARIABLES = {
  PORT: variable({
    schema: integer(1, 65535),
    default: '3002',
    doc: 'HTTP port.',
  }),
  HOST: variable({
    schema: text,
    default: '0.0.0.0',
    doc: 'Address to listen on.',
  }),
  DATABASE_URL: variable({
    schema: databaseUrl,
    default: 'sqlite:./data/app.db',
    doc: '`sqlite:<path>` or `file:<path>` for an SQLite file; `postgres://…` or `postgresql://…` for PostgreSQL.',
  }),
  DATABASE_SCHEMA: variable({
    schema: v.pipe(
      v.string(),
      v.check(
        (value) => value === '' || isPostgresSchemaName(value),
        'must be a lower-case SQL identifier of at most 63 characters',
      ),
    ),
    default: '',
    doc: 'PostgreSQL schema to keep the tables in (created if missing); none means the default search path.',
  }),
  DATABASE_POOL_SIZE: variable({
    schema: integer(1, 1000),
    default: '10',
    doc: 'PostgreSQL connections per instance.',
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: variable({
    schema: integer(100, 600_000),
    default: '5000',
    doc: 'PostgreSQL statement timeout.',
  }),
  DATABASE_PREPARED_STATEMENTS: variable({
    schema: oneOf(['true', 'pooled', 'false'] as const),
    default: 'true',
    doc: 'PostgreSQL: send each statement as a named prepared statement, parsed once per connection (`true`); named by its text, so that behind a pooler in transaction mode that does not keep prepared statements across transactions, such as PgBouncer before 1.21, each is parsed once per server connection, whichever instance prepared it there (`pooled`); or unnamed, parsed at every call (`false`, for a pooler that resets its server connections between transactions). See [Running many instances](operations.md#running-many-instances).',
  }),
  SQLITE_READ_WORKERS: variable({
    schema: integer(0, 64),
    default: '2',
    doc: 'SQLite: at most this many worker threads run user lists and searches, each on its own read-only connection, so a slow one never holds up other requests. One starts with the first list, another only while those running are busy at least half the time, and one is stopped after 30 s in which the others could have answered alone (each holds about 10 MiB); `0` runs them on the event loop.',
  }),
  ADMIN_KEY_PATH: variable({
    schema: text,
    default: './data/admin.key',
    doc: 'The admin credentials file (see [The admin key file](#the-admin-key-file)).',
  }),
  ADMIN_EMAIL: variable({
    schema: v.pipe(
      text,
      v.check((value) => isValidEmail(normalizeEmail(value)), 'must be a valid email address'),
    ),
    default: 'admin@example.com',
    doc: 'Email of the admin created on first start.',
  }),
  JWT_ISSUER: variable({
    schema: text,
    default: 'user-account-service',
    doc: '`iss` of every token.',
  }),
  JWT_AUDIENCE: variable({
    schema: v.pipe(
      text,
      v.check(
        (value) => value !== ADMIN_AUDIENCE && value !== REFRESH_AUDIENCE,
        "is reserved for the service's own tokens",
      ),
    ),
    default: 'app',
    doc: '`aud` of user access tokens: what your applications check.',
  }),
  JWT_ALGORITHM: variable({
    schema: oneOf(SIGNING_ALGORITHMS),
    default: 'ES256',
    doc: 'Signing algorithm for new keys: `ES256`, `EdDSA` or `RS256`.',
  }),
  ACCESS_TOKEN_TTL_SECONDS: variable({
    schema: integer(30, 86_400),
    default: '900',
    doc: 'Lifetime of access tokens.',
  }),
  REFRESH_TOKEN_TTL_SECONDS: variable({
    schema: integer(60, 31_536_000),
    default: '2592000',
    doc: 'Lifetime of refresh tokens (30 days).',
  }),
  REFRESH_REUSE_GRACE_SECONDS: variable({
    schema: integer(0, 300),
    default: '10',
    doc: "Grace window (0–300 s) after a refresh in which the retired refresh token may be presented again (two tabs refreshing at once, a retry) and gets the session's current token instead of ending the session as reuse. `0` = strict: any second use ends the session. A longer window gives a thief holding a retired token that long to get the session's tokens unnoticed ([API.md, 2.2](API.md#22-rotation-and-reuse-detection)).",
  }),
  BCRYPT_COST: variable({
    schema: integer(4, 15),
    default: '10',
    doc: "bcrypt cost factor for new password hashes (4–15). A hash of another kind or cost is replaced at the user's next successful login.",
  }),
  IMPORT_MAX_BCRYPT_COST: variable({
    schema: integer(4, 31),
    default: '14',
    doc: 'Imported bcrypt hashes with a higher cost are refused (see [Migration](migration.md#password-hashes)).',
  }),
  IMPORT_MAX_HASH_MEMORY_MIB: variable({
    schema: integer(1, 4096),
    default: '256',
    doc: 'Imported argon2 and scrypt hashes needing more memory are refused.',
  }),
  IMPORT_MAX_ARGON2_PASSES: variable({
    schema: integer(1, 1000),
    default: '10',
    doc: 'Imported argon2 hashes with more passes (`t`) are refused.',
  }),
  IMPORT_MAX_PBKDF2_ITERATIONS: variable({
    schema: integer(1, 100_000_000),
    default: '1000000',
    doc: 'Imported PBKDF2-SHA256 hashes with more iterations are refused.',
  }),
  LOG_LEVEL: variable({
    schema: oneOf(LOG_LEVELS),
    default: 'info',
    doc: '`debug`, `info`, `warn`, `error` or `silent`. Logs are JSON lines on stdout.',
  }),
  TRUSTED_PROXIES: variable({
    schema: addressList,
    default: '',
    doc: 'Comma-separated addresses of reverse proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed.',
  }),
  CORS_ORIGINS: variable({
    schema: originList,
    default: '',
    doc: 'Comma-separated origins (`scheme://host[:port]`, exactly as the browser sends them, e.g. `https://app.example.com,http://localhost:5173`) whose web apps may call the end-user and public endpoints from the browser (CORS). The admin API and panel stay same-origin. None: no CORS ([API.md, 1.1](API.md#11-wire-format-and-content-types)).',
  }),
  PUBLIC_URL: variable({
    schema: webAddress,
    default: '',
    doc: "The service's public base address as users' browsers reach it (`https://id.example.com`, a path allowed): mailed links open its pages under `/account/`. None: `http://localhost:<PORT>`, fit only for trying it out.",
  }),
  APP_URL: variable({
    schema: webAddress,
    default: '',
    doc: 'Where the `/account/` pages lead once done (your application). None: they end on their own page.',
  }),
  SIGNUP: variable({
    schema: oneOf(SIGNUP_MODES),
    default: 'open',
    doc: 'Who may create an account with `POST /v1/signup`: `open`, anyone (the address is then verified by a mailed link); `invite-only` or `closed`, nobody (403 `signup_disabled`): accounts come from an administrator.',
  }),
  EMAIL_VERIFICATION: variable({
    schema: oneOf(EMAIL_VERIFICATION),
    default: 'required',
    doc: '`required`: a user whose address is not verified (`email_verified` null) cannot log in (403 `email_not_verified`, only after the right password); `optional`: they can. Users an admin creates or imports are verified unless the request says otherwise ([API.md](API.md#15-user-attributes-and-their-validation)).',
  }),
  VERIFICATION_TOKEN_TTL_SECONDS: variable({
    schema: integer(1, 315_360_000),
    default: '86400',
    doc: 'How long the link of an address verification stays usable (a day). Every single-use link is used once, and a change of password or email voids those outstanding.',
  }),
  RECOVERY_TOKEN_TTL_SECONDS: variable({
    schema: integer(1, 315_360_000),
    default: '1800',
    doc: 'How long a password recovery link stays usable (half an hour).',
  }),
  EMAIL_CHANGE_TOKEN_TTL_SECONDS: variable({
    schema: integer(1, 315_360_000),
    default: '3600',
    doc: 'How long the link confirming a new email stays usable (an hour).',
  }),
  INVITATION_TOKEN_TTL_SECONDS: variable({
    schema: integer(1, 315_360_000),
    default: '604800',
    doc: 'How long an invitation link stays usable (a week).',
  }),
  MAIL_REQUESTS_PER_MINUTE: variable({
    schema: integer(1, 1_000_000),
    default: '5',
    doc: 'Requests per minute one client address may make to the endpoints that send mail (sign-up, recover, resend verification, email change), counted together on every instance; more → 429 `too_many_attempts` with `Retry-After`, whatever address the request names.',
  }),
  PASSKEY_OPTIONS_PER_MINUTE: variable({
    schema: integer(1, 1_000_000),
    default: '30',
    doc: 'Passkey options (`POST /v1/login/passkey/options` and `/v1/admin/login/passkey/options`, each a stored challenge) one client address may ask for per minute, both routes together, on every instance; more → 429 `too_many_attempts` with `Retry-After`.',
  }),
  OAUTH_STARTS_PER_MINUTE: variable({
    schema: integer(1, 1_000_000),
    default: String(DEFAULT_OAUTH_STARTS_PER_MINUTE),
    doc: 'Sign-ins through identity providers (`GET /v1/oauth/{slug}/authorize`, each a stored attempt) one client address may start per minute, on every instance; more → 429 `too_many_attempts` with `Retry-After`.',
  }),
  MAIL_HOURLY_LIMIT: variable({
    schema: integer(1, 100_000_000),
    default: '1000',
    doc: 'Account messages queued per hour, all recipients together, on every instance: once spent, further messages are skipped (a warning is logged, never the address). Security notices are counted but never skipped. Apart from it, each address gets at most one message of each kind a minute.',
  }),
  SECURITY_NOTICES: variable({
    schema: oneOf(['on', 'off'] as const),
    default: 'on',
    doc: '`on`: the owner of an account is told by mail when its password or email changes (no send limit drops these notices); `off`: no notices.',
  }),
  LOGIN_FAILURES_PER_ACCOUNT: variable({
    schema: integer(1, 1_000_000),
    default: '10',
    doc: 'Failed logins allowed per account and client address within the window.',
  }),
  LOGIN_FAILURES_PER_ADDRESS: variable({
    schema: integer(1, 1_000_000),
    default: '100',
    doc: 'Failed logins allowed per client address within the window.',
  }),
  LOGIN_FAILURE_WINDOW_SECONDS: variable({
    schema: integer(1, 86_400),
    default: '900',
    doc: 'The throttling window.',
  }),
  AUDIT_RETENTION_DAYS: variable({
    schema: integer(0, 36_500),
    default: '365',
    doc: 'Days an audit event is kept; older ones are pruned by the housekeeping every instance runs, and the cut is recorded so the rest still verifies (`uas audit verify`). `0` keeps every event.',
  }),
  SHUTDOWN_GRACE_SECONDS: variable({
    schema: integer(1, 600),
    default: '10',
    doc: "On SIGTERM or SIGINT, how long requests in flight may take to finish before their connections are closed. Keep it below your process manager's kill timeout.",
  }),
  HTTP_HEADERS_TIMEOUT_SECONDS: variable({
    schema: integer(1, 600),
    default: '10',
    doc: "Longest a client may take to send a request's headers (then 408 and the connection closes).",
  }),
  HTTP_REQUEST_TIMEOUT_SECONDS: variable({
    schema: integer(1, 3_600),
    default: '30',
    doc: 'Longest a client may take to send a whole request, body included; at least the headers timeout.',
  }),
  // Above the idle timeout of common load balancers (60 s for AWS ALB and nginx), so the balancer,
  // not this server, closes an idle connection: never one it is about to reuse.
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: variable({
    schema: integer(1, 3_600),
    default: '75',
    doc: "How long an idle keep-alive connection stays open. Keep it above the idle timeout of the load balancer in front (60 s for AWS ALB and nginx; 600 s for Google Cloud's: set 620 there).",
  }),
  SMTP_URL: variable({
    schema: smtpUrl,
    default: '',
    doc: 'The mail server: `smtp://user:pass@host:port` (STARTTLS when the server offers it; port 587 unless given) or `smtps://user:pass@host:port` (TLS from the start; port 465 unless given); escape `@`, `:` and `/` in the password as `%40`, `%3A`, `%2F`. None: mail is not sent but stays queued in the outbox (`GET /v1/admin/mail`), and the log says each time one is queued (its id and kind; never its body).',
  }),
  MAIL_FROM: variable({
    schema: mailFrom,
    default: '',
    doc: 'The `From` of every message: `accounts@example.com` or `Accounts <accounts@example.com>`. Needed with `SMTP_URL`.',
  }),
  MAIL_TEMPLATES_DIR: variable({
    schema: parsed(mailTemplatesFrom),
    default: '',
    doc: 'A folder of your own mail templates, read at start: `<kind>.subject.txt`, `<kind>.txt` and `<kind>.html` (kinds: `test`, `verification`, `signup_existing`, `recovery`, `email_change`, `email_change_notice`, `password_changed`, `invitation`, `admin_invitation`, `factors_reset`); a file missing there keeps the default. `{{recipient}}` and the like stand for values, HTML-escaped in the `.html`.',
  }),
  MFA_ENCRYPTION_KEY: variable({
    schema: mfaKeys,
    default: '',
    doc: 'The key that seals the key ring\'s `factor-secret` keys, and through them every TOTP secret: 32 random bytes as base64url (`openssl rand -base64 32 | tr "+/" "-_" | tr -d =`). Several, comma-separated: the first seals, the others still open (rotate by putting a new one first; the service seals everything again under it at start). None: a key generated on first start in `mfa.key` beside `ADMIN_KEY_PATH` (mode 0600). Keep it apart from the database\'s backups: with it and the database, TOTP secrets can be read.',
  }),
  ADMIN_MFA: variable({
    schema: oneOf(ADMIN_MFA_MODES),
    default: 'optional',
    doc: '`required`: an admin without an active second factor can do nothing but enrol one (the panel asks first; the API answers 403 `mfa_enrolment_required`). `optional`: enrolling is up to each admin.',
  }),
  IMPERSONATION: variable({
    schema: oneOf(['on', 'off'] as const),
    default: 'off',
    doc: '`on`: administrators with the role `support` or above may start a session as an end user (`POST /v1/admin/users/{id}/impersonation`, with a reason): an access token of at most 15 minutes with an `act` claim naming the admin, no refresh token, audited under the admin. `off`: 403 `impersonation_disabled`.',
  }),
  WEBHOOK_ALLOW_HTTP: variable({
    schema: oneOf(['true', 'false'] as const),
    default: 'false',
    doc: '`true`: webhook endpoints may have `http` URLs (a receiver on a private network, in development). `false`: `https` only; creating or changing an endpoint to an `http` URL answers 422, and an endpoint registered with one while it was `true` gets nothing: each delivery fails at once with `http not allowed`. Deliveries over `http` are signed but not encrypted.',
  }),
  WEBAUTHN_RP_ID: variable({
    schema: v.pipe(v.string(), v.trim()),
    default: '',
    doc: "The passkeys' relying party id: the host name (or a registrable suffix of it) browsers reach the service under, e.g. `example.com`. A passkey is bound to it: changing it orphans every passkey. None: the host of `PUBLIC_URL`, else `localhost`.",
  }),
  WEBAUTHN_RP_NAME: variable({
    schema: text,
    default: 'User-account service',
    doc: 'The name a browser shows when it asks to create or use a passkey.',
  }),
  WEBAUTHN_ORIGINS: variable({
    schema: originList,
    default: '',
    doc: "Comma-separated origins (`https://app.example.com`) whose pages may create and use passkeys: the panel's and your applications'. None: the origin of `PUBLIC_URL`, else `http://localhost:<PORT>`.",
  }),
  WEBHOOK_RETRY_SCHEDULE: variable({
    schema: parsed(parseRetrySchedule),
    default: '5,300,1800,7200,18000,36000,36000',
    doc: "The waits between a webhook delivery's attempts, in seconds, comma-separated: after the first attempt fails, the next comes after the first wait, and so on; after the last, the delivery is `failed`. Each wait strays by up to ±20 %; a receiver's `Retry-After` replaces it. The default is the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).",
  }),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: variable({
    schema: oneOf(['true', 'false'] as const),
    default: 'false',
    doc: '`true`: webhooks may be sent to any address, loopback, private (RFC 1918, `fc00::/7`), link-local and cloud-metadata ones included. `false`: only globally routable unicast addresses: the address each connection is about to reach (after DNS) is checked against the IANA special-purpose ranges, and any other is refused (`address not allowed` in the delivery log); an endpoint whose URL is such an address literal answers 422. Only for a receiver on your own network you trust: an admin who can add webhooks could otherwise reach services behind your firewall.',
  }),
  REDIRECT_ALLOW_LIST: variable({
    schema: originList,
    default: '',
    doc: 'Comma-separated origins (`scheme://host[:port]`, exactly) whose URLs a sign-in with an identity provider may end at (`redirect_to`). A same-origin path (`/app/done`) is always allowed; anything else (another origin, `//host`, userinfo, `javascript:`, backslashes) is refused with 422 before the provider is asked. None: same-origin paths only.',
  }),
  IDENTITY_PROVIDER_ALLOW_HTTP: variable({
    schema: oneOf(['true', 'false'] as const),
    default: 'false',
    doc: '`true`: identity providers may have `http` issuers and endpoints (a provider on your own network, in development). `false`: `https` only; creating or changing a provider to an `http` issuer answers 422.',
  }),
  IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES: variable({
    schema: oneOf(['true', 'false'] as const),
    default: 'false',
    doc: '`true`: the service may talk to identity providers at any address, loopback, private and link-local ones included (a company provider behind your firewall). `false`: only globally routable unicast addresses, checked on each connection after DNS, as for webhooks: an admin who can add providers could otherwise make the service reach services behind your firewall.',
  }),
  METRICS_TOKEN: variable({
    schema: v.pipe(
      v.string(),
      v.check(
        (value) => value === '' || value.length >= MIN_METRICS_TOKEN_LENGTH,
        `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
      ),
    ),
    default: '',
    doc: 'Bearer token that reads `GET /metrics` (at least 32 characters). None: no metrics endpoint.',
  }),
};

export type VariableName = keyof typeof VARIABLES;
