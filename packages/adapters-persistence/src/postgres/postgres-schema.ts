import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp as pgTimestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  AdminRole,
  ActionPurpose,
  ActiveFlag,
  AuditAction,
  AuthMethod,
  AuditActor,
  JsonObject,
  MailKind,
  MailRequestKind,
  MailStatus,
  SecondStepKind,
  SecretPurpose,
  SubjectKind,
  FactorKind,
  IdentityProviderKind,
  OAuthAttemptPurpose,
  IdTokenSigningAlgorithm,
  OAuthApplicationType,
  OAuthClientType,
  OpenIdScope,
  UpstreamAccount,
  WebhookDeliveryStatus,
  WebhookDisabledReason,
  WebhookEventSelector,
  WebhookEventType,
} from '@uas/domain';
import { commaJoined } from '../shared/comma-joined';

// Columns are named and typed so that a selected row is the domain record itself.
const timestamp = (name: string) => pgTimestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const json = (name: string) => jsonb(name).$type<JsonObject>();
/**
 * Ids are text rather than uuid so that a malformed id is simply not found, as on SQLite, instead
 * of a cast error. The "C" collation makes `ORDER BY id` byte order, as on SQLite, whatever the
 * database's locale.
 */
const identifier = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });
const authMethods = customType<{ data: readonly AuthMethod[]; driverData: string }>(commaJoined<AuthMethod>());
const secondStepKinds = customType<{ data: readonly SecondStepKind[]; driverData: string }>(
  commaJoined<SecondStepKind>(),
);
const names = customType<{ data: readonly string[]; driverData: string }>(commaJoined<string>());

export const users = pgTable(
  'users',
  {
    id: identifier('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    metadata: json('metadata').notNull(),
    app: json('app').notNull(),
    active: smallint('active').$type<ActiveFlag>().notNull(),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
    version: integer('version').notNull().default(1),
    lastLogin: timestamp('last_login'),
    emailVerified: timestamp('email_verified'),
    bannedAt: timestamp('banned_at'),
    bannedUntil: timestamp('banned_until'),
    banReason: text('ban_reason'),
  },
  // The trigram index on email needs pg_trgm and, like the counter's triggers, lives in a custom migration.
  (t) => [index('users_created_id_idx').on(t.created, t.id), check('users_active_flag', sql`${t.active} in (0, 1)`)],
);

/**
 * How many users there are, and how many of them are active: one row, kept exact by triggers on
 * `users` in the transaction of every insert, delete and truncate (statement-level) and change of
 * a row's `active` (row-level), so an unfiltered list and the overview read their totals here
 * instead of counting. Its `generation` takes the next value of a sequence with every insert,
 * delete, truncate and change of an email or a `created`: what a cached search is valid for (see
 * MatchCache).
 */
export const userCount = pgTable(
  'user_count',
  {
    id: smallint('id').primaryKey(),
    users: bigint('users', { mode: 'number' }).notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull().default(0),
    active: bigint('active', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('user_count_single_row', sql`${t.id} = 1`)],
);

export const admins = pgTable(
  'admins',
  {
    id: identifier('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
    keyFileStamp: text('key_file_stamp'),
    role: text('role').$type<AdminRole>().notNull().default('owner'),
  },
  (t) => [
    index('admins_created_id_idx').on(t.created, t.id),
    check('admins_role', sql`${t.role} in ('owner', 'admin', 'support', 'auditor')`),
  ],
);

/**
 * Invitations of administrators: an owner names an address and a role, the invitee sets a
 * password through a single-use link bound to that address (48 hours). Only the token's digest is
 * stored; `used` is set when it is accepted or withdrawn.
 */
export const adminInvitations = pgTable(
  'admin_invitations',
  {
    id: identifier('id').primaryKey(),
    digest: text('digest').notNull().unique(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    role: text('role').$type<AdminRole>().notNull(),
    invitedBy: identifier('invited_by'),
    created: timestamp('created').notNull(),
    expires: timestamp('expires').notNull(),
    used: timestamp('used'),
  },
  (t) => [
    index('admin_invitations_email_idx').on(t.email),
    check('admin_invitations_role', sql`${t.role} in ('owner', 'admin', 'support', 'auditor')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: identifier('id').primaryKey(),
    kind: text('kind').$type<SubjectKind>().notNull(),
    subjectId: identifier('subject_id').notNull(),
    created: timestamp('created').notNull(),
    lastUsed: timestamp('last_used').notNull(),
    expires: timestamp('expires').notNull(),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    amr: authMethods('amr').notNull().default(sql`'pwd'`),
    revoked: timestamp('revoked'),
    // The admin who opened it by impersonating its user (null for a login): what it does is theirs,
    // and it goes with them.
    impersonatorId: identifier('impersonator_id').references(() => admins.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('sessions_subject_idx').on(t.kind, t.subjectId),
    check('sessions_kind', sql`${t.kind} in ('admin', 'user')`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: identifier('id').primaryKey(),
    sessionId: identifier('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    issued: timestamp('issued').notNull(),
    expires: timestamp('expires').notNull(),
    retired: timestamp('retired'),
    revoked: timestamp('revoked'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId), index('refresh_tokens_expires_idx').on(t.expires)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    // Many failures may share a key and an instant, so rows need a key of their own.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The attempt this row counts, so a success can take it back under every key at once. */
    attempt: text('attempt'),
    key: text('key').notNull(),
    at: timestamp('at').notNull(),
  },
  (t) => [
    index('login_failures_key_at_idx').on(t.key, t.at),
    index('login_failures_at_idx').on(t.at),
    index('login_failures_attempt_idx').on(t.attempt),
  ],
);

/**
 * What happened on each UTC day, for the overview: sign-ups are counted by triggers on `users`,
 * logins as each end user's session opens, failed logins as each is refused, every count in the
 * transaction of what it counts.
 */
export const dailyActivity = pgTable('daily_activity', {
  day: date('day', { mode: 'string' }).primaryKey(),
  signups: integer('signups').notNull().default(0),
  logins: integer('logins').notNull().default(0),
  failedLogins: integer('failed_logins').notNull().default(0),
});

export const signingKeys = pgTable('signing_keys', {
  kid: identifier('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  privateJwk: json('private_jwk').notNull(),
  publicJwk: json('public_jwk').notNull(),
  created: timestamp('created').notNull(),
  activates: timestamp('activates').notNull(),
  retires: timestamp('retires'),
});

/** An audit record's columns, the same whether it waits for the chain (audit_pending) or is in it. */
const auditRecordColumns = () => ({
  time: timestamp('time').notNull(),
  actorType: text('actor_type').$type<AuditActor['type']>().notNull(),
  actorId: identifier('actor_id'),
  action: text('action').$type<AuditAction>().notNull(),
  targetType: text('target_type'),
  targetId: identifier('target_id'),
  /** Canonical JSON text, kept as hashed (jsonb would reorder its keys). */
  changes: text('changes'),
  requestId: text('request_id'),
  clientAddress: text('client_address'),
  userAgent: text('user_agent'),
});

/**
 * The audit trail: one hash chain, in `seq` order. Each filter of the API reads an index that
 * ends in the list's order (time, seq), so a page of the newest matches is a range scan.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    id: identifier('id').notNull().unique(),
    ...auditRecordColumns(),
    previousHash: text('previous_hash'),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_events_time_idx').on(t.time, t.seq),
    index('audit_events_target_idx').on(t.targetId, t.time, t.seq),
    index('audit_events_actor_idx').on(t.actorId, t.time, t.seq),
    index('audit_events_action_idx').on(t.action, t.time, t.seq),
  ],
);

/**
 * Events committed with their change but not yet in the chain: a write inserts its event here, in
 * its own transaction, and touches no row another write needs. The sequencer (see
 * audit-sequencer.ts) moves them into audit_events, in batches, one pass at a time, each event
 * taking the next place of the chain there.
 */
export const auditPending = pgTable('audit_pending', {
  id: identifier('id').primaryKey(),
  /**
   * The order the events were recorded in: the sequencer chains by it, so a change made after
   * another in one process is chained after it (times can be equal, ids are random). SQLite's
   * rowid plays this part there.
   */
  ord: bigserial('ord', { mode: 'number' }).notNull(),
  ...auditRecordColumns(),
});

/**
 * The chain's one row: its head (the last event chained) and its cut (the last event pruned).
 * Only the sequencer's passes and prune write it, one at a time (each locks this row); writes never
 * touch it.
 */
export const auditChain = pgTable(
  'audit_chain',
  {
    id: smallint('id').primaryKey(),
    headSeq: bigint('head_seq', { mode: 'number' }).notNull(),
    headHash: text('head_hash'),
    cutSeq: bigint('cut_seq', { mode: 'number' }).notNull(),
    cutHash: text('cut_hash'),
  },
  (t) => [check('audit_chain_single_row', sql`${t.id} = 1`)],
);

/**
 * The key ring's secrets, by purpose. The partial unique index allows one current secret per
 * purpose, which is what makes racing rotations safe (see rotate()).
 */
export const secrets = pgTable(
  'secrets',
  {
    id: identifier('id').primaryKey(),
    purpose: text('purpose').$type<SecretPurpose>().notNull(),
    material: text('material').notNull(),
    created: timestamp('created').notNull(),
    retired: timestamp('retired'),
  },
  (t) => [uniqueIndex('secrets_current_idx').on(t.purpose).where(sql`${t.retired} is null`)],
);

/**
 * The outbox. `body` is the ciphertext of the text and HTML (sealed under the secret `body_key`
 * names), cleared once the message is delivered or failed. Senders find due messages through the
 * partial index, which holds only those still to send; the admin's list reads (created, id).
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: identifier('id').primaryKey(),
    kind: text('kind').$type<MailKind>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    bodyKey: text('body_key'),
    body: text('body'),
    created: timestamp('created').notNull(),
    status: text('status').$type<MailStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at'),
  },
  (t) => [
    index('mail_messages_created_id_idx').on(t.created, t.id),
    index('mail_messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'sending')`),
    check('mail_messages_status', sql`${t.status} in ('queued', 'sending', 'delivered', 'failed')`),
  ],
);

/**
 * Single-use tokens, stored only as their keyed digest (unique: what a use looks up). A use is one
 * UPDATE … WHERE digest IN (…) AND purpose = ? AND used IS NULL AND expires > ? RETURNING, so of
 * concurrent uses exactly one changes the row. `user_id` is indexed for voiding a user's tokens;
 * they go with the user.
 */
export const actionTokens = pgTable(
  'action_tokens',
  {
    id: identifier('id').primaryKey(),
    digest: text('digest').notNull().unique(),
    purpose: text('purpose').$type<ActionPurpose>().notNull(),
    userId: identifier('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    created: timestamp('created').notNull(),
    expires: timestamp('expires').notNull(),
    used: timestamp('used'),
  },
  (t) => [index('action_tokens_user_id_idx').on(t.userId)],
);

/**
 * Fixed-window hit counters (send limits, per-address request limits): one row per key, counted
 * by one upsert. `window_ends` is indexed for pruning the ended ones.
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEnds: timestamp('window_ends').notNull(),
  },
  (t) => [index('rate_counters_window_ends_idx').on(t.windowEnds)],
);

/**
 * Requests of the enumeration-safe endpoints (recover, resend verification), recorded by one
 * insert and resolved by a worker on any instance. `lease_until` is null until a claim; a claim
 * whose lease ended may be taken over (`attempt` names the claim). Rows go once resolved.
 */
export const mailRequests = pgTable(
  'mail_requests',
  {
    id: identifier('id').primaryKey(),
    kind: text('kind').$type<MailRequestKind>().notNull(),
    email: text('email').notNull(),
    created: timestamp('created').notNull(),
    requestId: text('request_id'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    attempt: integer('attempt').notNull().default(0),
    leaseUntil: timestamp('lease_until'),
  },
  (t) => [index('mail_requests_created_idx').on(t.created)],
);

/**
 * Admins' invitations, each with the user it made (which goes with it when revoked, and takes it
 * along when deleted). The pending ones are listed oldest first, from the partial index; an
 * acceptance finds its invitation by the user (one invitation per user).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: identifier('id').primaryKey(),
    userId: identifier('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedBy: identifier('invited_by'),
    created: timestamp('created').notNull(),
    sent: timestamp('sent').notNull(),
    expires: timestamp('expires').notNull(),
    accepted: timestamp('accepted'),
  },
  (t) => [index('invitations_pending_idx').on(t.created, t.id).where(sql`${t.accepted} is null`)],
);

/**
 * Second factors. An account is an admin or a user, so a factor names it by one of two columns,
 * each a foreign key that takes the factor along when its account is deleted. A TOTP secret is
 * stored only sealed (key id and ciphertext); its last accepted time step only moves forward, by a
 * compare-and-set. A passkey's credential id is unique across every account; its counter is a
 * 32-bit unsigned number, hence bigint.
 */
export const factors = pgTable(
  'factors',
  {
    id: identifier('id').primaryKey(),
    userId: identifier('user_id').references(() => users.id, { onDelete: 'cascade' }),
    adminId: identifier('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<FactorKind>().notNull(),
    created: timestamp('created').notNull(),
    activated: timestamp('activated'),
    lastUsed: timestamp('last_used'),
    totpKeyId: text('totp_key_id'),
    totpCiphertext: text('totp_ciphertext'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    webauthnChallenge: text('webauthn_challenge'),
    credentialId: identifier('credential_id').unique(),
    credentialPublicKey: text('credential_public_key'),
    credentialCounter: bigint('credential_counter', { mode: 'number' }),
    credentialTransports: names('credential_transports'),
    credentialBackedUp: boolean('credential_backed_up'),
  },
  (t) => [
    index('factors_user_idx').on(t.userId, t.created, t.id),
    index('factors_admin_idx').on(t.adminId, t.created, t.id),
    check('factors_one_account', sql`(${t.userId} is null) <> (${t.adminId} is null)`),
    check('factors_kind', sql`${t.kind} in ('totp', 'webauthn')`),
  ],
);

/**
 * Recovery codes, only as digests, each of one account (as factors name theirs) and usable once:
 * a use is one UPDATE … WHERE used IS NULL.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: identifier('user_id').references(() => users.id, { onDelete: 'cascade' }),
    adminId: identifier('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    digest: identifier('digest').notNull(),
    used: timestamp('used'),
  },
  (t) => [
    uniqueIndex('recovery_codes_user_digest_idx').on(t.userId, t.digest),
    uniqueIndex('recovery_codes_admin_digest_idx').on(t.adminId, t.digest),
    check('recovery_codes_one_account', sql`(${t.userId} is null) <> (${t.adminId} is null)`),
  ],
);

/**
 * Sign-ins awaiting their second step (or a passwordless passkey's assertion, with no account
 * yet), keyed by the digest of the handle the client holds. Completed once, by one UPDATE … WHERE
 * completed IS NULL AND failures < ? AND expires > ?; `expires` is indexed for pruning.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: identifier('id').primaryKey(),
    owner: text('owner').$type<SubjectKind>().notNull(),
    userId: identifier('user_id').references(() => users.id, { onDelete: 'cascade' }),
    adminId: identifier('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    kinds: secondStepKinds('kinds').notNull(),
    webauthnChallenge: text('webauthn_challenge'),
    methods: authMethods('methods').notNull(),
    created: timestamp('created').notNull(),
    expires: timestamp('expires').notNull(),
    failures: integer('failures').notNull().default(0),
    completed: timestamp('completed'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sign_in_challenges_expires_idx').on(t.expires),
    check('sign_in_challenges_owner', sql`${t.owner} in ('admin', 'user')`),
    check(
      'sign_in_challenges_account',
      sql`(${t.owner} = 'user' and ${t.adminId} is null) or (${t.owner} = 'admin' and ${t.userId} is null)`,
    ),
  ],
);

/**
 * Webhook endpoints. Each signing secret is stored only sealed (key id and ciphertext, as TOTP
 * secrets are); the previous one beside it until `previous_secret_until`, after a rotation.
 * `cursor` is the last audit event turned into deliveries for the endpoint.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: identifier('id').primaryKey(),
    url: text('url').notNull(),
    events: jsonb('events').$type<readonly WebhookEventSelector[]>().notNull(),
    enabled: boolean('enabled').notNull(),
    description: text('description').notNull().default(''),
    secretKey: text('secret_key').notNull(),
    secret: text('secret').notNull(),
    previousSecretKey: text('previous_secret_key'),
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until'),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    failingSince: timestamp('failing_since'),
    disabledReason: text('disabled_reason').$type<WebhookDisabledReason>(),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
  },
  (t) => [
    index('webhooks_created_id_idx').on(t.created, t.id),
    check('webhooks_disabled_reason', sql`${t.disabledReason} in ('gone', 'failing')`),
  ],
);

/**
 * One event to send to one endpoint, and how sending it went; it goes with its endpoint. One per
 * endpoint and audit event (a test event has none). Workers find due deliveries by
 * (status, next_attempt); an endpoint's log reads (webhook_id, created).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: identifier('id').primaryKey(),
    webhookId: identifier('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }),
    eventType: text('event_type').$type<WebhookEventType>().notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttempt: timestamp('next_attempt').notNull(),
    leaseUntil: timestamp('lease_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastDurationMs: integer('last_duration_ms'),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
    delivered: timestamp('delivered'),
  },
  (t) => [
    // Not unique: an import's event makes a delivery per user, all at its place (the id tells them apart).
    index('webhook_deliveries_webhook_seq_idx').on(t.webhookId, t.seq),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttempt),
    // A claim takes the oldest due of each endpoint, up to its share of the attempts in flight.
    index('webhook_deliveries_webhook_due_idx').on(t.webhookId, t.status, t.nextAttempt),
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.created),
    check('webhook_deliveries_status', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/**
 * Identity providers users may sign in with. The client secret is stored only sealed (key id and
 * ciphertext, both null for a public client); scopes are a JSON array, since a scope may hold a comma.
 */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: identifier('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    kind: text('kind').$type<IdentityProviderKind>().notNull(),
    issuer: text('issuer'),
    clientId: text('client_id').notNull(),
    clientSecretKey: text('client_secret_key'),
    clientSecret: text('client_secret'),
    scopes: jsonb('scopes').$type<readonly string[]>().notNull(),
    enabled: boolean('enabled').notNull(),
    autoLink: boolean('auto_link').notNull(),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
  },
  (t) => [
    index('identity_providers_created_id_idx').on(t.created, t.id),
    check('identity_providers_kind', sql`${t.kind} in ('oidc', 'github', 'google', 'microsoft', 'apple')`),
    check('identity_providers_secret_sealed', sql`(${t.clientSecretKey} is null) = (${t.clientSecret} is null)`),
  ],
);

/**
 * Users' accounts at identity providers, unique on (provider, subject), never keyed by email. They
 * go with their user and with their provider.
 */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: identifier('id').primaryKey(),
    userId: identifier('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: identifier('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull(),
    created: timestamp('created').notNull(),
    lastSignIn: timestamp('last_sign_in'),
  },
  (t) => [
    uniqueIndex('external_identities_provider_subject_idx').on(t.providerId, t.subject),
    index('external_identities_user_idx').on(t.userId),
  ],
);

/**
 * Trips through a provider, found only by digests of the single-use values they handed out, each
 * unique; every step spends its value in one UPDATE … WHERE <unused and unexpired> RETURNING.
 * They go with their provider; `expires` and `code_expires` let housekeeping forget them.
 */
export const oauthAttempts = pgTable(
  'oauth_attempts',
  {
    id: identifier('id').primaryKey(),
    providerId: identifier('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<OAuthAttemptPurpose>().notNull(),
    userId: identifier('user_id'),
    redirectTo: text('redirect_to').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    handoffDigest: text('handoff_digest').unique(),
    stateDigest: text('state_digest').notNull().unique(),
    browserDigest: text('browser_digest'),
    nonce: text('nonce').notNull(),
    verifierKey: text('verifier_key').notNull(),
    verifier: text('verifier').notNull(),
    created: timestamp('created').notNull(),
    expires: timestamp('expires').notNull(),
    stateUsed: timestamp('state_used'),
    codeDigest: text('code_digest').unique(),
    codeExpires: timestamp('code_expires'),
    codeUsed: timestamp('code_used'),
    account: jsonb('account').$type<UpstreamAccount>(),
  },
  (t) => [
    index('oauth_attempts_expires_idx').on(t.expires),
    check('oauth_attempts_purpose', sql`${t.purpose} in ('sign_in', 'link')`),
  ],
);

/**
 * Applications that sign their users in through this service (OpenID Connect relying parties).
 * A confidential client's secret is sealed: key id and ciphertext, both or neither.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: identifier('id').primaryKey(),
    name: text('name').notNull(),
    type: text('type').$type<OAuthClientType>().notNull(),
    applicationType: text('application_type').$type<OAuthApplicationType>().notNull(),
    redirectUris: jsonb('redirect_uris').$type<readonly string[]>().notNull(),
    postLogoutRedirectUris: jsonb('post_logout_redirect_uris').$type<readonly string[]>().notNull(),
    scopes: jsonb('scopes').$type<readonly OpenIdScope[]>().notNull(),
    firstParty: boolean('first_party').notNull(),
    idTokenSigningAlgorithm: text('id_token_signed_response_alg').$type<IdTokenSigningAlgorithm>(),
    secretKeyId: text('secret_key_id'),
    secretCiphertext: text('secret_ciphertext'),
    created: timestamp('created').notNull(),
    updated: timestamp('updated').notNull(),
  },
  (t) => [
    index('oauth_clients_created_id_idx').on(t.created, t.id),
    check('oauth_clients_type', sql`${t.type} in ('public', 'confidential')`),
    check('oauth_clients_application_type', sql`${t.applicationType} in ('web', 'native')`),
    check(
      'oauth_clients_id_token_signed_response_alg',
      sql`${t.idTokenSigningAlgorithm} in ('ES256', 'EdDSA', 'RS256')`,
    ),
    check('oauth_clients_secret_sealed', sql`(${t.secretKeyId} is null) = (${t.secretCiphertext} is null)`),
  ],
);

/** The engine's payload as JSON text: kept as given (jsonb would reorder its keys and refuses \u0000). */
const jsonText = customType<{ data: JsonObject; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (text) => JSON.parse(text) as JsonObject,
});

/**
 * What the OpenID engine keeps between requests, by model and id: its payload as JSON text, kept
 * as given, and beside it the columns the service finds records by. Removed with their grant,
 * their client and their user (by those repositories, in their transactions: no foreign key, so
 * the engine storing a record never fails on a client or user deleted meanwhile); `expires` lets
 * housekeeping forget them.
 */
export const openIdRecords = pgTable(
  'openid_records',
  {
    model: text('model').notNull(),
    id: identifier('id').notNull(),
    /** The order first stored (an upsert keeps it): SQLite's rowid plays this part there. */
    ord: bigserial('ord', { mode: 'number' }).notNull(),
    payload: jsonText('payload').notNull(),
    grantId: identifier('grant_id'),
    uid: identifier('uid'),
    accountId: identifier('account_id'),
    clientId: identifier('client_id'),
    expires: timestamp('expires'),
    consumed: timestamp('consumed'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('openid_records_grant_idx').on(t.grantId),
    index('openid_records_uid_idx').on(t.model, t.uid),
    // Led by the account: a user's deletion finds their records by it alone, a user's grants by both.
    index('openid_records_account_idx').on(t.accountId, t.model, t.ord),
    index('openid_records_client_idx').on(t.clientId),
    index('openid_records_expires_idx').on(t.expires),
  ],
);
